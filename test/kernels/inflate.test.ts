// Inflate family: Kernels.inflateZlib (js = pako, wasm = assembly/inflate.ts) against node:zlib.
// Known answers and hand-made malformed streams for both sets; then, for the WASM inflater, a
// differential run over every zlib block of the corpus and fixtures, 10^5 streams from node's
// deflater (levels, strategies, window sizes, memLevels, flushes), and 10^5 mutated or truncated
// streams, run through the raw export with guard bytes around the output and the input placed
// at the very end of linear memory: a write outside the output changes a guard, a read past the
// input traps. On failure the message names the seed and the case.
import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/kernels/status.js';
import { instantiateSync } from '../../src/kernels/wasm/runtime.js';
import { BitWriter, dynamicHeader, fixedBlock, storedBlock, zlibWrap } from '../helpers/deflate-writer.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import { itCorpus } from '../helpers/needs.js';
import { corpusPath, FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';
import { teeworldsBlocks, wwdBlocks, type ZlibBlock } from '../helpers/zlib-blocks.js';

const C = zlib.constants;
const enc = (s: string) => new TextEncoder().encode(s);

/** node:zlib's answer with the library's own settings (one output chunk: the whole output is the window). */
function nodeInflate(src: Uint8Array, size: number): { bytes: Uint8Array; used: number } | null {
  try {
    const r = zlib.inflateSync(src, { info: true, chunkSize: Math.max(64, size + 1) }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return { bytes: r.buffer, used: r.engine.bytesWritten };
  } catch {
    return null;
  }
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

// ── the raw export, fenced ─────────────────────────────────────────────────────────────────
const rt = instantiateSync();
const GUARD = 64;
const GUARD_BYTE = 0xa5;

/** Runs the WASM export on `src` into `size` bytes with guards around the output and `src` ending where linear memory ends. */
function fenced(src: Uint8Array, size: number): { status: number; out: Uint8Array } {
  const base = rt.exports.arenaEnsure(GUARD + size + GUARD + src.length + 64) >>> 0;
  const mem = rt.u8;
  const dst = base + GUARD;
  const at = mem.length - src.length; // a read past the input's end traps (RuntimeError)
  mem.fill(GUARD_BYTE, base, dst + size + GUARD);
  mem.set(src, at);
  const status = rt.exports.inflateZlib(at, src.length, dst, size);
  for (let i = base; i < dst; i++) if (mem[i] !== GUARD_BYTE) throw new Error(`write before the output (${dst - i} bytes)`);
  for (let i = dst + size; i < dst + size + GUARD; i++) if (mem[i] !== GUARD_BYTE) throw new Error(`write past the output (+${i - dst - size})`);
  if (!same(mem.subarray(at), src)) throw new Error('the input was written to');
  return { status, out: mem.slice(dst, dst + size) };
}

/** The WASM inflater must give node's bytes and node's count of input bytes used. */
function expectLikeNode(src: Uint8Array, size: number, what: string): void {
  const want = nodeInflate(src, size);
  const got = fenced(src, size);
  if (want && want.bytes.length === size) {
    if (got.status < 0 || !same(got.out, want.bytes) || got.status !== want.used)
      throw new Error(
        `${what}: node:zlib inflates ${size} bytes using ${want.used}; wasm gives ${got.status}${got.status >= 0 ? (same(got.out, want.bytes) ? ' (same bytes)' : ' (other bytes)') : ''}`,
      );
  } else if (got.status >= 0) {
    throw new Error(`${what}: wasm succeeded (${got.status}) where node:zlib ${want ? `inflates ${want.bytes.length} bytes, not ${size}` : 'fails'}`);
  }
}

// ── inputs ─────────────────────────────────────────────────────────────────────────────────
const WORDS = ['tile', 'layer', 'the', 'map', ' ', ' ', '\n', 'game', 'quad', '0', '255', 'entities', 'a', 'of'];

/** Data of one of several shapes: random, few-symbol, runs, words, repeated chunk, sparse 4-byte tiles. */
function sampleData(rng: Prng, maxLen: number): Uint8Array {
  const n = rng.int(maxLen + 1);
  const out = new Uint8Array(n);
  switch (rng.int(6)) {
    case 0:
      for (let i = 0; i < n; i++) out[i] = rng.next() & 0xff;
      break;
    case 1: {
      const k = 2 + rng.int(3);
      for (let i = 0; i < n; i++) out[i] = 97 + rng.int(k);
      break;
    }
    case 2:
      for (let i = 0; i < n; ) {
        const v = rng.next() & 0xff;
        for (let r = 1 + rng.int(300); r > 0 && i < n; r--) out[i++] = v;
      }
      break;
    case 3:
      for (let i = 0; i < n; ) for (const c of enc(WORDS[rng.int(WORDS.length)]!)) if (i < n) out[i++] = c;
      break;
    case 4: {
      const chunk = rng.bytes(1 + rng.int(300));
      for (let i = 0; i < n; i++) out[i] = chunk[i % chunk.length]!;
      break;
    }
    default:
      for (let i = 0; i + 4 <= n; i += 4) if (rng.int(5) === 0) out[i] = 1 + rng.int(200);
  }
  return out;
}

const STRATEGIES = [C.Z_DEFAULT_STRATEGY, C.Z_FILTERED, C.Z_HUFFMAN_ONLY, C.Z_RLE, C.Z_FIXED];

/** A zlib stream of `data` from node's deflater with random settings; sometimes two flushed pieces (empty stored blocks between). */
function sampleStream(rng: Prng, data: Uint8Array): Uint8Array {
  const opts = () => ({ level: rng.int(10), strategy: STRATEGIES[rng.int(STRATEGIES.length)]!, windowBits: 8 + rng.int(8), memLevel: 1 + rng.int(9) });
  if (rng.int(8) !== 0) return new Uint8Array(zlib.deflateSync(data, opts()));
  // A sync or full flush ends its piece with an empty stored block (00 00 FF FF), not final.
  const cut = rng.int(data.length + 1);
  const flush = rng.int(2) ? C.Z_SYNC_FLUSH : C.Z_FULL_FLUSH;
  const a = zlib.deflateRawSync(data.subarray(0, cut), { ...opts(), finishFlush: flush });
  const b = zlib.deflateRawSync(data.subarray(cut), opts());
  return zlibWrap(new Uint8Array(Buffer.concat([a, b])), data);
}

// ── known answers, both kernel sets ────────────────────────────────────────────────────────
describe.each(KERNEL_SETS)('inflateZlib [%s]', (name, k) => {
  const run = (src: Uint8Array, size: number) => {
    const dst = new Uint8Array(size);
    const r = k.inflateZlib(src, dst);
    return { r, dst };
  };
  /** The wasm set must give exactly `status`; pako words some faults differently, so it only has to fail. */
  const expectStatus = (src: Uint8Array, size: number, status: number, what: string) => {
    const { r } = run(src, size);
    if (name === 'wasm') expect(r, what).toBe(status);
    else expect(r, what).toBeLessThan(0);
  };

  it('the empty stream, stored, fixed and dynamic blocks; bytes used with trailing data', () => {
    expect(run(Uint8Array.of(0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01), 0).r).toBe(8);
    const text = enc('levelkit inflates levelkit inflates levelkit '.repeat(40));
    for (const level of [0, 1, 9]) {
      const z = new Uint8Array(zlib.deflateSync(text, { level }));
      const withTail = new Uint8Array([...z, 1, 2, 3]);
      const { r, dst } = run(withTail, text.length);
      expect(r, `level ${level}`).toBe(z.length);
      expect(same(dst, text)).toBe(true);
    }
    const fixed = zlib.deflateSync(text, { strategy: C.Z_FIXED });
    expect(run(fixed, text.length).r).toBe(fixed.length);
  });

  it('maximal length and distance (258 from 32768 back), empty stored blocks anywhere', () => {
    const lead = new Prng(3).bytes(32768);
    const plain = new Uint8Array([...lead, ...lead.subarray(0, 258), ...lead.subarray(258, 516)]);
    const w = new BitWriter();
    storedBlock(w, false, []);
    storedBlock(w, false, lead.subarray(0, 20000));
    storedBlock(w, false, []);
    storedBlock(w, false, lead.subarray(20000));
    fixedBlock(w, false).match(258, 32768).end();
    storedBlock(w, false, []);
    fixedBlock(w, true).match(258, 32768).end();
    const z = zlibWrap(w.done(), plain);
    const { r, dst } = run(z, plain.length);
    expect(r).toBe(z.length);
    expect(same(dst, plain)).toBe(true);
  });

  it('overlapping matches of every distance 1..20 and lengths 3..258', () => {
    const rng = new Prng(21);
    for (let d = 1; d <= 20; d++)
      for (const len of [3, 4, 7, 8, 9, 15, 16, 17, 31, 100, 257, 258]) {
        const head = rng.bytes(d);
        const plain = new Uint8Array(d + len + 40);
        plain.set(head);
        for (let i = d; i < d + len; i++) plain[i] = plain[i - d]!;
        plain.set(rng.bytes(40), d + len); // literals after the match overwrite any word-copy overrun
        const b = fixedBlock(new BitWriter(), true).literals(head).match(len, d);
        const z = zlibWrap(
          b
            .literals(plain.subarray(d + len))
            .end()
            .done(),
          plain,
        );
        const { r, dst } = run(z, plain.length);
        expect(r, `distance ${d} length ${len}`).toBe(z.length);
        expect(same(dst, plain), `distance ${d} length ${len}`).toBe(true);
      }
  });

  it('refuses bad zlib headers', () => {
    const ok = zlib.deflateSync(enc('abc'));
    const bad = (b0: number, b1: number) => new Uint8Array([b0, b1, ...ok.subarray(2)]);
    expectStatus(bad(0x79, 0x9c), 3, Status.BAD_ZLIB_HEADER, 'method 9');
    expectStatus(bad(0x88, 0x98), 3, Status.BAD_ZLIB_HEADER, 'window 64 KiB'); // (0x88 << 8 | 0x98) % 31 == 0
    expectStatus(bad(0x78, 0x9d), 3, Status.BAD_ZLIB_HEADER, 'check bits');
    expectStatus(bad(0x78, 0xbb), 3, Status.BAD_ZLIB_HEADER, 'preset dictionary'); // FDICT, check bits right
    expectStatus(Uint8Array.of(0x78), 0, Status.TRUNCATED, 'one byte');
    expectStatus(new Uint8Array(0), 0, Status.TRUNCATED, 'nothing');
  });

  it('refuses bad blocks: type 3, LEN/NLEN, symbols 286/287, distance codes 30/31, distance too far back', () => {
    const plain = enc('abcdef');
    const wrap = (w: BitWriter) => zlibWrap(w.done(), plain);
    expectStatus(wrap(new BitWriter().bits(1, 1).bits(3, 2).bits(0, 16)), 6, Status.BAD_DEFLATE_DATA, 'block type 3');
    expectStatus(wrap(storedBlock(new BitWriter(), true, plain, 0x1234)), 6, Status.BAD_DEFLATE_DATA, 'NLEN');
    for (const s of [286, 287])
      expectStatus(wrap(fixedBlock(new BitWriter(), true).literals(plain).symbol(s).end()), 6, Status.BAD_DEFLATE_DATA, `symbol ${s}`);
    for (const d of [30, 31])
      expectStatus(wrap(fixedBlock(new BitWriter(), true).literals(plain).match(3, 1, d).end()), 9, Status.BAD_DEFLATE_DATA, `distance code ${d}`);
    expectStatus(wrap(fixedBlock(new BitWriter(), true).literals(plain).match(3, 7).end()), 9, Status.BAD_DEFLATE_DATA, 'distance 7 after 6 bytes');
    expectStatus(wrap(fixedBlock(new BitWriter(), true).match(3, 1).end()), 3, Status.BAD_DEFLATE_DATA, 'a match first');
  });

  it('refuses bad Huffman codes: over-subscribed, incomplete, repeat first or past the end, no end-of-block, too many symbols', () => {
    const plain = enc('ab');
    const litlen = (over: Record<number, number>) => {
      const l = new Array(257).fill(0);
      l[97] = 1;
      l[256] = 1;
      for (const [s, v] of Object.entries(over)) l[Number(s)] = v;
      return l;
    };
    const block = (ll: number[], dist: number[], cl?: number[]) => {
      const w = new BitWriter();
      const sym = dynamicHeader(w, true, ll, dist, cl);
      sym(97);
      sym(256);
      return zlibWrap(w.done(), enc('a'));
    };
    // A complete code (a, end-of-block: one bit each) decodes; the variants do not.
    expect(run(block(litlen({}), [1, 1]), 1).r).toBeGreaterThan(0);
    expectStatus(block(litlen({ 98: 1 }), [1, 1]), 1, Status.BAD_HUFFMAN_CODE, 'three 1-bit codes');
    expectStatus(block(litlen({ 97: 2 }), [1, 1]), 1, Status.BAD_HUFFMAN_CODE, 'incomplete literal/length code');
    expectStatus(block(litlen({}), [2, 2, 2, 2, 2]), 1, Status.BAD_HUFFMAN_CODE, 'over-subscribed distance code');
    expectStatus(block(litlen({}), [2]), 1, Status.BAD_HUFFMAN_CODE, 'one 2-bit distance code');
    expect(run(block(litlen({}), [1]), 1).r, 'one 1-bit distance code is allowed').toBeGreaterThan(0);
    expect(run(block(litlen({}), [0]), 1).r, 'no distance code at all is allowed').toBeGreaterThan(0);
    expectStatus(block(litlen({ 97: 1, 256: 0, 98: 1 }), [1, 1]), 1, Status.BAD_HUFFMAN_CODE, 'no end-of-block');
    const incompleteCl = Array.from({ length: 19 }, (_, s) => (s < 15 ? 4 : 0)); // 15 of 16 codes
    expectStatus(block(litlen({}), [1, 1], incompleteCl), 1, Status.BAD_HUFFMAN_CODE, 'incomplete code-length code');
    // HLIT = 30 (287 codes), HDIST = 31 (32 codes): counts only the fixed code may use.
    for (const [hlit, hdist] of [
      [30, 0],
      [0, 30],
      [29, 31],
    ] as const) {
      const w = new BitWriter().bits(1, 1).bits(2, 2).bits(hlit, 5).bits(hdist, 5).bits(15, 4).bits(0, 60);
      expectStatus(zlibWrap(w.done(), plain), 2, Status.BAD_HUFFMAN_CODE, `HLIT ${hlit} HDIST ${hdist}`);
    }
    // Code-length code: symbol 16 (1 bit), 17 (1 bit) only. A 16 first has nothing to repeat; a 17 run past 258 lengths.
    const cl = new Array(19).fill(0);
    cl[16] = 1;
    cl[17] = 1;
    const header = () => new BitWriter().bits(1, 1).bits(2, 2).bits(0, 5).bits(0, 5).bits(15, 4);
    const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
    const withCl = (w: BitWriter) => {
      for (const s of order) w.bits(cl[s]!, 3);
      return w;
    };
    expectStatus(zlibWrap(withCl(header()).code(0, 1).bits(0, 2).done(), plain), 2, Status.BAD_HUFFMAN_CODE, 'repeat with nothing before');
    const runs = withCl(header());
    for (let i = 0; i < 26; i++) runs.code(1, 1).bits(7, 3); // 26 × 10 zeros = 260 > 258
    expectStatus(zlibWrap(runs.done(), plain), 2, Status.BAD_HUFFMAN_CODE, 'zero run past the end');
  });

  it('refuses truncation, overflow, short output and a wrong Adler-32', () => {
    const plain = new Prng(8).bytes(3000).map((b) => b & 15);
    const z = new Uint8Array(zlib.deflateSync(plain));
    for (const cut of [2, 3, 10, z.length - 5, z.length - 4, z.length - 1]) expect(run(z.subarray(0, cut), plain.length).r, `cut at ${cut}`).toBeLessThan(0);
    if (name === 'wasm') expect(run(z.subarray(0, z.length - 1), plain.length).r).toBe(Status.TRUNCATED);
    expectStatus(z, plain.length - 1, Status.OVERFLOW, 'one byte too small');
    expectStatus(z, plain.length + 1, Status.SHORT_OUTPUT, 'one byte too big');
    const bad = z.slice();
    bad[bad.length - 2]! ^= 1;
    expectStatus(bad, plain.length, Status.BAD_CHECKSUM, 'Adler-32');
  });

  it('inflateTiles: the index and flags columns of the inflated records, the dirty count, the same failures', () => {
    const rng = new Prng(31);
    for (const cells of [1, 15, 16, 17, 1000, 40_000]) {
      const records = new Uint8Array(cells * 4);
      for (let i = 0; i < cells; i++)
        if (rng.int(4) === 0) {
          records[i * 4] = rng.int(256);
          records[i * 4 + 1] = rng.int(16);
          if (rng.int(50) === 0) records[i * 4 + 2 + rng.int(2)] = 1 + rng.int(255);
        }
      const z = new Uint8Array(zlib.deflateSync(records));
      const dst = new Uint8Array(2 * cells);
      const want = new Uint8Array(2 * cells);
      let dirty = 0;
      for (let i = 0; i < cells; i++) {
        want[i] = records[i * 4]!;
        want[cells + i] = records[i * 4 + 1]!;
        if (records[i * 4 + 2] || records[i * 4 + 3]) dirty++;
      }
      expect(k.inflateTiles(z, dst, cells), `${cells} cells`).toBe(dirty);
      expect(same(dst, want), `${cells} cells`).toBe(true);
      expect(k.inflateTiles(z, new Uint8Array(2 * cells + 2), cells + 1), 'one tile too many').toBeLessThan(0);
      const bad = z.slice();
      bad[bad.length - 1]! ^= 1;
      expect(k.inflateTiles(bad, new Uint8Array(2 * cells), cells), 'Adler-32').toBeLessThan(0);
    }
  });

  it('inflateTiles writes every byte of dst: all-zero windows too, so dst may be uninitialized memory', () => {
    // 70,000 cells: the middle 40,000 are empty (whole 16 Ki-tile windows of zero columns in WASM).
    const cells = 70_000;
    const records = new Uint8Array(cells * 4);
    for (let i = 0; i < cells; i++)
      if (i < 15_000 || i >= 55_000) {
        records[i * 4] = 1 + (i % 200);
        records[i * 4 + 1] = i % 16;
      }
    const z = new Uint8Array(zlib.deflateSync(records));
    const want = new Uint8Array(2 * cells);
    for (let i = 0; i < cells; i++) {
      want[i] = records[i * 4]!;
      want[cells + i] = records[i * 4 + 1]!;
    }
    const dst = new Uint8Array(2 * cells).fill(0xa5);
    expect(k.inflateTiles(z, dst, cells)).toBe(0);
    expect(same(dst, want)).toBe(true);
  });

  it('inflateResident: kernels read the block where it lies and give what they give on a copy; failures call nothing; a throw in use passes', () => {
    const rng = new Prng(47);
    // A block of [grid of 5000 cells][object-like table: 300 records of 8 words + tails, one tail past the 256 KiB gather window].
    const cells = 5000;
    const grid = new Uint32Array(cells).map(() => (rng.int(3) === 0 ? 0xffffffff : ((rng.int(4) << 16) | rng.int(900)) >>> 0));
    const recs: Uint8Array[] = [];
    for (let r = 0; r < 300; r++) {
      const tail = r === 150 ? 300_000 : rng.int(20);
      const rec = new Uint8Array(32 + tail);
      const dv = new DataView(rec.buffer);
      for (let w = 0; w < 8; w++) dv.setInt32(w * 4, rng.next() | 0, true);
      dv.setUint32(4, tail, true);
      rec.set(rng.bytes(tail), 32);
      recs.push(rec);
    }
    const table = new Uint8Array(recs.reduce((n, r) => n + r.length, 0));
    let at = 0;
    for (const r of recs) {
      table.set(r, at);
      at += r.length;
    }
    const plain = new Uint8Array(cells * 4 + table.length);
    plain.set(new Uint8Array(grid.buffer));
    plain.set(table, cells * 4);
    const z = new Uint8Array(zlib.deflateSync(plain));
    const layout = { fixedWords: 8, lenIndex: 1, lenCount: 1 };
    const run = (block: Uint8Array) => {
      const counts = new Uint32Array(4),
        maxIds = new Int32Array(4).fill(-1);
      k.scanTileGrid(new Uint32Array(block.buffer, block.byteOffset, cells), counts, maxIds);
      const cols = Array.from({ length: 8 }, () => new Int32Array(300));
      const strings = new Uint8Array(table.length - 300 * 32),
        starts = new Uint32Array(300);
      const end = k.gatherRecords(block, cells * 4, 300, layout, cols, strings, starts);
      return {
        counts: [...counts],
        maxIds: [...maxIds],
        end,
        cols: cols.map((c) => [...c]),
        strings: createHash('sha256').update(strings).digest('hex'),
        starts: [...starts],
      };
    };
    let got: ReturnType<typeof run> | undefined;
    let blockCopy: Uint8Array | undefined;
    expect(
      k.inflateResident(z, plain.length, (block, consumed) => {
        expect(consumed).toBe(z.length);
        blockCopy = block.slice();
        got = run(block);
      }),
    ).toBe(z.length);
    expect(same(blockCopy!, plain)).toBe(true);
    expect(got).toEqual(run(plain.slice()));
    let called = false;
    const bad = z.slice();
    bad[bad.length - 1]! ^= 1;
    expect(
      k.inflateResident(bad, plain.length, () => {
        called = true;
      }),
    ).toBe(Status.BAD_CHECKSUM);
    expect(k.inflateResident(z, plain.length - 1, () => {})).toBe(Status.OVERFLOW);
    expect(called).toBe(false);
    expect(() =>
      k.inflateResident(z, plain.length, () => {
        throw new RangeError('from use');
      }),
    ).toThrow('from use');
    // The arena is free again after a throw: the next trip works.
    expect(k.inflateResident(z, plain.length, (block) => expect(block[7]).toBe(plain[7]))).toBe(z.length);
  });

  it('does not write to its input', () => {
    const z = new Uint8Array(zlib.deflateSync(new Prng(4).bytes(5000)));
    const copy = z.slice();
    run(z, 5000);
    expect(same(z, copy)).toBe(true);
  });
});

// ── differential: WASM inflater vs node:zlib ───────────────────────────────────────────────
describe('inflateZlib [wasm] vs node:zlib', () => {
  const unique = (blocks: ZlibBlock[]) => {
    const seen = new Set<string>();
    return blocks.filter((b) => {
      const h = createHash('sha1').update(b.src).digest('hex');
      return !seen.has(h) && !!seen.add(h);
    });
  };

  it('every zlib block of the fixtures', () => {
    const blocks = [
      ...listFiles(`${FIXTURES}/teeworlds`, /\.map$/).flatMap((p) => safely(() => teeworldsBlocks(p, readBytes(p)))),
      ...listFiles(`${FIXTURES}/wwd`, /\.wwd$/).flatMap((p) => safely(() => wwdBlocks(p, readBytes(p)))),
    ];
    expect(blocks.length).toBeGreaterThan(10);
    for (const b of unique(blocks)) expectLikeNode(b.src, b.size, b.name);
  });

  itCorpus(
    'teeworlds',
    'every zlib block of the Teeworlds and WWD corpus',
    (dir) => {
      const blocks = unique([
        ...listFiles(dir, /\.map$/).flatMap((p) => safely(() => teeworldsBlocks(p, readBytes(p)))),
        ...listFiles(corpusPath('wwd'), /\.wwd$/).flatMap((p) => safely(() => wwdBlocks(p, readBytes(p)))),
      ]);
      expect(blocks.length).toBeGreaterThan(1000);
      let bytes = 0;
      const dst = new Uint8Array(Math.max(...blocks.map((b) => b.size)));
      const k = KERNEL_SETS.find(([n]) => n === 'wasm')![1];
      for (const b of blocks) {
        // Through the binding here (fencing multi-MB outputs per block would only slow this down).
        const want = nodeInflate(b.src, b.size);
        const out = dst.subarray(0, b.size);
        const r = k.inflateZlib(b.src, out);
        if (want && want.bytes.length === b.size) {
          if (r !== want.used || !same(out, want.bytes)) throw new Error(`${b.name}: wasm ${r}, node:zlib used ${want.used}`);
        } else if (r >= 0) throw new Error(`${b.name}: wasm succeeded where node:zlib fails`);
        bytes += b.size;
      }
      console.log(`[inflate] ${blocks.length} distinct corpus blocks, ${(bytes / 1e6).toFixed(0)} MB inflated, identical to node:zlib`);
    },
    300_000,
  );

  it('10^5 streams from node:zlib (levels 0–9, 5 strategies, windowBits 8–15, memLevel 1–9, flushes) inflate identically', () => {
    const seed = 0x1f2e3d;
    const rng = new Prng(seed);
    for (let t = 0; t < 100_000; t++) {
      const data = sampleData(rng, t % 500 === 0 ? 70_000 : t % 20 === 0 ? 6000 : 400);
      const z = sampleStream(rng, data);
      const got = fenced(z, data.length);
      if (got.status !== z.length || !same(got.out, data))
        throw new Error(`seed ${seed} case ${t}: status ${got.status} for a ${z.length}-byte stream of ${data.length} bytes`);
    }
  }, 120_000);

  it('10^5 mutated or truncated streams give node:zlib’s bytes or fail; never other bytes, never a trap or a stray write', () => {
    const seed = 0xc0ffee;
    const rng = new Prng(seed);
    const pool = Array.from({ length: 1500 }, (_, i) => {
      const data = sampleData(rng, i % 50 === 0 ? 40_000 : 600);
      return { data, z: sampleStream(rng, data) };
    });
    let valid = 0;
    for (let t = 0; t < 100_000; t++) {
      const { data, z } = pool[rng.int(pool.length)]!;
      const m = mutate(rng, z);
      const what = `seed ${seed} case ${t}`;
      // Half the time, make the damaged DEFLATE data a well-formed zlib stream again (its own
      // Adler-32, cut after its last block): then node:zlib accepts it and the bytes must agree.
      const raw = rng.int(2) ? rawInflate(m.subarray(2)) : null;
      if (raw && m[0] === 0x78 && (m[1]! & 0x20) === 0 && ((0x78 << 8) | m[1]!) % 31 === 0) {
        const fixed = zlibWrap(m.subarray(2, 2 + raw.used), raw.bytes);
        fixed[1] = m[1]!;
        const got = fenced(fixed, raw.bytes.length);
        if (got.status !== fixed.length || !same(got.out, raw.bytes)) throw new Error(`${what}: a valid stream node:zlib inflates gives ${got.status}`);
        valid++;
      } else expectLikeNode(m, rng.int(4) ? data.length : rng.int(2 * data.length + 2), what);
    }
    expect(valid).toBeGreaterThan(3000);
  }, 120_000);
});

function rawInflate(src: Uint8Array): { bytes: Uint8Array; used: number } | null {
  try {
    const r = zlib.inflateRawSync(src, { info: true, maxOutputLength: 1 << 22 }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return { bytes: r.buffer, used: r.engine.bytesWritten };
  } catch {
    return null;
  }
}

/** One to three bit flips, byte changes, cuts, insertions or deletions. */
function mutate(rng: Prng, z: Uint8Array): Uint8Array {
  let m = z.slice();
  for (let n = 1 + rng.int(3); n > 0; n--) {
    const at = rng.int(m.length + 1);
    switch (rng.int(6)) {
      case 0:
      case 1:
        if (at < m.length) m[at]! ^= 1 << rng.int(8);
        break;
      case 2:
        if (at < m.length) m[at] = rng.next() & 0xff;
        break;
      case 3:
        m = m.slice(0, at);
        break;
      case 4:
        m = new Uint8Array([...m.subarray(0, at), rng.next() & 0xff, ...m.subarray(at)]);
        break;
      default:
        m = new Uint8Array([...m.subarray(0, at), ...m.subarray(at + 1)]);
    }
  }
  return m;
}

function safely<T>(f: () => T[]): T[] {
  try {
    return f();
  } catch {
    return [];
  }
}
