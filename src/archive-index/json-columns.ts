// Which cells of a query's answer are JSON text, so `levelkit query --json` can give them as JSON
// (an object inside the row) rather than as a string holding JSON. Two kinds, as DuckDB's own
// `duckdb -json` and a reader of the index expect:
// - a value of DuckDB's JSON type (`summary::JSON`, `json_extract(…)`, `->`), at any depth of a
//   list, array, struct or map, as `duckdb -json` writes it;
// - one of the index's columns that hold JSON text (INDEX_JSON_COLUMNS) returned unchanged: named
//   in the select list (`summary`, `l.summary AS s`) or brought by `*` / `COLUMNS(…)`. The views
//   keep them VARCHAR (a cast to JSON there would parse every summary a query reads: json_extract
//   over them 1.6 times slower), so they are told from the query's parse tree instead. Anything
//   computed from them (`upper(summary)`, `any_value(fields)`) is text again; `::JSON` makes it JSON.

/**
 * The index's columns that hold JSON text (src/archive-index/schema.ts): the level's summary, an
 * object's other fields, the options a file was scanned with. Each always holds an object.
 */
export const INDEX_JSON_COLUMNS: Readonly<Record<string, string>> = { summary: 'levels', fields: 'objects', options: 'files' };

/**
 * Where a column's JSON text is: `json` a value of DuckDB's JSON type, `index` an index column
 * unchanged (JSON only when it reads as an object or array: a column of that name a query made
 * itself may hold any text); `items` each element of a list, array or map; `fields` a struct's
 * (or a map entry's) members; null none.
 */
export type JsonCells = 'json' | 'index' | { items: JsonCells } | { fields: Readonly<Record<string, JsonCells>> } | null;

/** What this reads of a result column's DuckDB type (DuckDBType, which carries these fields where its kind has them). */
export interface ColumnType {
  typeId: number;
  alias?: string;
  valueType?: ColumnType;
  keyType?: ColumnType;
  entryNames?: readonly string[];
  entryTypes?: readonly ColumnType[];
}

/** DuckDB's type ids this needs (DuckDBTypeId; plain numbers, so this file loads no DuckDB). */
const VARCHAR = 17;
const LIST = 24;
const STRUCT = 25;
const MAP = 26;
const ARRAY = 33;

/** Where the JSON text is in a value of `type`: DuckDB's JSON type wherever it nests. */
export function jsonOfType(type: ColumnType | undefined): JsonCells {
  if (!type) return null;
  if (type.typeId === VARCHAR) return type.alias === 'JSON' ? 'json' : null;
  if (type.typeId === LIST || type.typeId === ARRAY) {
    const items = jsonOfType(type.valueType);
    return items === null ? null : { items };
  }
  if (type.typeId === STRUCT) {
    const fields: Record<string, JsonCells> = {};
    (type.entryTypes ?? []).forEach((t, i) => {
      const cells = jsonOfType(t);
      if (cells !== null) Object.defineProperty(fields, type.entryNames?.[i] ?? '', { value: cells, enumerable: true });
    });
    return Object.keys(fields).length ? { fields } : null;
  }
  if (type.typeId === MAP) {
    // A map's value is a list of { key, value } entries (the value converter's shape).
    const [key, value] = [jsonOfType(type.keyType), jsonOfType(type.valueType)];
    return key === null && value === null ? null : { items: { fields: { ...(key ? { key } : {}), ...(value ? { value } : {}) } } };
  }
  return null;
}

/**
 * Per result column, where its JSON text is: DuckDB's JSON type first, else an index JSON column
 * the select list of `statement` (json_serialize_sql's tree of a SELECT; null for EXPLAIN) returns
 * unchanged. `names` and `types` are the result's columns.
 */
export function jsonColumns(statement: unknown, names: readonly string[], types: readonly ColumnType[]): JsonCells[] {
  const unchanged = statement === null ? names.map(() => false) : unchangedIndexColumns(statement, names);
  return types.map((t, i) => jsonOfType(t) ?? (unchanged[i] && t.typeId === VARCHAR ? 'index' : null));
}

type Entry = { kind: 'json' } | { kind: 'other' } | { kind: 'star'; replaced: ReadonlySet<string> };

/**
 * Per result column, whether it is an index JSON column as it was read: a plain column reference
 * in the select list, or a column a star brings under its own name (not one it REPLACEs). Columns
 * are matched to the select list in order, a star taking what the other entries leave; when that
 * cannot be (a star inside an expression), none is.
 */
function unchangedIndexColumns(statement: unknown, names: readonly string[]): boolean[] {
  const none = names.map(() => false);
  const entries = selectList(statement)?.map(entryOf);
  if (!entries) return none;
  const stars = entries.filter((e) => e.kind === 'star');
  const first = entries.findIndex((e) => e.kind === 'star');
  if (first < 0) return entries.length === names.length ? entries.map((e) => e.kind === 'json') : none;
  const last = entries.length - 1 - [...entries].reverse().findIndex((e) => e.kind === 'star');
  const after = entries.length - 1 - last;
  if (first + after > names.length) return none;
  const replaced = new Set(stars.flatMap((s) => (s.kind === 'star' ? [...s.replaced] : [])));
  return names.map((name, i) => {
    if (i < first) return entries[i]!.kind === 'json';
    if (i >= names.length - after) return entries[entries.length - (names.length - i)]!.kind === 'json';
    // Between the first star and the last: a star's column under an index JSON column's name, or a plain reference to one.
    return Object.hasOwn(INDEX_JSON_COLUMNS, name.toLowerCase()) && !replaced.has(name.toLowerCase());
  });
}

/** The select list whose names the result takes: the statement's, or the first SELECT of a UNION/EXCEPT/INTERSECT. */
function selectList(statement: unknown): unknown[] | null {
  let node = (statement as { node?: unknown } | null)?.node as Record<string, unknown> | undefined;
  while (node?.type === 'SET_OPERATION_NODE') node = node.left as Record<string, unknown> | undefined;
  return node?.type === 'SELECT_NODE' && Array.isArray(node.select_list) ? node.select_list : null;
}

function entryOf(e: unknown): Entry {
  const o = e as { type?: unknown; column_names?: unknown; replace_list?: unknown };
  if (o?.type === 'STAR') {
    const replaced = Array.isArray(o.replace_list) ? o.replace_list.map((r: { key?: unknown }) => String(r?.key).toLowerCase()) : [];
    return { kind: 'star', replaced: new Set(replaced) };
  }
  if (o?.type === 'COLUMN_REF' && Array.isArray(o.column_names)) {
    // Names are case-insensitive in SQL: SUMMARY is summary.
    const name = o.column_names.at(-1);
    return { kind: typeof name === 'string' && Object.hasOwn(INDEX_JSON_COLUMNS, name.toLowerCase()) ? 'json' : 'other' };
  }
  return { kind: 'other' };
}
