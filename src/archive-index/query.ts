// `levelkit query <dir> "<SQL>"`: the index's tables as views over their Parquet parts, in a DuckDB
// that can read nothing outside the index folder, install or load nothing, change no setting, and
// runs only SELECT (and EXPLAIN): no file is written, no database attached.
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadEngine, sqlString } from './engine.js';
import { namingBrokenParts, partsOf } from './parts.js';
import { TABLES, type Table } from './schema.js';

/** A query the index refuses (not read-only), or SQL DuckDB rejects. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

/** The statement types a read-only query may run (DuckDB's StatementType: SELECT 1, EXPLAIN 4). */
const READ_ONLY = new Set([1, 4]);

export interface QueryResult {
  columns: string[];
  rows: unknown[][];
}

/** An open index: run queries, then close. */
export class IndexQuery {
  private constructor(
    private readonly db: DuckDBConnection,
    /** Every part the views read, for naming the one DuckDB cannot read. */
    private readonly parts: readonly string[],
  ) {}

  /** Opens the index at `dir`; BrokenPart for a part that is not whole, EngineMissing without DuckDB. */
  static async open(dir: string): Promise<IndexQuery> {
    const root = realpathSync(dir);
    // Every part checked before DuckDB is asked to read any: a broken one is named, not a Parquet error.
    const parts = new Map(TABLES.map((t) => [t.name, partsOf(root, t.name)] as const));
    const { DuckDBInstance } = await loadEngine();
    const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
    const db = await instance.connect();
    await db.run(`SET allowed_directories = [${sqlString(root + sep)}]`);
    await db.run('SET enable_external_access = false');
    for (const t of TABLES) await db.run(`CREATE VIEW "${t.name}_all" AS ${source(t, parts.get(t.name)!)}`);
    // The latest scan of each path and member; every table's rows follow their file.
    await db.run(
      'CREATE VIEW files AS SELECT * EXCLUDE (latest) FROM (SELECT *, row_number() OVER (PARTITION BY path, member ORDER BY scanned_at DESC, run DESC) AS latest FROM files_all) WHERE latest = 1',
    );
    for (const t of TABLES) if (t.name !== 'files') await db.run(`CREATE VIEW "${t.name}" AS SELECT * FROM "${t.name}_all" WHERE id IN (SELECT id FROM files)`);
    await db.run('SET lock_configuration = true');
    return new IndexQuery(db, [...parts.values()].flat());
  }

  /** Runs `sql` (one or more statements; the last one's rows are returned). QueryError for anything but SELECT/EXPLAIN. */
  async run(sql: string): Promise<QueryResult> {
    let extracted: Awaited<ReturnType<DuckDBConnection['extractStatements']>>;
    try {
      extracted = await this.db.extractStatements(sql);
    } catch (e) {
      throw new QueryError(firstLine(e));
    }
    if (extracted.count === 0) throw new QueryError('no SQL statement given');
    let result: QueryResult = { columns: [], rows: [] };
    for (let i = 0; i < extracted.count; i++) {
      let prepared: Awaited<ReturnType<typeof extracted.prepare>>;
      try {
        prepared = await extracted.prepare(i);
      } catch (e) {
        throw new QueryError(firstLine(e));
      }
      if (!READ_ONLY.has(prepared.statementType))
        throw new QueryError('the index is read-only: only SELECT (and EXPLAIN) queries run (no COPY, ATTACH, INSTALL, SET, CREATE …)');
      try {
        const reader = await namingBrokenParts(this.parts, () => prepared.runAndReadAll());
        result = { columns: reader.columnNames(), rows: reader.getRowsJS() as unknown[][] };
      } catch (e) {
        // A part damaged inside its pages: named (BrokenPart's message), not DuckDB's decompression error.
        throw new QueryError(firstLine(e));
      }
    }
    return result;
  }

  close(): void {
    this.db.closeSync();
  }
}

/** A table's rows: its parts read together (columns added by later schema versions read as null in older parts), or none. */
function source(t: Table, parts: string[]): string {
  if (parts.length) return `SELECT * FROM read_parquet([${parts.map(sqlString).join(', ')}], union_by_name = true)`;
  return `SELECT ${t.columns.map((c) => `CAST(NULL AS ${c.type}) AS "${c.name}"`).join(', ')} WHERE false`;
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0]!;
}
