// splitNwLines (board family, Graal .nw line tables): known answers, CRLF, BOARD rows taken
// whole or not, full tables (OVERFLOW, never a write past them), and both kernel sets giving
// identical tables on every .nw file of the fixtures and the corpus, and on random bytes.
import { describe, expect, it } from 'vitest';
import { jsKernels } from '../../src/kernels/js/index.js';
import { Status } from '../../src/kernels/status.js';
import type { Kernels } from '../../src/kernels/types.js';
import { wasmKernels } from '../../src/kernels/wasm/index.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import { corpusDir, FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** The kernel's tables, cut to their counts (or the status). */
function split(k: Kernels, src: Uint8Array, trust: boolean, cap = src.length + 1, boardCap = (src.length >>> 4) + 1) {
  const starts = new Int32Array(cap),
    ends = new Int32Array(cap),
    boards = new Int32Array(boardCap * 5),
    out = new Int32Array(2);
  const count = k.splitNwLines(src, trust, starts, ends, boards, out);
  if (count < 0) return { status: count };
  return { count, starts: [...starts.subarray(0, count)], ends: [...ends.subarray(0, count)], boards: [...boards.subarray(0, out[0]! * 5)], crlf: out[1] };
}

describe.each(KERNEL_SETS)('splitNwLines [%s]', (_name, k) => {
  it('splits at LF, keeps a last line without LF, and none after a final LF', () => {
    expect(split(k, enc('ab\n\ncd'), false)).toEqual({ count: 3, starts: [0, 3, 4], ends: [2, 3, 6], boards: [], crlf: 0 });
    expect(split(k, enc('ab\n'), false)).toEqual({ count: 1, starts: [0], ends: [2], boards: [], crlf: 0 });
    expect(split(k, new Uint8Array(0), true)).toEqual({ count: 0, starts: [], ends: [], boards: [], crlf: 0 });
  });

  it('drops CRs only when the first line ends in CRLF', () => {
    expect(split(k, enc('a\r\n\r\nb\rc\nd\r'), false)).toEqual({ count: 4, starts: [0, 3, 5, 9], ends: [1, 3, 8, 10], boards: [], crlf: 1 });
    expect(split(k, enc('a\nb\r\n'), false)).toEqual({ count: 2, starts: [0, 2], ends: [1, 4], boards: [], crlf: 0 });
  });

  it('takes well-formed BOARD rows whole (data unsearched) only when trusted', () => {
    const text = enc('GLEVNW01\nBOARD 1 2 2 0 A\nAB\nBOARD 0 0 1 0 A\nBOARD 3 1 1 7 AB\r\nBOARD 63 0 2 0 AAAA\n');
    expect(split(k, text, true)).toEqual({
      count: 5,
      // Row 1's data holds an LF (taken whole anyway: it is 2w bytes before an LF); row 2's data
      // is 'A' + LF, not followed by an LF; row 3 keeps its CR (not a CRLF file); row 4 has x + w > 64.
      starts: [0, 9, 28, 44, 62],
      ends: [8, 27, 43, 61, 81],
      boards: [1, 23, 2, 0, 2 * 64 + 1, 3, 58, 1, 7, 1 * 64 + 3],
      crlf: 0,
    });
    expect(split(k, text, false)).toMatchObject({ count: 6, boards: [] });
  });

  it('reports OVERFLOW for a full table and writes nothing past it', () => {
    const starts = new Int32Array(4).fill(-7),
      ends = new Int32Array(4).fill(-7),
      out = new Int32Array(2);
    expect(k.splitNwLines(enc('a\nb\nc\n'), false, starts.subarray(0, 2), ends.subarray(0, 2), new Int32Array(0), out)).toBe(Status.OVERFLOW);
    expect([...starts.subarray(2), ...ends.subarray(2)]).toEqual([-7, -7, -7, -7]);
    const rows = enc('BOARD 0 0 1 0 AA\nBOARD 0 1 1 0 AA\n');
    expect(split(k, rows, true, 8, 1)).toEqual({ status: Status.OVERFLOW });
    expect(split(k, rows, true, 8, 2)).toMatchObject({ count: 2 });
  });
});

