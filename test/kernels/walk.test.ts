// Record walks (walkRecords): known answers, malformed programs and tables with their status, and
// a seeded differential run of each kernel set against the naive oracle (helpers/oracles.ts).
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/kernels/status.js';
import type { Kernels } from '../../src/kernels/types.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import * as oracle from '../helpers/oracles.js';
import { Prng } from '../helpers/prng.js';

type Walk = Pick<Kernels, 'walkRecords'>;

function run(k: Walk, src: Uint8Array, offset: number, count: number, program: number[]) {
  const ops = Math.floor(program.length / 3);
  const columns = new Int32Array(ops * count);
  const end = k.walkRecords(src, offset, count, Int32Array.from(program), columns);
  return end < 0 ? { end } : { end, columns: [...columns] };
}

/** Random records for `program` (string lengths and array counts kept small). */
function records(rng: Prng, program: number[], count: number, lead: number): Uint8Array {
  const out: number[] = Array.from({ length: lead }, () => rng.next() & 0xff);
  for (let r = 0; r < count; r++) {
    const words: number[] = [];
    for (let i = 0; i < program.length; i += 3) {
      const [op, a, b] = [program[i]!, program[i + 1]!, program[i + 2]!];
      if (op === 0) {
        const v = rng.next() % 5;
        words.push(v);
        out.push(v, 0, 0, 0);
      } else if (op === 1) {
        const n = rng.next() % 4;
        words.push(0);
        out.push(n, 0);
        for (let j = 0; j < 2 * n; j++) out.push(rng.next() & 0xff);
      } else {
        words.push(0);
        for (let j = 0; j < words[a]! * b; j++) out.push(rng.next() & 0xff);
      }
    }
  }
  return Uint8Array.from(out);
}

const PROGRAM = [1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 4, 1, 0, 0, 2, 1, 8];

describe.each(KERNEL_SETS)('walkRecords [%s]', (_name, k) => {
  it('known answer: a string, a word and an array', () => {
    const src = Uint8Array.of(7, /* r0 */ 1, 0, 0x41, 0, 2, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, /* r1 */ 0, 0, 0, 0, 0, 0);
    expect(run(k, src, 1, 2, [1, 0, 0, 0, 0, 0, 2, 1, 4])).toEqual({ end: src.length, columns: [1, 17, 2, 0, 9, 23] });
  });
  it('count 0 returns the offset; a bad offset is TRUNCATED', () => {
    expect(run(k, new Uint8Array(8), 3, 0, PROGRAM)).toEqual({ end: 3, columns: [] });
    for (const off of [-1, 9, 1.5, Number.NaN]) expect(run(k, new Uint8Array(8), off, 1, PROGRAM).end).toBe(Status.TRUNCATED);
  });
  it('bad programs are CORRUPT', () => {
    const src = new Uint8Array(64);
    for (const p of [
      [3, 0, 0],
      [0, 0, 0, 2, 1, 4],
      [0, 0, 0, 2, 0, -1],
      [2, 0, 4],
      [0, 0],
    ])
      expect(run(k, src, 0, 1, p).end, JSON.stringify(p)).toBe(Status.CORRUPT);
  });
  it('a string, word or array past the end is TRUNCATED, at every cut', () => {
    const rng = new Prng(14);
    const src = records(rng, PROGRAM, 5, 3);
    const whole = run(k, src, 3, 5, PROGRAM);
    expect(whole.end).toBe(src.length);
    for (let cut = 3; cut < src.length; cut++) expect(run(k, src.subarray(0, cut), 3, 5, PROGRAM).end, `cut ${cut}`).toBe(Status.TRUNCATED);
  });
  it('a huge array count is TRUNCATED, not a wrap-around', () => {
    const src = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4);
    expect(run(k, src, 0, 1, [0, 0, 0, 2, 0, 8]).end).toBe(Status.TRUNCATED);
    expect(run(k, Uint8Array.of(0xff, 0xff, 1), 0, 1, [1, 0, 0]).end).toBe(Status.TRUNCATED);
  });
  it('agrees with the naive oracle on seeded random tables', () => {
    const rng = new Prng(0x3d47a);
    for (let round = 0; round < 200; round++) {
      const ops = 1 + (rng.next() % 8);
      const program: number[] = [];
      for (let o = 0; o < ops; o++) {
        const op = o === 0 ? rng.next() % 2 : rng.next() % 3;
        program.push(op, op === 2 ? rng.next() % o : 0, op === 2 ? rng.next() % 9 : 0);
      }
      const count = rng.next() % 40;
      const lead = rng.next() % 5;
      let src = records(rng, program, count, lead);
      if (round % 3 === 0) src = src.subarray(0, rng.next() % (src.length + 1));
      else if (round % 7 === 0) src = src.map((b) => (rng.next() % 16 === 0 ? rng.next() & 0xff : b));
      expect(run(k, src, Math.min(lead, src.length), count, program), `round ${round} seed 0x3d47a`).toEqual(
        run(oracle, src, Math.min(lead, src.length), count, program),
      );
    }
  });
  it('a large table (about 5 MiB) matches the oracle', () => {
    const rng = new Prng(99);
    const src = records(rng, PROGRAM, 200_000, 0);
    expect(src.length).toBeGreaterThan(2_000_000);
    expect(run(k, src, 0, 200_000, PROGRAM)).toEqual(run(oracle, src, 0, 200_000, PROGRAM));
  });
});
