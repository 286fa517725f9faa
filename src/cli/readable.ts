// Summary values and warnings as text for people: nested objects and lists read as words, not JSON.
import { printable } from '../scan/names.js';
import type { RecordWarning } from '../scan/record.js';

/** `{ width: 9, height: 7 }` → `width 9, height 7`; `[a, b]` → `a, b`; null → `none`. */
export function readableValue(v: unknown): string {
  if (v === null || v === undefined) return 'none';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.length ? v.map(nested).join(', ') : 'none';
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    return entries.length ? entries.map(([k, x]) => `${k} ${nested(x)}`).join(', ') : 'none';
  }
  return String(v);
}

/** A value inside a list or object: bracketed when it is itself a list or object, so the commas stay unambiguous. */
function nested(v: unknown): string {
  return v !== null && typeof v === 'object' ? `(${readableValue(v)})` : readableValue(v);
}

/** `TRAILING_BYTES at 0x1f: …` (no place when the warning has none). */
export function warningText(w: RecordWarning): string {
  return `${w.code}${w.offset === null ? '' : ` at 0x${w.offset.toString(16)}`}: ${printable(w.message)}`;
}
