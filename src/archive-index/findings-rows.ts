// A record's check findings as rows of the index's `findings` table (schema.ts column order), so
// `scan --index --check` adds them beside the file's other rows and "every map with an unpaired
// teleporter" is one query.
import type { Finding } from '../check/types.js';
import type { Cell } from './parquet/columns.js';

/** The `findings` row of one finding of the file `id` (files.id); null where the finding has no such place. */
export function findingRow(id: string, f: Finding): Cell[] {
  return [id, f.rule, f.severity, f.message, f.where.layer, f.where.x, f.where.y, f.where.object, f.where.offset];
}
