// Round trip or refuse (issue 6's rule for .wdata): seeded mutations of decoded fixtures either
// make encode() throw EncodeError, or encode to bytes that decode back to exactly the mutated
// model (and re-encode to the same bytes). Nothing else: no other exception, no silent change.
import { describe, expect, it } from 'vitest';
import { EncodeError, wdata } from '../../src/index.js';
import { Prng } from '../helpers/prng.js';
import { CASES, normal } from './wdata-helpers.js';

type Level = wdata.WdataLevel;
type Obj = Record<string, unknown>;

/** Every object/array slot reachable from `v` (parent, key), for picking a random place to change. */
function slots(v: unknown, out: [Obj | unknown[], string | number][] = []): [Obj | unknown[], string | number][] {
  if (v === null || typeof v !== 'object') return out;
  if (ArrayBuffer.isView(v)) return out;
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([v, i]);
      slots(x, out);
    });
  } else {
    for (const [k, x] of Object.entries(v as Obj)) {
      if (k === 'warnings' || k === 'counts' || k === 'contentDigest' || k === 'format' || k === 'summaryOnly') continue;
      out.push([v as Obj, k]);
      slots(x, out);
    }
  }
  return out;
}

function mutate(rng: Prng, level: Level): string {
  const all = slots(level);
  const [parent, key] = all[rng.next() % all.length]!;
  const cur = (parent as Obj)[key as string];
  const pick = <T>(xs: T[]): T => xs[rng.next() % xs.length]!;
  let next: unknown;
  if (typeof cur === 'number') next = pick([0, -1, 1.5, 2 ** 31, -(2 ** 31), 2 ** 32, Number.NaN, Math.fround(-3.25), cur + 1, 0.1]);
  else if (cur === null) next = pick([0, wdata.wstring('x'), [], new Int32Array(0)]);
  else if (typeof cur === 'string') next = 'changed';
  else if (typeof cur === 'boolean') next = !cur;
  else if (ArrayBuffer.isView(cur)) {
    const a = cur as unknown as Float32Array;
    if (a.length > 0 && rng.next() % 2 === 0) {
      const copy = a.slice();
      copy[rng.next() % copy.length] = pick([-0.5, 7, 0, 123456]);
      next = copy;
    } else next = pick([a.slice(0, Math.max(0, a.length - 1)), new Float64Array(a.length), new (a.constructor as Float32ArrayConstructor)(a.length + 1), null]);
  } else if (Array.isArray(cur)) next = pick([cur.slice(1), [...cur, cur[0]], [], null]);
  else if (cur && typeof cur === 'object' && 'text' in cur) {
    next = pick([
      { ...(cur as wdata.WString), text: `${(cur as wdata.WString).text}ü` },
      { ...(cur as wdata.WString), nul: !(cur as wdata.WString).nul },
      wdata.wstring('\ud83d'),
      wdata.wstring('🔥 x', false),
      { ...(cur as wdata.WString), text: 'end\0', nul: false },
    ]);
  } else next = null;
  (parent as Obj)[key as string] = next;
  return `${String(key)}: ${Object.prototype.toString.call(cur)} → ${Object.prototype.toString.call(next)}`;
}

describe('wdata round trip or refuse', () => {
  it('seeded mutations: EncodeError, or an exact round trip', () => {
    const seed = 0x3d47a14;
    const rng = new Prng(seed);
    let refused = 0;
    let written = 0;
    for (let round = 0; round < 600; round++) {
      const c = CASES[round % CASES.length]!;
      const level = wdata.decode(c.bytes);
      const what = [mutate(rng, level), ...(round % 4 === 0 ? [mutate(rng, level)] : [])].join('; ');
      let bytes: Uint8Array;
      try {
        bytes = wdata.encode(level);
      } catch (e) {
        if (!(e instanceof EncodeError)) throw new Error(`round ${round} (${c.path}, seed ${seed}) ${what}: ${(e as Error).stack}`);
        expect(e.format).toBe('wdata');
        expect(e.path.length).toBeGreaterThan(0);
        refused++;
        continue;
      }
      written++;
      const back = wdata.decode(bytes);
      expect(wdata.encode(back)).toEqual(bytes);
      // Offsets of groups are recomputed on write; compare everything else.
      for (const x of [back, level]) if (x.eventBoxes && typeof x.eventBoxes === 'object') x.eventBoxes.offsets = new Uint32Array(0);
      // JSON text: far faster than a deep toEqual on whole models (the bytes check above keeps -0 and NaN bits honest).
      const same = JSON.stringify(normal(back)) === JSON.stringify(normal(level));
      if (!same) expect(normal(back), `round ${round} (${c.path}, seed ${seed}) ${what}`).toEqual(normal(level));
    }
    console.log(`wdata round trip or refuse (seed ${seed}): ${written} written back exactly, ${refused} refused`);
    expect(written).toBeGreaterThan(150);
    expect(refused).toBeGreaterThan(150);
  }, 120_000);
});
