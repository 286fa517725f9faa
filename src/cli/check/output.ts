// How `levelkit check` prints findings: one readable line per finding (terminal), or one JSON
// object per line with the file's `path` and `member` (--json).
import type { Finding, Where } from '../../check/types.js';
import { jsonText } from '../../scan/json-text.js';
import { printable } from '../../scan/names.js';

/** A finding with the file it was found in. */
export interface CheckedFinding extends Finding {
  path: string;
  /** Base64 of the path's exact bytes when they are not UTF-8 (the record's `pathBytes`). */
  pathBytes?: string;
  member: string | null;
  /** On the finding that stands for a rule's findings past --max-per-rule in this file: how many (cap.ts). */
  omitted?: number;
}

export function findingJson(f: CheckedFinding): string {
  return `${jsonText({ path: f.path, member: f.member, rule: f.rule, severity: f.severity, message: f.message, where: f.where, ...(f.omitted === undefined ? {} : { omitted: f.omitted }) })}\n`;
}

/** `maps/a.map: warning tw/unused-image: image 3 'x' is not used by any layer [layer 2, x 4, y 7]` */
export function findingText(f: CheckedFinding): string {
  const file = f.member === null ? f.path : `${f.path}!${f.member}`;
  const at = whereText(f.where);
  return `${printable(file)}: ${f.severity} ${f.rule}: ${printable(f.message)}${at ? ` [${at}]` : ''}\n`;
}

function whereText(w: Where): string {
  const parts: string[] = [];
  if (w.layer !== undefined) parts.push(`layer ${w.layer}`);
  if (w.x !== undefined) parts.push(`x ${w.x}`);
  if (w.y !== undefined) parts.push(`y ${w.y}`);
  if (w.object !== undefined) parts.push(`object ${w.object}`);
  if (w.offset !== undefined) parts.push(`offset 0x${w.offset.toString(16)}`);
  return parts.join(', ');
}
