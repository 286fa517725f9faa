// What `levelkit query` lets run: one SELECT (or `EXPLAIN [ANALYZE]` of one), decided from DuckDB's
// own parse tree before anything is prepared. The statement type of a prepared statement is not
// enough: `EXPLAIN ANALYZE COPY … TO` is an EXPLAIN that writes, and merely preparing `EXPORT
// DATABASE 'dir'` creates its folder. Nor is lock_configuration: the table functions
// `enable_logging(storage_path := …)` and `enable_profiling(save_location := …)` change settings
// (and write logs or profiles) with the configuration locked. So the query is parsed with
// `json_serialize_sql`, which serialises SELECT statements only, and every table function it names
// must be one that only reads. The connection itself is the second wall (query.ts): it may touch no
// file but the index's parts and its own spill folder.
import type { DuckDBConnection } from '@duckdb/node-api';

/** A query the index refuses (not read-only), or SQL DuckDB rejects. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

/** What a refused statement is told. */
export const READ_ONLY_MESSAGE =
  'the index is read-only: only one SELECT (or EXPLAIN of one) runs (no COPY, EXPORT, ATTACH, INSTALL, SET, PRAGMA, CALL, CREATE …)';

/**
 * Table functions a query may call: they read (the index's parts, since the connection can open
 * no other file) or describe the catalog. An allow-list, so a function a later DuckDB adds is
 * refused until someone has looked at it; the ones left out change the session or run other SQL
 * (enable_logging, enable_profiling, checkpoint, query, query_table, json_execute_serialized_sql …).
 */
const READING_TABLE_FUNCTIONS = new Set([
  'range',
  'generate_series',
  'unnest',
  'repeat',
  'repeat_row',
  'read_parquet',
  'parquet_scan',
  'parquet_metadata',
  'parquet_schema',
  'parquet_file_metadata',
  'parquet_kv_metadata',
  'read_csv',
  'read_csv_auto',
  'read_json',
  'read_json_auto',
  'read_ndjson',
  'read_ndjson_auto',
  'read_text',
  'read_blob',
  'glob',
  'json_each',
  'json_tree',
  'summary',
  'table_info',
  'pragma_table_info',
  'show',
  'show_tables',
  'show_tables_expanded',
  'show_databases',
  'duckdb_columns',
  'duckdb_constraints',
  'duckdb_databases',
  'duckdb_dependencies',
  'duckdb_functions',
  'duckdb_keywords',
  'duckdb_schemas',
  'duckdb_settings',
  'duckdb_tables',
  'duckdb_types',
  'duckdb_views',
  'pg_timezone_names',
  'icu_calendar_names',
  'version',
  'pragma_version',
]);

/** `EXPLAIN` or `EXPLAIN ANALYZE` at the very start (no comment before it): what follows must itself pass. */
const EXPLAIN = /^\s*explain\s+(?:analyze\s+)?/i;

/** What a read-only statement names: the tables (lower case; '*' for a table of another schema, such as the catalog's) and table functions it reads. */
export interface Named {
  tables: string[];
  functions: string[];
  /** The statement's parse tree (json_serialize_sql's), null for an EXPLAIN: what its select list returns (json-columns.ts). */
  statement?: unknown;
}

/**
 * Throws QueryError unless `sql` is one read-only statement; what it names otherwise. Runs only
 * DuckDB's parser (through `json_serialize_sql`), so nothing of `sql` is prepared or run here.
 */
export async function checkReadOnly(db: DuckDBConnection, sql: string): Promise<Named> {
  const explained = EXPLAIN.exec(sql);
  const parsed = await parse(db, explained ? sql.slice(explained[0].length) : sql);
  if (parsed.error) {
    // "Only SELECT statements can be serialized": any other statement (COPY, PRAGMA, CALL, SET, EXPORT, an EXPLAIN not at the start …).
    if (parsed.error_type === 'not implemented') throw new QueryError(READ_ONLY_MESSAGE);
    throw new QueryError(`${parsed.error_type === 'parser' ? 'Parser Error: ' : ''}${parsed.error_message ?? 'the SQL does not parse'}`);
  }
  const statements = parsed.statements ?? [];
  if (statements.length === 0) throw new QueryError('no SQL statement given');
  if (statements.length > 1) throw new QueryError(`${statements.length} statements given: query runs one at a time`);
  const named = namesIn(statements[0]);
  for (const name of named.functions)
    if (!READING_TABLE_FUNCTIONS.has(name)) throw new QueryError(`the index is read-only: the table function ${name}() is not available to query`);
  return { ...named, statement: explained ? null : statements[0] };
}

interface Serialized {
  error: boolean;
  error_type?: string;
  error_message?: string;
  statements?: unknown[];
}

async function parse(db: DuckDBConnection, sql: string): Promise<Serialized> {
  const prepared = await db.prepare('SELECT json_serialize_sql($1::VARCHAR)');
  try {
    prepared.bindVarchar(1, sql);
    const reader = await prepared.runAndReadAll();
    return JSON.parse(String(reader.getRows()[0]![0])) as Serialized;
  } finally {
    prepared.destroySync();
  }
}

/** The lower-case names of every table and table function in a parse tree (FROM, joins, subqueries, CTEs), walked without recursion. */
function namesIn(tree: unknown): Named {
  const named: Named = { tables: [], functions: [] };
  const stack: unknown[] = [tree];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const o = node as Record<string, unknown>;
    if (o.type === 'TABLE_FUNCTION') {
      const fn = o.function as { function_name?: unknown } | null;
      // A table function that is not a named call is not one this check knows: refused by an empty name.
      named.functions.push(typeof fn?.function_name === 'string' ? fn.function_name.toLowerCase() : '');
    } else if (o.type === 'BASE_TABLE' && typeof o.table_name === 'string') {
      // A table of another schema (information_schema.tables, pg_catalog …): '*', which may list any.
      const schema = typeof o.schema_name === 'string' ? o.schema_name.toLowerCase() : '';
      named.tables.push(schema === '' || schema === 'main' ? o.table_name.toLowerCase() : '*');
    }
    // Pushed one by one: a VALUES list or select list can hold more items than a spread's arguments.
    for (const v of Object.values(o)) if (v !== null && typeof v === 'object') stack.push(v);
  }
  return named;
}
