// An archive index's content as what a reader may compare between two indexes of the same files:
// every row of every table, read from the committed parts (partsOf), its file named by path and
// member instead of the run's id, without run and scanned_at. Used to check that an index
// stopped at any instant and resumed equals a clean one.
import { partsOf } from '../../src/archive-index/parts.js';
import { TABLES } from '../../src/archive-index/schema.js';

/** Per table, its rows as sorted JSON texts (a multiset: a file's rows twice show up twice). */
export async function indexContent(dir: string): Promise<Record<string, string[]>> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const read = (parts: string[]) => `read_parquet([${parts.map((p) => `'${p.replaceAll("'", "''")}'`).join(', ')}], union_by_name = true)`;
  try {
    const files = partsOf(dir, 'files');
    // Rows with no files part at all still show (their path null), not a binder error.
    const filesSource = files.length ? read(files) : '(SELECT NULL::VARCHAR AS id, NULL::VARCHAR AS path, NULL::VARCHAR AS member WHERE false)';
    const out: Record<string, string[]> = {};
    for (const t of TABLES) {
      const parts = partsOf(dir, t.name);
      if (parts.length === 0) {
        out[t.name] = [];
        continue;
      }
      const sql =
        t.name === 'files'
          ? `SELECT * EXCLUDE (id, run, scanned_at) FROM ${read(parts)}`
          : `SELECT f.path, f.member, t.* EXCLUDE (id) FROM ${read(parts)} t LEFT JOIN ${filesSource} f USING (id)`;
      const rows = (await db.runAndReadAll(sql)).getRowObjectsJson();
      out[t.name] = rows.map((r) => JSON.stringify(r)).sort();
    }
    return out;
  } finally {
    db.closeSync();
  }
}
