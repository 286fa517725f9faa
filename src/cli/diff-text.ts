// How `levelkit diff` prints changes for a person: counts per kind, then one line per change (cells
// as rectangles, a script's changed lines below its change), at most MAX_LINES of them.

import type { Change, DiffValue, TooMany } from '../index.js';
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

/**
 * One change: `  tile  layer 1 (game) "Game" in group "#1 Game"  at 5,0  2×2  {"index":0} → {"index":3}  (air → unhookable)`,
 * and a script's hunks below it.
 */
export function changeLines(c: Change): string[] {
  const parts = [c.kind];
  if (c.section !== undefined) parts.push(c.section);
  if (c.layer !== undefined) parts.push(layerText(c));
  else if (c.groupName !== undefined) parts.push(`group ${JSON.stringify(c.groupName)}`);
  if (c.id !== undefined && !(c.layer === undefined && c.groupName !== undefined)) parts.push(`id ${show(c.id)}`);
  if (c.x !== undefined) parts.push(`at ${c.x},${c.y}`);
  if (c.w !== undefined) parts.push(`${c.w}×${c.h}${c.cells !== c.w * (c.h ?? 1) ? ` (${c.cells} cells)` : ''}`);
  if (c.field !== undefined && c.kind !== 'npc-script') parts.push(`${c.field}:`);
  if (c.from !== undefined || c.to !== undefined || c.tooMany) parts.push(`${side(c, 'from')} → ${side(c, 'to')}`);
  if (c.fromMeaning !== undefined || c.toMeaning !== undefined) parts.push(`(${meaning(c.fromMeaning)} → ${meaning(c.toMeaning)})`);
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

/** `layer 3 (tele) "Tele" in group "#1 Game"`: the number, kind and the names the editor shows. */
export function layerText(c: Change): string {
  let s = `layer ${c.layer}${c.layerKind ? ` (${c.layerKind})` : ''}`;
  if (c.layerName !== undefined) s += ` ${JSON.stringify(c.layerName)}`;
  if (c.groupName !== undefined) s += ` in group ${JSON.stringify(c.groupName)}`;
  return s;
}

/** A side of a change; a tile change's columns too many to list are said so, with how many values they had. */
function side(c: Change, which: 'from' | 'to'): string {
  const tooMany = Object.entries(c.tooMany ?? {}).filter(([, t]) => t[which] !== undefined);
  if (!tooMany.length) return show(c[which] ?? null);
  const said = (t: TooMany) => `too many different values to list (${t[which]} values)`;
  const v = c[which];
  // A one-column grid's side is absent; a grid of several columns keeps the columns it could list.
  if (v === undefined) return said(tooMany[0]![1]);
  const listed = v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${show(x)}`) : [];
  return `{${[...listed, ...tooMany.map(([k, t]) => `${JSON.stringify(k)}: ${said(t)}`)].join(',')}}`;
}

/** What tiles mean: one name, or one per cell in brackets; cut when long (absent: a side too many to list). */
function meaning(m: string | string[] | undefined): string {
  if (m === undefined) return 'too many to list';
  const s = Array.isArray(m) ? `[${m.join(', ')}]` : m;
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}

/** A value in a line: short JSON, long values cut. */
function show(v: DiffValue): string {
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}
