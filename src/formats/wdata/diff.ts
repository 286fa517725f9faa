// Rusty Hearts .wdata: what changed between two files (`wdata.diff`, `levelkit diff`): header fields
// and paths, then each section's rows — boxes matched by name, triggers by name, scenes by file, scene
// resources by key (duplicates in order). Kinds are listed in src/diff/README.md.

import { appendAll, type Change, fieldChangesAs, recordChanges } from '../../diff/index.js';
import { typeName } from './layout.js';
import { type BoxKind, boxAt } from './rows.js';
import type { WdataBoxTable, WdataLevel } from './types.js';

/** Model fields compared by another pass, or derived from what is compared. */
const HEADER_SKIP = [
  'warnings',
  'eventBoxes',
  'aniBGs',
  'itemBoxes',
  'gimmicks',
  'triggers',
  'scenes',
  'sceneResources',
  'counts',
  'contentDigest',
  'summaryOnly',
];

/** The changes from `a` to `b`; TypeError for a value decoded with `sections: 'summary'`. */
export function diff(a: WdataLevel, b: WdataLevel): Change[] {
  for (const l of [a, b]) if (l.summaryOnly) throw new TypeError("levelkit wdata: diff needs full decodes (not sections: 'summary')");
  const out = fieldChangesAs('header', {}, a, b, HEADER_SKIP);
  const types = Math.max(a.eventBoxes?.tables.length ?? 0, b.eventBoxes?.tables.length ?? 0);
  for (let t = 0; t < types; t++) appendAll(out, boxChanges(a, b, t, `event:${typeName(t)}`));
  appendAll(out, boxChanges(a, b, 'aniBG', 'aniBGs'));
  appendAll(out, boxChanges(a, b, 'itemBox', 'itemBoxes'));
  appendAll(out, boxChanges(a, b, 'gimmick', 'gimmicks'));
  const { triggers: ta, ...ra } = a.triggers;
  const { triggers: tb, ...rb } = b.triggers;
  appendAll(out, fieldChangesAs('row-changed', { section: 'triggers' }, ra, rb));
  appendAll(out, recordChanges(ta ?? [], tb ?? [], { kind: 'row', where: { section: 'triggers' }, key: (r) => r.name.text }));
  appendAll(out, recordChanges(a.scenes, b.scenes, { kind: 'row', where: { section: 'scenes' }, key: (r) => r.file.text }));
  appendAll(out, recordChanges(a.sceneResources, b.sceneResources, { kind: 'row', where: { section: 'sceneResources' }, key: (r) => r.key.text }));
  return out;
}

function boxChanges(a: WdataLevel, b: WdataLevel, kind: BoxKind, section: string): Change[] {
  return recordChanges(rowsOf(a, kind), rowsOf(b, kind), { kind: 'row', where: { section }, key: (r) => r.name });
}

function rowsOf(level: WdataLevel, kind: BoxKind) {
  const table: WdataBoxTable | undefined =
    kind === 'aniBG' ? level.aniBGs : kind === 'itemBox' ? level.itemBoxes : kind === 'gimmick' ? level.gimmicks : level.eventBoxes?.tables[kind];
  return Array.from({ length: table?.count ?? 0 }, (_, i) => boxAt(level, kind, i));
}
