// How `levelkit diff` prints changes for a person: counts per kind, then one line per change (cells
// as rectangles, a script's changed lines below its change), at most MAX_LINES of them.

import type { Change, DiffValue } from '../index.js';
import { printable } from '../scan/names.js';

/** Changes listed on a terminal; the rest are counted (--json lists every one). */
export const MAX_LINES = 500;

/** `5 changes: tile 2, object-changed 3` */
export function countsLine(changes: readonly Change[]): string {
  const counts = new Map<string, number>();
  for (const c of changes) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  const list = [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
  return `${changes.length} change${changes.length === 1 ? '' : 's'}: ${list}`;
}

/** The whole text: the counts, then the changes. */
export function changesText(title: string, changes: readonly Change[]): string {
  const lines = [`${printable(title)}: ${countsLine(changes)}`];
  // Line by line: a spread of a 400 KB script's hunk lines overflows the call stack.
  for (const c of changes.slice(0, MAX_LINES)) for (const line of changeLines(c)) lines.push(line);
  if (changes.length > MAX_LINES) lines.push(`  … ${changes.length - MAX_LINES} more (--json lists every change)`);
  return `${lines.join('\n')}\n`;
}

/** One change: `  tile  layer 1 (game)  x 5 y 0  2×2 (4 cells)  index 34 → 2`, and a script's hunks below it. */
export function changeLines(c: Change): string[] {
  const parts = [c.kind];
  if (c.section !== undefined) parts.push(c.section);
  if (c.layer !== undefined) parts.push(`layer ${c.layer}${c.layerKind ? ` (${c.layerKind})` : ''}`);
  if (c.id !== undefined) parts.push(`id ${show(c.id)}`);
  if (c.x !== undefined) parts.push(`at ${c.x},${c.y}`);
  if (c.w !== undefined) parts.push(`${c.w}×${c.h}${c.cells !== c.w * (c.h ?? 1) ? ` (${c.cells} cells)` : ''}`);
  if (c.field !== undefined && c.kind !== 'npc-script') parts.push(`${c.field}:`);
  if (c.from !== undefined || c.to !== undefined) parts.push(`${show(c.from ?? null)} → ${show(c.to ?? null)}`);
  const out = [`  ${printable(parts.join('  '))}`];
  for (const h of c.hunks ?? []) {
    out.push(
      `    @@ -${h.fromLine} +${h.toLine}${h.coarse ? ` (${h.removed.length} lines replaced by ${h.added.length}: too different to align line by line)` : ''}`,
    );
    for (const l of h.removed) out.push(`    -${printable(l)}`);
    for (const l of h.added) out.push(`    +${printable(l)}`);
  }
  return out;
}

/** A value in a line: short JSON, long values cut. */
function show(v: DiffValue): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}
