// `levelkit query <dir> "<SQL>"`: the index's tables as views over their Parquet parts, in a DuckDB
// that can open no file but those parts (and its own spill folder), install or load nothing, and
// change no setting; and only one SELECT (or EXPLAIN of one) reaches it (read-only.ts). Rows come
// back a chunk at a time, so a result of any size is held one chunk at a time.
import { realpathSync, statSync } from 'node:fs';
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';
import { type DuckDbModule, type Engine, openEngine, sqlString } from './engine.js';
import { FAMILIES_VIEW, familyRows } from './family-view.js';
import { type JsonCells, jsonColumns } from './json-columns.js';
import { BrokenPart, type CheckedPart, checkedParts, checkSizes, committedParts, disjointRuns, listedParts, NotAnIndex, namingBrokenParts } from './parts.js';
import { checkReadOnly, type Named, QueryError } from './read-only.js';
import { TABLES, type Table, type TableName } from './schema.js';

const FILES = TABLES.find((t) => t.name === 'files')!;
const LEVELS = TABLES.find((t) => t.name === 'levels')!;

export { QueryError } from './read-only.js';

/** DuckDB's StatementType for SELECT (1) and EXPLAIN (4): what checkReadOnly lets through, checked again once prepared. */
const READ_ONLY = new Set([1, 4]);

export interface QueryResult {
  columns: string[];
  rows: unknown[][];
}

/** A query's answer as it comes: its columns, then its rows a batch (one DuckDB chunk, ≤ 2,048 rows) at a time. */
export interface QueryRows extends AsyncIterable<unknown[][]> {
  /** The column names as the query gave them (two may be equal). */
  columns: string[];
  /** Per column, whether its type is a number (right-aligned in a table). */
  numeric: boolean[];
  /** Per column, where it holds JSON text (DuckDB's JSON type, or an index column such as levels.summary unchanged): JSON in --json rows. */
  json: JsonCells[];
}

/** An open index: run queries, then close. */
export class IndexQuery {
  private readonly engine: DuckDbModule;
  private readonly db: DuckDBConnection;
  /** Tables whose views exist (their parts' footers checked). */
  private readonly made = new Set<TableName>();
  /** Whether the families table has been computed (family-view.ts), which only a query naming it does. */
  private familiesMade = false;

  private constructor(
    private readonly opened: Engine,
    private readonly root: string,
    private readonly committed: ReturnType<typeof committedParts>,
    /** One run, or one per shard: every row is its file's latest (disjointRuns). */
    private readonly disjoint: boolean,
    /** Every part the views may read, for naming the one DuckDB cannot read. */
    private readonly parts: readonly string[],
    /** A fork's connection only (fork): closing it leaves the engine to the index it came from. */
    private readonly closeOwn: () => void = () => opened.close(),
  ) {
    this.engine = opened.engine;
    this.db = opened.db;
  }

  /**
   * Opens the index at `dir`; BrokenPart for a part that is missing, not a regular file or not
   * the size its commit lists, EngineMissing without DuckDB. A table's views are made, and its
   * parts' footers checked, when a query first names it (views): a `SELECT 1` or a query of one
   * table reads no other table's footers (over 500,000 files, 161 footers cost 120–330 ms).
   */
  static async open(dir: string): Promise<IndexQuery> {
    const root = indexRoot(dir);
    // The commits are read once for all nine tables.
    const committed = committedParts(root);
    const listed = TABLES.flatMap((t) => listedParts(root, t.name, committed));
    if (committed === null && listed.length === 0) throw new NotAnIndex(dir);
    checkSizes(listed);
    // A private spill folder for sorts that spill (openEngine), removed on close.
    const opened = await openEngine();
    try {
      const { db } = opened;
      // The exact part files, not the index folder: no new file can be made there (an EXPORT's
      // folder, a log), and no link or stray file in it leads anywhere else.
      const allowed = listed.map((p) => p.file);
      if (allowed.length) await db.run(`SET allowed_paths = ${sqlList(allowed)}`);
      await db.run('SET enable_external_access = false');
      await db.run('SET lock_configuration = true');
      return new IndexQuery(opened, root, committed, disjointRuns(root), allowed);
    } catch (e) {
      opened.close();
      throw e;
    }
  }

