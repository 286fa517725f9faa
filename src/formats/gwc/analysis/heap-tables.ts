// The entry maps of the heap's tables (AbstractTable.fields/items), made on a table's first entry,
// the tables' names, and the writes the main pass logs to undo at a join.

import type { Budget, Place } from './budget.js';
import type { AbstractTable, AbstractValue } from './types.js';

/** Names kept per table (a table stored under more is still found by its first). */
const MAX_NAMES = 16;

/**
 * The entries of a table nothing was set in: one shared map that refuses writes, so the many
 * tables that stay empty (a ZonePoint's, a Distance's) cost no maps of their own.
 */
class NoEntries<K, V> extends Map<K, V> {
  override set(): this {
    throw new TypeError('levelkit: this table has no entries of its own (the analysis shares an empty map)');
  }
}
export const NO_FIELDS: Map<string, AbstractValue> = new NoEntries();
export const NO_ITEMS: Map<number, AbstractValue> = new NoEntries();

/** The names of a table never stored by name: one shared frozen list (most tables are never named). */
export const NO_NAMES: string[] = Object.freeze([]) as unknown as string[];

/** The table's own list of names, made on its first. */
export function namesOf(t: AbstractTable): string[] {
  if (t.names === NO_NAMES) t.names = [];
  return t.names;
}

/** The table's own map of fields (or items, below), made on its first entry. */
export function fieldsOf(t: AbstractTable): Map<string, AbstractValue> {
  if (t.fields === NO_FIELDS) t.fields = new Map();
  return t.fields;
}
export function itemsOf(t: AbstractTable): Map<number, AbstractValue> {
  if (t.items === NO_ITEMS) t.items = new Map();
  return t.items;
}

/**
 * Records `path` as a name of `tables[id]`; its first name also names the unnamed tables in its
 * fields (and theirs, charged to `budget` field by field).
 */
export function nameTable(tables: AbstractTable[], id: number, path: string, budget: Budget, place: () => Place): void {
  const t = tables[id]!;
  if (t.names.length >= MAX_NAMES || t.names.includes(path)) return;
  namesOf(t).push(path);
  if (t.names.length > 1) return;
  const stack: number[] = [id];
  while (stack.length > 0) {
    const parent = tables[stack.pop()!]!;
    budget.charge(parent.fields.size, place);
    for (const [key, v] of parent.fields) {
      if (v.kind !== 'table') continue;
      const child = tables[v.table]!;
      if (child.names.length > 0) continue;
      namesOf(child).push(`${parent.names[0]}.${key}`);
      stack.push(child.id);
    }
  }
}

/** One write the main pass may have to undo at a join: a global, or a table entry. */
export interface Write {
  pc: number;
  table: number;
  key: string | number;
}
