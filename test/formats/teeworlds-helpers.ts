// Shared by the Teeworlds suites: what "the same map" means (warnings, container version and
// magic set aside), and a readable first difference when two decodes disagree.
import { isDeepStrictEqual } from 'node:util';
import { decodeText, encodeText } from '../../src/core/text.js';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';

/** The map without what legitimately differs between a file and its re-encoding. */
export function comparable(m: TeeworldsMap): Omit<TeeworldsMap, 'warnings' | 'datafileVersion' | 'magic'> {
  const { warnings: _w, datafileVersion: _v, magic: _m, ...rest } = m;
  return rest;
}

/** Path of the first difference between two values, or null when deep-equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return `${path}: ${String(a)} ≠ ${String(b)}`;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    const x = a as unknown as ArrayLike<number>,
      y = b as unknown as ArrayLike<number>;
    if (x.length !== y.length || a.constructor !== b.constructor) return `${path}: ${a.constructor.name}(${x.length}) ≠ ${b.constructor.name}(${y.length})`;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return `${path}[${i}]: ${x[i]} ≠ ${y[i]}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return `${path}: differs`;
}

/** Deep-equal check that reports where two decodes differ. */
export function sameMap(a: TeeworldsMap, b: TeeworldsMap): string | null {
  return firstDifference(comparable(a), comparable(b));
}

/**
 * What the encoder legitimately recomputes, named in one place (README §Encoder): a Text whose
 * `text` no longer matches its `raw` bytes is written as `text` in UTF-8, so it reads back with
 * those bytes as `raw`. Returns `m` with such stale `raw` fields replaced (a new object; `m` is kept).
 */
export function asWritten(m: TeeworldsMap): TeeworldsMap {
  const fix = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return v;
    if (Array.isArray(v)) return v.map(fix);
    const o = v as Record<string, unknown>;
    if (o.raw instanceof Uint8Array && typeof o.text === 'string' && typeof o.encoding === 'string') {
      if (decodeText(o.raw, o.encoding) === o.text) return v;
      return { ...o, raw: encodeText(o.text, o.encoding) ?? o.raw };
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, fix(x)]));
  };
  return fix(m) as TeeworldsMap;
}