  /**
   * Makes the views of the tables a query names (DuckDB's parse: checkReadOnly), or of every
   * table when it calls a table function or reads another schema (duckdb_views(), information_schema: they list them).
   * Each table's parts are checked whole before DuckDB is asked to read any: a broken one is
   * named, not a Parquet error.
   */
  private async views(named: Named | null): Promise<void> {
    const tables = named && named.functions.length === 0 && !named.tables.includes('*') ? new Set(named.tables) : null;
    for (const t of TABLES) if (!tables || tables.has(t.name) || tables.has(`${t.name}_all`)) await this.view(t);
    // Only by name: computing it reads every grid's digest and signature.
    if (named?.tables.includes(FAMILIES_VIEW.name)) await this.families();
  }

  /**
   * The `families` table: levelkit's families (families.ts) of the latest files, computed from
   * their grid_digest and grid_signature and appended as rows for the query to read.
   */
  private async families(): Promise<void> {
    if (this.familiesMade) return;
    await this.view(FILES);
    await this.view(LEVELS);
    const grids: { id: string; gridDigest: string; signature: string | null }[] = [];
    const result = await this.db.stream(
      'SELECT f.id, f.grid_digest, l.grid_signature FROM files f LEFT JOIN levels l USING (id) WHERE f.grid_digest IS NOT NULL',
    );
    const converter = this.engine.JSDuckDBValueConverter;
    for (;;) {
      const chunk = await namingBrokenParts(this.parts, () => result.fetchChunk());
      if (!chunk || chunk.rowCount === 0) break;
      for (const [id, gridDigest, signature] of chunk.convertRows(converter) as [string, string, string | null][]) grids.push({ id, gridDigest, signature });
    }
    const { db } = this;
    await db.run(`CREATE TABLE ${FAMILIES_VIEW.name} (${FAMILIES_VIEW.columns.map((c) => `"${c.name}" ${c.type}`).join(', ')})`);
    const appender = await db.createAppender(FAMILIES_VIEW.name);
    for (const r of familyRows(grids)) {
      appender.appendVarchar(r.id);
      appender.appendVarchar(r.family);
      appender.appendBoolean(r.exact);
      appender.appendInteger(r.members);
      if (r.similarity === null) appender.appendNull();
      else appender.appendDouble(r.similarity);
      appender.endRow();
    }
    appender.closeSync();
    this.familiesMade = true;
  }

  private async view(t: Table): Promise<void> {
    if (this.made.has(t.name)) return;
    // Every table's rows follow their file's latest: files first.
    if (!this.disjoint && t.name !== 'files') await this.view(FILES);
    const { db } = this;
    await db.run(`CREATE VIEW "${t.name}_all" AS ${source(t, checkedParts(this.root, t.name, this.committed))}`);
    if (this.disjoint) await db.run(`CREATE VIEW "${t.name}" AS SELECT * FROM "${t.name}_all"`);
    else if (t.name === 'files')
      // The latest scan of each path and member.
      await db.run(
        'CREATE VIEW files AS SELECT * EXCLUDE (latest) FROM (SELECT *, row_number() OVER (PARTITION BY path, member ORDER BY scanned_at DESC, run DESC) AS latest FROM files_all) WHERE latest = 1',
      );
    else await db.run(`CREATE VIEW "${t.name}" AS SELECT * FROM "${t.name}_all" WHERE id IN (SELECT id FROM files)`);
    this.made.add(t.name);
  }

  /**
   * Starts `sql` (one SELECT, or EXPLAIN of one); QueryError for anything else or SQL DuckDB
   * rejects. Rows are made only as the caller reads them; stop reading to stop the query.
   */
  async stream(sql: string): Promise<QueryRows> {
    const named = await checkReadOnly(this.db, sql);
    await this.views(named);
    const result = await failAsQuery(async () => {
      const extracted = await this.db.extractStatements(sql);
      if (extracted.count !== 1) throw new QueryError(`${extracted.count} statements given: query runs one at a time`);
      const prepared = await extracted.prepare(0).catch(async (e: unknown) => {
        // A name that is no table: with every view made, DuckDB's error suggests the right one.
        if (this.made.size === TABLES.length || !String((e as Error)?.message).startsWith('Catalog Error')) throw e;
        await this.views(null);
        // Extracted statements prepare once.
        return (await this.db.extractStatements(sql)).prepare(0);
      });
      if (!READ_ONLY.has(prepared.statementType)) throw new QueryError('the index is read-only');
      // A part damaged inside its pages: named (BrokenPart's message), not DuckDB's decompression error.
      return namingBrokenParts(this.parts, () => prepared.stream());
    });
    const { DuckDBTypeId } = this.engine;
    const numericTypes = new Set<number>([
      DuckDBTypeId.TINYINT,
      DuckDBTypeId.SMALLINT,
      DuckDBTypeId.INTEGER,
      DuckDBTypeId.BIGINT,
      DuckDBTypeId.HUGEINT,
      DuckDBTypeId.UTINYINT,
      DuckDBTypeId.USMALLINT,
      DuckDBTypeId.UINTEGER,
      DuckDBTypeId.UBIGINT,
      DuckDBTypeId.UHUGEINT,
      DuckDBTypeId.FLOAT,
      DuckDBTypeId.DOUBLE,
      DuckDBTypeId.DECIMAL,
    ]);
    const columns = result.columnNames();
    return {
      columns,
      numeric: columns.map((_, i) => numericTypes.has(result.columnTypeId(i))),
      json: jsonColumns(
        named.statement ?? null,
        columns,
        columns.map((_, i) => result.columnType(i)),
      ),
      [Symbol.asyncIterator]: () => this.chunks(result),
    };
  }