describe('splitNwLines: the WASM set gives the TS tables', () => {
  const wasm = wasmKernels();
  const same = (src: Uint8Array, trust: boolean) => expect(split(wasm, src, trust)).toEqual(split(jsKernels, src, trust));

  it('on every .nw file of the fixtures and the corpus, trusted or not, copied in or held (holdBytes)', () => {
    const dir = corpusDir('graal');
    const files = [...listFiles(`${FIXTURES}/graal`, /\.nw$/i), ...(dir ? listFiles(dir, /\.nw$/i) : [])];
    expect(files.length).toBeGreaterThan(dir ? 1000 : 0);
    for (const path of files) {
      const src = readBytes(path);
      same(src, true);
      same(src, false);
      const scratch = 9 * (src.length + 1) + 20 * ((src.length >>> 4) + 1) + 256;
      const held = wasm.holdBytes(src, scratch, (bytes) => [split(wasm, bytes, true), split(wasm, bytes, false)]);
      expect(held).toEqual([split(jsKernels, src, true), split(jsKernels, src, false)]);
    }
  });

  it('on random lines built from BOARD headers, digits, spaces, CR and LF', () => {
    const rng = new Prng(21);
    const pieces = ['BOARD ', '0 ', '63 ', '1 ', '64 ', '1234567 ', '255 ', '256 ', 'AB', 'AAAA', '\n', '\r\n', '\r', ' ', 'x'];
    for (let t = 0; t < 2000; t++) {
      let s = '';
      for (let n = rng.int(41); n > 0; n--) s += pieces[rng.int(pieces.length)];
      same(enc(s), true);
      same(enc(s), false);
    }
  });
});

describe.each(KERNEL_SETS)('holdBytes [%s]', (name, k) => {
  const text = enc('BOARD 0 0 3 0 AB//BA\nBOARD 1 1 2 0 AAAB\n');
  const rows = Int32Array.of(14, 3, 0, 35, 2, 65);

  it('kernels read the held bytes (and views of them) as they read a copy; use returns through; src is unchanged', () => {
    const copy = text.slice();
    const want = new Uint16Array(130);
    expect(k.decodeBoardRows(text, rows, 2, want)).toBe(0);
    const got = k.holdBytes(text, 1 << 12, (held) => {
      expect([...held]).toEqual([...text]);
      const dst = new Uint16Array(130);
      // A view starting past the held block's start: offsets are relative to the view.
      const tail = held.subarray(21);
      const tailRow = new Uint16Array(2);
      expect(k.decodeBoardRows(tail, Int32Array.of(14, 2, 0), 1, tailRow)).toBe(0);
      expect(k.decodeBoardRows(held, rows, 2, dst)).toBe(0);
      return { dst, tailRow, lines: split(k, held, true) };
    });
    expect([...got.dst]).toEqual([...want]);
    expect([...got.tailRow]).toEqual([0, 1]);
    expect(got.lines).toEqual(split(jsKernels, text, true));
    expect([...text]).toEqual([...copy]);
  });

  it('a throw in use passes through and the next hold works', () => {
    expect(() =>
      k.holdBytes(text, 64, () => {
        throw new RangeError('from use');
      }),
    ).toThrow('from use');
    expect(k.holdBytes(text, 64, (held) => held[0])).toBe(0x42);
  });

  if (name === 'wasm') {
    it('a call that would grow memory past the scratch asked for throws (a held view never detaches)', () => {
      expect(() => k.holdBytes(text, 16, (held) => k.decodeBoardRows(held, rows, 2, new Uint16Array(1 << 25)))).toThrow(/scratch/);
      expect(k.holdBytes(text, 64, (held) => held.length)).toBe(text.length);
    });
  }
});
