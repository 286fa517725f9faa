// Lists of records (links, chests, objects, rows): matched by a key where they have one (an id, a
// name), else by content with what is left paired by position; each pair compared field by field.

import { appendAll, type Change, type DiffValue } from './change.js';
import { fieldChanges } from './fields.js';
import { plain } from './plain.js';
import { commonPairs } from './sequence.js';

/** How to diff one list. */
export interface RecordsSpec<R> {
  /** Change kinds are `<kind>-added`, `<kind>-removed`, `<kind>-changed`. */
  kind: string;
  /** Where every change of this list is (a layer, a section). */
  where?: Omit<Change, 'kind'>;
  /** The record's key (an object id, a row's name): records are matched by it, duplicates in order. Without one, by content then position. */
  key?: (r: R, index: number) => string | number;
  /** The record as a plain field object (default: itself). */
  fields?: (r: R) => object;
  /** Fields left out of the comparison. */
  skip?: readonly string[];
  /** Position carried by added and removed records' changes (`x`, `y`). */
  at?: (r: R) => { x?: number; y?: number };
  /** Extra changes of a matched pair beyond its fields (an NPC's script). */
  more?: (a: R, b: R, id: DiffValue) => Change[];
}

/** The changes between lists `a` and `b`. `id` of each change is the key, else the index in `b` (in `a` for a removed one). */
export function recordChanges<R>(a: readonly R[], b: readonly R[], spec: RecordsSpec<R>): Change[] {
  const fields = spec.fields ?? ((r: R) => r as object);
  const pairs = spec.key ? pairByKey(a, b, spec.key) : pairByContent(a, b, fields, spec.skip ?? []);
  const out: Change[] = [];
  const where = spec.where ?? {};
  const idOf = (r: R, i: number): DiffValue => (spec.key ? spec.key(r, i) : i);
  const matchedA = new Set<number>();
  const matchedB = new Set<number>();
  for (const [i, j] of pairs) {
    matchedA.add(i);
    matchedB.add(j);
    const id = idOf(b[j]!, j);
    for (const f of fieldChanges(fields(a[i]!), fields(b[j]!), spec.skip)) out.push({ kind: `${spec.kind}-changed`, ...where, id, ...f });
    if (spec.more) appendAll(out, spec.more(a[i]!, b[j]!, id));
  }
  a.forEach((r, i) => {
    if (!matchedA.has(i)) out.push({ kind: `${spec.kind}-removed`, ...where, id: idOf(r, i), ...spec.at?.(r), from: plain(fields(r)) });
  });
  b.forEach((r, j) => {
    if (!matchedB.has(j)) out.push({ kind: `${spec.kind}-added`, ...where, id: idOf(r, j), ...spec.at?.(r), to: plain(fields(r)) });
  });
  return out;
}

/** Records with the same key, the n-th of `a` with the n-th of `b`. */
function pairByKey<R>(a: readonly R[], b: readonly R[], key: (r: R, i: number) => string | number): [number, number][] {
  const waiting = new Map<string | number, number[]>();
  b.forEach((r, j) => {
    const k = key(r, j);
    const list = waiting.get(k);
    if (list) list.push(j);
    else waiting.set(k, [j]);
  });
  // A cursor per key rather than shift(), which moves every later index (quadratic over many records of one key).
  const taken = new Map<string | number, number>();
  const pairs: [number, number][] = [];
  a.forEach((r, i) => {
    const k = key(r, i);
    const list = waiting.get(k);
    const at = taken.get(k) ?? 0;
    if (!list || at >= list.length) return;
    taken.set(k, at + 1);
    pairs.push([i, list[at]!]);
  });
  return pairs;
}

/**
 * Equal records by a common subsequence of their contents; then, between two such anchors, the
 * records left over paired in order (changed), the surplus added or removed.
 */
function pairByContent<R>(a: readonly R[], b: readonly R[], fields: (r: R) => object, skip: readonly string[]): [number, number][] {
  const ids = new Map<string, number>();
  const token = (r: R) => {
    const all = fields(r) as Record<string, unknown>;
    const s = JSON.stringify(plain(skip.length ? Object.fromEntries(Object.entries(all).filter(([k]) => !skip.includes(k))) : all));
    const known = ids.get(s);
    if (known !== undefined) return known;
    ids.set(s, ids.size);
    return ids.size - 1;
  };
  const same = commonPairs(a.map(token), b.map(token));
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...same, [a.length, b.length] as [number, number]]) {
    for (let n = 0; n < Math.min(pi - i, pj - j); n++) pairs.push([i + n, j + n]);
    if (pi < a.length) pairs.push([pi, pj]);
    i = pi + 1;
    j = pj + 1;
  }
  return pairs;
}