  /** Runs `sql` to the end and returns every row (for callers that need them all, e.g. index diff). */
  async run(sql: string): Promise<QueryResult> {
    const answer = await this.stream(sql);
    const rows: unknown[][] = [];
    for await (const batch of answer) for (const r of batch) rows.push(r);
    return { columns: answer.columns, rows };
  }

  close(): void {
    this.closeOwn();
  }

  /**
   * Another connection to this index, for a query streamed while this one streams its own
   * (DuckDB streams one result per connection): every view made first, the same settings and
   * parts. Close it before the index it came from.
   */
  async fork(): Promise<IndexQuery> {
    await this.views(null);
    const db = await this.opened.instance.connect();
    const forked = new IndexQuery({ ...this.opened, db }, this.root, this.committed, this.disjoint, this.parts, () => db.closeSync());
    for (const t of this.made) forked.made.add(t);
    return forked;
  }

  private async *chunks(result: DuckDBResult): AsyncGenerator<unknown[][]> {
    const converter = this.engine.JSDuckDBValueConverter;
    for (;;) {
      const chunk = await failAsQuery(() => namingBrokenParts(this.parts, () => result.fetchChunk()));
      if (!chunk || chunk.rowCount === 0) return;
      yield chunk.convertRows(converter);
    }
  }
}

/** The real path of the folder `dir`; NotAnIndex when there is none or it is not a folder. */
function indexRoot(dir: string): string {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new NotAnIndex(dir, 'no such folder');
    throw e;
  }
  if (!statSync(root).isDirectory()) throw new NotAnIndex(dir, 'not a folder');
  return root;
}

/** DuckDB's errors (bad SQL, a failed cast in row 1,000,000) as one-line QueryErrors. */
async function failAsQuery<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    // A part damaged inside its pages (namingBrokenParts) stays a BrokenPart: the index's fault, not the SQL's.
    if (e instanceof QueryError || e instanceof BrokenPart) throw e;
    throw new QueryError(String((e as Error)?.message ?? e).split('\n')[0]!);
  }
}

/**
 * A table's rows: its parts read together, every column of this schema version (null in parts
 * older than the column), or none. Parts whose footers declare the same columns (nearly always
 * all of them) are one read_parquet, which binds from one footer; only parts of different schemas
 * are matched by name (UNION ALL BY NAME). `union_by_name = true` over them all made DuckDB read
 * every part's footer each time a view was bound: at every CREATE VIEW and again in every query
 * (most of what a `SELECT 1` over 1,884 parts cost).
 */
function source(t: Table, parts: readonly CheckedPart[]): string {
  const none = `SELECT ${t.columns.map((c) => `CAST(NULL AS ${c.type}) AS "${c.name}"`).join(', ')} WHERE false`;
  const bySchema = new Map<string, string[]>();
  for (const p of parts) {
    const files = bySchema.get(p.schema);
    if (files) files.push(p.file);
    else bySchema.set(p.schema, [p.file]);
  }
  return [none, ...[...bySchema.values()].map((files) => `SELECT * FROM read_parquet(${sqlList(files)})`)].join(' UNION ALL BY NAME ');
}

/**
 * A list of strings as one SQL expression: a JSON text cast to VARCHAR[]. A list literal of
 * thousands of path strings took DuckDB's parser tens of milliseconds per thousand (and a view's
 * SQL is parsed again at every use); one string literal is parsed at once.
 */
function sqlList(items: readonly string[]): string {
  return `CAST(CAST(${sqlString(JSON.stringify(items))} AS JSON) AS VARCHAR[])`;
}
