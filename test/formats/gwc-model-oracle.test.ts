// #42's "Right means": for every corpus cartridge (the GWC bytecode and the GWZ source), the objects the static analysis finds
// (modelFacts(objectModel(…))) equal what the cartridge itself builds when lua5.1 runs it with the
// recording Wherigo library (test/helpers/wherigo-oracle.ts): kinds and order, ids, names,
// descriptions, flags, zone points, references, inputs, timers. A '?' (unknown) in the model is
// allowed only where UNKNOWN_ALLOWED says why; any other difference fails, listed object by object.
// Skipped visibly without ../shared/corpus or lua5.1; failing under CI.
import { basename } from 'node:path';
import { expect, it } from 'vitest';
import { modelFacts } from '../../src/formats/gwc/analysis/facts.js';
import { objectModel } from '../../src/formats/gwc/analysis/index.js';
import type { ObjectFacts } from '../../src/formats/gwc/analysis/types.js';
import { gwc } from '../../src/index.js';
import { describeWith } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { oracleCorpus, oracleFacts } from '../helpers/wherigo-oracle.js';

/**
 * Where the model may say '?' and why, by cartridge file: the fields that hold unknowns (every one
 * of them must, so an entry goes when its cause does). Empty: every corpus cartridge, GWC and GWZ,
 * is pinned down in full (the two Urwigo builds that call their string decoder included).
 */
const UNKNOWN_ALLOWED: Record<string, { why: string; fields: (keyof ObjectFacts)[] }> = {};

/** A model value that is, or holds, an unknown. */
const hasUnknown = (v: unknown): boolean => v === '?' || (Array.isArray(v) && v.some(hasUnknown));

/**
 * Where `model` and `truth` disagree: `#n field: model … oracle …`, objects paired by number;
 * the fields where the model says '?' instead are collected apart, to be allowed by name.
 */
function disagreements(model: ObjectFacts[], truth: ObjectFacts[]): { wrong: string[]; unknown: Set<keyof ObjectFacts> } {
  const wrong: string[] = [];
  const unknown = new Set<keyof ObjectFacts>();
  if (model.length !== truth.length) wrong.push(`count: model ${model.length} oracle ${truth.length}`);
  for (let n = 0; n < Math.min(model.length, truth.length); n++) {
    const m = model[n]!;
    const t = truth[n]!;
    for (const field of Object.keys(t) as (keyof ObjectFacts)[]) {
      const a = JSON.stringify(m[field]);
      const b = JSON.stringify(t[field]);
      if (a === b) continue;
      if (hasUnknown(m[field])) unknown.add(field);
      else wrong.push(`#${n} ${field}: model ${short(a)} oracle ${short(b)}`);
    }
  }
  return { wrong, unknown };
}

const short = (s: string | undefined) => (s === undefined ? 'undefined' : s.length > 120 ? `${s.slice(0, 117)}...` : s);

describeWith(oracleCorpus(), 'the object model against what the cartridge builds when run', (dir) => {
  const files = listFiles(dir, /\.gw[cz]$/);

  it('reads the 27 GWC and the 14 GWZ', () => {
    expect(files.filter((p) => p.endsWith('.gwc'))).toHaveLength(27);
    expect(files.filter((p) => p.endsWith('.gwz'))).toHaveLength(14);
  });

  it.each(files.map((p) => [basename(p), p]))('%s', (name, path) => {
    const decoded = gwc.decode(readBytes(path));
    const truth = oracleFacts(decoded.format === 'gwc' ? { chunk: decoded.lua.bytes } : { source: decoded.lua.text });
    const { wrong, unknown } = disagreements(modelFacts(objectModel(decoded)), truth);
    expect(wrong, name).toEqual([]);
    const allowed = UNKNOWN_ALLOWED[name];
    expect([...unknown].sort(), allowed?.why ?? `${name}: unknowns`).toEqual([...(allowed?.fields ?? [])].sort());
  });
});
