// The `families` view of `levelkit query`: one row per file in a family (families.ts), made by
// levelkit from the index's grid_digest and grid_signature columns when a query names it.

import { familiesOf } from './families.js';
import type { Column } from './schema.js';
import { signatureBytes, similarity } from './signature.js';

/** A table levelkit computes for a query (not stored in the index); `levelkit schema` lists it. */
export interface ComputedView {
  name: 'families';
  row: string;
  /** How it is made. */
  doc: string;
  columns: readonly Column[];
}

export const FAMILIES_VIEW: ComputedView = {
  name: 'families',
  row: 'a file whose level is in a family: the versions of one level (its re-saves and near-identical edits)',
  doc: 'computed by levelkit when a query names it, from files.grid_digest and levels.grid_signature (src/archive-index/README.md "Families"); a level in no family has no row',
  columns: [
    { name: 'id', type: 'VARCHAR', doc: 'the file (files.id)' },
    {
      name: 'family',
      type: 'VARCHAR',
      doc: "the family's key: the smallest grid_digest among its levels, so a family keeps its key from run to run while that level stays in it",
    },
    { name: 'exact', type: 'BOOLEAN', doc: 'true when every level of the family has one main grid (exact re-saves)' },
    { name: 'members', type: 'INTEGER', doc: 'files in the family' },
    {
      name: 'similarity',
      type: 'DOUBLE',
      doc: "estimated Jaccard similarity (0–1) of this level's grid to the grid the family is keyed by: 1 for that grid; null when either has no signature",
    },
  ],
};

/** One row of the families view. */
export interface FamilyRow {
  id: string;
  family: string;
  exact: boolean;
  members: number;
  similarity: number | null;
}

/** The rows of the families view for the index's grids (one per file with a grid_digest). */
export function familyRows(grids: readonly { id: string; gridDigest: string; signature: string | null }[]): FamilyRow[] {
  const byId = new Map<string, { gridDigest: string; signature: string | null }>();
  const families = familiesOf(grids);
  const inFamily = new Set<string>();
  for (const f of families) for (const id of f.ids) inFamily.add(id);
  for (const g of grids) if (inFamily.has(g.id)) byId.set(g.id, g);
  const rows: FamilyRow[] = [];
  for (const f of families) {
    // The grid the family is keyed by, and its signature (any file holding it: one grid, one signature).
    const keyed = f.ids.map((id) => byId.get(id)!).find((g) => g.gridDigest === f.key);
    const keySignature = keyed?.signature ? signatureBytes(keyed.signature) : null;
    for (const id of f.ids) {
      const g = byId.get(id)!;
      const own = g.signature ? signatureBytes(g.signature) : null;
      const s = g.gridDigest === f.key ? 1 : own && keySignature ? similarity(own, keySignature) : null;
      rows.push({ id, family: f.key, exact: f.exact, members: f.ids.length, similarity: s === null ? null : Math.round(s * 1000) / 1000 });
    }
  }
  return rows;
}
