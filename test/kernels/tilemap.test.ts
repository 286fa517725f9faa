// Tilemap family (Teeworlds tile layers): known answers, edge lengths, multi-MiB inputs, malformed
// inputs with their status, and a seeded differential run of each kernel set against the naive
// oracle (helpers/oracles.ts).
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/kernels/status.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import * as oracle from '../helpers/oracles.js';
import { Prng } from '../helpers/prng.js';

/** Records {index, flags, skip, reserved} from [index, flags, runLength] triples. */
function skipRecords(runs: [number, number, number][]): Uint8Array {
  const out = new Uint8Array(runs.length * 4);
  runs.forEach(([i, f, n], k) => {
    out[k * 4] = i;
    out[k * 4 + 1] = f;
    out[k * 4 + 2] = n - 1;
  });
  return out;
}

function randomRuns(rng: Prng, cells: number): Uint8Array {
  const runs: [number, number, number][] = [];
  for (let left = cells; left > 0; ) {
    const n = Math.min(left, rng.int(3) === 0 ? 1 + rng.int(256) : 1 + rng.int(4));
    runs.push([rng.int(256), rng.int(16), n]);
    left -= n;
  }
  return skipRecords(runs);
}

/** Index of the first byte where a and b differ (-1 when equal), for failure messages. */
function firstDiff(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

// Record counts either side of the WASM kernels' 64 KB arena window: ~40,000 records cross it
// a few times, 100,003 many times and end mid-window (with 6-byte records, mid-record too).
const WINDOW_COUNTS = [40_000, 100_003] as const;

describe.each(KERNEL_SETS)('expandTileSkip [%s]', (_name, k) => {
  it('known answers', () => {
    const index = new Uint8Array(8),
      flags = new Uint8Array(8);
    expect(
      k.expandTileSkip(
        skipRecords([
          [7, 1, 3],
          [0, 0, 1],
          [9, 8, 4],
        ]),
        index,
        flags,
      ),
    ).toBe(8);
    expect(Array.from(index)).toEqual([7, 7, 7, 0, 9, 9, 9, 9]);
    expect(Array.from(flags)).toEqual([1, 1, 1, 0, 8, 8, 8, 8]);
  });
  it('lengths 0 and 1, runs of 1, 15, 16, 17 and 256 (the loop/fill boundary)', () => {
    expect(k.expandTileSkip(new Uint8Array(0), new Uint8Array(0), new Uint8Array(0))).toBe(0);
    expect(k.expandTileSkip(skipRecords([[5, 2, 1]]), new Uint8Array(1), new Uint8Array(1))).toBe(1);
    for (const n of [1, 15, 16, 17, 255, 256]) {
      const index = new Uint8Array(n + 1),
        flags = new Uint8Array(n + 1);
      expect(
        k.expandTileSkip(
          skipRecords([
            [3, 4, n],
            [1, 1, 1],
          ]),
          index,
          flags,
        ),
        `run ${n}`,
      ).toBe(n + 1);
      expect(index.subarray(0, n).every((v) => v === 3) && index[n] === 1 && flags[n - 1] === 4).toBe(true);
    }
  });
  it('malformed input gives its status', () => {
    expect(k.expandTileSkip(new Uint8Array(5), new Uint8Array(8), new Uint8Array(8))).toBe(Status.TRUNCATED);
    expect(k.expandTileSkip(Uint8Array.of(1, 0, 0, 1), new Uint8Array(8), new Uint8Array(8))).toBe(Status.CORRUPT);
    // Capacity is checked per run: 3 + 3 into 5 overflows on the second run.
    expect(
      k.expandTileSkip(
        skipRecords([
          [1, 0, 3],
          [2, 0, 3],
        ]),
        new Uint8Array(5),
        new Uint8Array(5),
      ),
    ).toBe(Status.OVERFLOW);
    expect(k.expandTileSkip(skipRecords([[1, 0, 1]]), new Uint8Array(0), new Uint8Array(4))).toBe(Status.OVERFLOW);
  });
  it('a 16 Mi-tile layer', () => {
    const cells = 4096 * 4096;
    const src = skipRecords(Array.from({ length: cells / 256 }, (_, i) => [i & 0xff, 0, 256] as [number, number, number]));
    const index = new Uint8Array(cells),
      flags = new Uint8Array(cells);
    expect(k.expandTileSkip(src, index, flags)).toBe(cells);
    expect(index[cells - 1]).toBe((cells / 256 - 1) & 0xff);
  });
  it('seeded random differential vs the naive oracle', () => {
    const seed = 31337;
    const rng = new Prng(seed);
    for (let t = 0; t < 100; t++) {
      const cells = rng.int(5000);
      const src = randomRuns(rng, cells);
      const cap = rng.int(4) === 0 ? rng.int(cells + 1) : cells;
      const a = [new Uint8Array(cap), new Uint8Array(cap)] as const,
        b = [new Uint8Array(cap), new Uint8Array(cap)] as const;
      const na = k.expandTileSkip(src, a[0], a[1]),
        nb = oracle.expandTileSkip(src, b[0], b[1]);
      expect(na, `seed ${seed} case ${t}`).toBe(nb);
      if (nb >= 0) expect(a, `seed ${seed} case ${t}`).toEqual(b);
    }
  });
});

describe.each(KERNEL_SETS)('expandTileSkip across arena windows [%s]', (_name, k) => {
  /** `records` skip records: mostly short runs, some of 256 (the cap), so runs straddle any window size. */
  function manyRuns(rng: Prng, records: number): { src: Uint8Array; cells: number } {
    const src = new Uint8Array(records * 4);
    let cells = 0;
    for (let r = 0; r < records; r++) {
      const n = rng.int(4) === 0 ? 256 - rng.int(8) : 1 + rng.int(5);
      src[r * 4] = rng.int(256);
      src[r * 4 + 1] = rng.int(16);
      src[r * 4 + 2] = n - 1;
      cells += n;
    }
    return { src, cells };
  }
  it.each(WINDOW_COUNTS)('%i records: exact, short capacity, truncated and a bad reserved byte late in the stream equal the naive oracle', (records) => {
    const seed = 0x7ee5 + records;
    const rng = new Prng(seed);
    const { src, cells } = manyRuns(rng, records);
    const bad = src.slice();
    bad[(records - 3) * 4 + 3] = 1; // reserved ≠ 0 three records from the end
    const cases: [string, Uint8Array, number][] = [
      ['exact', src, cells],
      ['capacity − 1', src, cells - 1],
      ['truncated by 2 bytes', src.subarray(0, src.length - 2), cells],
      ['reserved byte', bad, cells],
    ];
    for (const [what, input, cap] of cases) {
      const msg = `seed ${seed}, ${records} records, ${what}`;
      const a = [new Uint8Array(cap).fill(0xee), new Uint8Array(cap).fill(0xee)] as const,
        b = [new Uint8Array(cap), new Uint8Array(cap)] as const;
      const na = k.expandTileSkip(input, a[0], a[1]),
        nb = oracle.expandTileSkip(input, b[0], b[1]);
      expect(na, msg).toBe(nb);
      if (what === 'exact') expect(nb, msg).toBe(cells);
      else expect(nb, msg).toBeLessThan(0);
      if (nb >= 0) expect([firstDiff(a[0], b[0]), firstDiff(a[1], b[1])], msg).toEqual([-1, -1]);
    }
  });
});

describe.each(KERNEL_SETS)('splitColumns [%s]', (_name, k) => {
  it('known answers for CTile (keep 2 of 4) and speedup (keep 6 of 6)', () => {
    const dst = new Uint8Array(6);
    expect(k.splitColumns(Uint8Array.of(1, 2, 0, 0, 3, 4, 1, 0, 5, 6, 0, 9), 4, 2, 3, dst)).toBe(2);
    expect(Array.from(dst)).toEqual([1, 3, 5, 2, 4, 6]);
    const sp = new Uint8Array(12);
    expect(k.splitColumns(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 6, 6, 2, sp)).toBe(0);
    expect(Array.from(sp)).toEqual([1, 7, 2, 8, 3, 9, 4, 10, 5, 11, 6, 12]);
  });
  it('lengths 0 and 1, strides 1..6', () => {
    expect(k.splitColumns(new Uint8Array(0), 4, 2, 0, new Uint8Array(0))).toBe(0);
    for (let stride = 1; stride <= 6; stride++) {
      const src = Uint8Array.from({ length: stride }, (_, i) => i + 1);
      const dst = new Uint8Array(stride);
      expect(k.splitColumns(src, stride, stride, 1, dst)).toBe(0);
      expect(Array.from(dst)).toEqual(Array.from(src));
    }
  });
  it('malformed input gives its status', () => {
    expect(k.splitColumns(new Uint8Array(7), 4, 2, 2, new Uint8Array(4))).toBe(Status.TRUNCATED);
    expect(k.splitColumns(new Uint8Array(8), 4, 2, 2, new Uint8Array(3))).toBe(Status.OVERFLOW);
    expect(k.splitColumns(new Uint8Array(8), 2, 3, 2, new Uint8Array(8))).toBe(Status.CORRUPT);
    expect(k.splitColumns(new Uint8Array(8), 0, 0, 2, new Uint8Array(8))).toBe(Status.CORRUPT);
  });
  it('a 16 Mi-tile CTile grid', () => {
    const n = 1 << 24;
    const src = new Uint8Array(n * 4);
    for (let i = 0; i < n; i += 4099) {
      src[i * 4] = i & 0xff;
      src[i * 4 + 2] = 1;
    }
    const dst = new Uint8Array(n * 2);
    expect(k.splitColumns(src, 4, 2, n, dst)).toBe(Math.ceil(n / 4099));
    expect(dst[4099 * 7]).toBe((4099 * 7) & 0xff);
  });
  it('grids spanning many arena windows, mostly zero with scattered tiles, equal the naive oracle', () => {
    const rng = new Prng(77);
    for (const [stride, keep] of [
      [4, 2],
      [2, 2],
      [4, 4],
      [6, 6],
      [3, 1],
    ] as const) {
      const count = 200_003;
      const src = new Uint8Array(count * stride);
      for (let i = 0; i < 3000; i++) src[rng.int(src.length)] = 1 + rng.int(255);
      const a = new Uint8Array(keep * count).fill(0xee),
        b = new Uint8Array(keep * count);
      expect(k.splitColumns(src, stride, keep, count, a), `stride ${stride}`).toBe(oracle.splitColumns(src, stride, keep, count, b));
      expect(Buffer.compare(a, b), `stride ${stride}`).toBe(0);
    }
  });
  it('seeded random differential vs the naive oracle (unaligned inputs too)', () => {
    const seed = 4242;
    const rng = new Prng(seed);
    for (let t = 0; t < 200; t++) {
      const stride = 1 + rng.int(6),
        keep = rng.int(stride + 1),
        count = rng.int(3000);
      const src = rng.bytes(count * stride + 3).subarray(rng.int(3));
      for (let i = 0; i < src.length; i++) if (rng.int(4)) src[i] = 0;
      const a = new Uint8Array(keep * count),
        b = new Uint8Array(keep * count);
      expect(k.splitColumns(src, stride, keep, count, a), `seed ${seed} case ${t}`).toBe(oracle.splitColumns(src, stride, keep, count, b));
      expect(a, `seed ${seed} case ${t}`).toEqual(b);
    }
  });
  it.each(WINDOW_COUNTS)('%i records across arena windows: dirty dropped columns and zero runs > 16 records equal the naive oracle', (count) => {
    for (const [stride, keep] of [
      [4, 2],
      [6, 6],
      [2, 2],
    ] as const) {
      const seed = count * 8 + stride;
      const rng = new Prng(seed);
      const src = new Uint8Array(count * stride);
      for (let r = 0; r < count; ) {
        // An all-zero run longer than the kernel's 16-record fast-path group, often enough to
        // land on window edges; otherwise a record with random bytes in every column, kept or not.
        if (rng.int(40) === 0) {
          r += 17 + rng.int(120);
          continue;
        }
        for (let c = 0; c < stride; c++) if (rng.int(3) === 0) src[r * stride + c] = 1 + rng.int(255);
        r++;
      }
      const msg = `seed ${seed}, count ${count}, stride ${stride}, keep ${keep}`;
      const a = new Uint8Array(keep * count).fill(0xee),
        b = new Uint8Array(keep * count);
      const na = k.splitColumns(src, stride, keep, count, a),
        nb = oracle.splitColumns(src, stride, keep, count, b);
      expect(na, msg).toBe(nb);
      // With dropped columns some records, not all, are dirty; else nothing is dropped.
      if (keep < stride) expect([nb > count / 10, nb < count], `${msg}: ${nb} dirty`).toEqual([true, true]);
      else expect(nb, msg).toBe(0);
      expect(firstDiff(a, b), msg).toBe(-1);
    }
  });
});

describe.each(KERNEL_SETS)('splitColumns into a zeroed destination [%s]', (_name, k) => {
  it('gives what the naive oracle gives when told dst is zero (sparse grids, all-zero windows skipped)', () => {
    const seed = 777;
    const rng = new Prng(seed);
    for (const [stride, keep] of [
      [4, 2],
      [6, 6],
      [2, 2],
    ] as const) {
      for (const count of [0, 1, 17, 40_000, 100_003]) {
        // Mostly empty, like real physics layers: a few non-zero records in long zero stretches.
        const src = new Uint8Array(count * stride);
        for (let i = 0; i < count / 500; i++) src[rng.int(src.length)] = 1 + rng.int(255);
        const want = new Uint8Array(keep * count);
        const wantDirty = oracle.splitColumns(src, stride, keep, count, want);
        const got = new Uint8Array(keep * count);
        expect(k.splitColumns(src, stride, keep, count, got, true), `seed ${seed} ${stride}/${keep} × ${count}`).toBe(wantDirty);
        expect(firstDiff(got, want), `seed ${seed} ${stride}/${keep} × ${count}`).toBe(-1);
      }
    }
  });
});

describe.each(KERNEL_SETS)('splitTilesInPlace [%s]', (_name, k) => {
  /** What splitColumns (4 → 2) gives for the same records: the oracle for the in-place split. */
  function expected(records: Uint8Array, count: number): { cols: Uint8Array; dirty: number } {
    const cols = new Uint8Array(count * 2);
    return { cols, dirty: oracle.splitColumns(records, 4, 2, count, cols) };
  }
  it('known answer', () => {
    const buf = Uint8Array.of(1, 2, 0, 0, 3, 4, 1, 0, 5, 6, 0, 9, 0xaa);
    expect(k.splitTilesInPlace(buf, 3)).toBe(2);
    expect(Array.from(buf.subarray(0, 6))).toEqual([1, 3, 5, 2, 4, 6]);
    expect(buf[12]).toBe(0xaa);
  });
  it('short buffers give TRUNCATED and stay as they were', () => {
    const buf = Uint8Array.of(1, 2, 3, 4, 5, 6, 7);
    expect(k.splitTilesInPlace(buf, 2)).toBe(Status.TRUNCATED);
    expect(Array.from(buf)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(k.splitTilesInPlace(new Uint8Array(0), 0)).toBe(0);
    for (const count of [-1, 1.5, Number.NaN]) expect(k.splitTilesInPlace(buf, count), `count ${count}`).toBe(Status.TRUNCATED);
    expect(Array.from(buf)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it('a 4 Mi-tile grid (its waiting flags outgrow the kept scratch) equals splitColumns', () => {
    const count = 4 << 20;
    const records = new Uint8Array(count * 4);
    for (let i = 0; i < count; i += 4099) {
      records[i * 4] = i & 0xff;
      records[i * 4 + 1] = (i >> 8) & 0xff;
      records[i * 4 + 3] = 1;
    }
    const want = expected(records, count);
    expect(k.splitTilesInPlace(records, count)).toBe(want.dirty);
    expect(firstDiff(records.subarray(0, count * 2), want.cols)).toBe(-1);
  });
  it.each([1, 2, 3, 4, 5, 6, 7, 15, 16, 17, 100, 16_383, 16_384, 16_385, 49_152, 100_003, 200_003])(
    '%i records (random, mostly zero) equal splitColumns, bytes after 4 × count untouched',
    (count) => {
      const rng = new Prng(count);
      const records = new Uint8Array(count * 4);
      for (let r = 0; r < count; r++) if (rng.int(4) === 0) for (let c = 0; c < 4; c++) if (rng.int(c < 2 ? 2 : 9) === 0) records[r * 4 + c] = 1 + rng.int(255);
      const want = expected(records, count);
      const buf = new Uint8Array(count * 4 + 8).fill(0x5a);
      buf.set(records);
      expect(k.splitTilesInPlace(buf, count), `count ${count}`).toBe(want.dirty);
      expect(firstDiff(buf.subarray(0, count * 2), want.cols), `count ${count}`).toBe(-1);
      expect(Array.from(buf.subarray(count * 4)), `count ${count}`).toEqual(new Array(8).fill(0x5a));
    },
  );
});
