// A record's check findings as rows of the index's `findings` table (CSV text in schema.ts column
// order, as the other tables travel: rows-text.ts), so `scan --index --check` can add them beside
// the file's other rows.
import type { Finding } from '../check/types.js';
import { line } from './rows-text.js';

/** The CSV lines of `findings` for the file `id` (files.id). */
export function findingRows(id: string, findings: readonly Finding[]): string {
  let text = '';
  for (const f of findings) text += line([id, f.rule, f.severity, f.message, f.where.layer, f.where.x, f.where.y, f.where.object, f.where.offset]);
  return text;
}
