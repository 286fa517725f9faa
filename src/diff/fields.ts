// Comparing plain field objects (a header, a layer's properties, an object's fields): one change per
// field that differs, nested plain objects by dotted name, Texts by their text.

import { isTypedArray } from '../core/json.js';
import { appendAll, type Change, type DiffValue } from './change.js';
import { isText, plain, sameValue } from './plain.js';

/** One field that differs. */
export interface FieldChange {
  field: string;
  from: DiffValue;
  to: DiffValue;
}

/**
 * The fields of `a` and `b` that differ, by name (nested plain objects as `outer.inner`; arrays,
 * typed arrays and Texts compared whole). Fields named in `skip` (top level) are left out: counts
 * and offsets an encoder recomputes, grids and tables another pass compares.
 */
export function fieldChanges(a: object, b: object, skip: readonly string[] = [], prefix = ''): FieldChange[] {
  const out: FieldChange[] = [];
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (skip.includes(k)) continue;
    const x = ra[k];
    const y = rb[k];
    if (sameValue(x, y)) continue;
    if (isNested(x) && isNested(y)) appendAll(out, fieldChanges(x, y, [], `${prefix}${k}.`));
    else out.push({ field: `${prefix}${k}`, from: plain(x), to: plain(y) });
  }
  return out;
}

function isNested(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isTypedArray(v) && !isText(v) && !(v instanceof Date);
}

/** fieldChanges() as changes of `kind`, each with `where` (layer, id …) added. */
export function fieldChangesAs(kind: string, where: Omit<Change, 'kind'>, a: object, b: object, skip: readonly string[] = []): Change[] {
  return fieldChanges(a, b, skip).map((f) => ({ kind, ...where, ...f }));
}
