// writeRows() for Rusty Hearts .wdata: every box of every table (event boxes by type, aniBGs,
// item boxes, gimmicks) as an object at its position, its fields beside it; trigger and script
// texts, scene files and resource paths as texts. No tile grids.
import type { LevelRows, RowSink } from '../define.js';
import { collectRows, levelRow, notIndexable } from '../rows.js';
import { typeName } from './layout.js';
import { type BoxKind, boxAt } from './rows.js';
import type { WdataLevel, WString } from './types.js';
import { isNoPath } from './wstring.js';

export function indexRows(level: WdataLevel): LevelRows {
  return collectRows((sink) => writeRows(level, sink));
}

export function writeRows(level: WdataLevel, sink: RowSink): void {
  if (level.summaryOnly) throw notIndexable('wdata');
  let index = 0;
  const tables: [BoxKind, string, number][] = [];
  level.eventBoxes?.tables.forEach((t, type) => tables.push([type, typeName(type), t.count]));
  tables.push(['aniBG', 'aniBG', level.aniBGs.count], ['itemBox', 'itemBox', level.itemBoxes.count], ['gimmick', 'gimmick', level.gimmicks.count]);
  for (const [kind, name, count] of tables)
    for (let i = 0; i < count; i++) {
      const { name: boxName, position, scale, rotation, extents, ...rest } = boxAt(level, kind, i);
      const fields: Record<string, string | number | boolean | null> = { z: position[2], depth: extents[2] * 2 };
      for (const [k, v] of Object.entries(rest))
        fields[k] = v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : JSON.stringify(v);
      fields.scale = JSON.stringify(scale);
      fields.rotation = JSON.stringify(rotation);
      sink.object({
        kind: name,
        index: index++,
        layer: null,
        name: boxName,
        logic: null,
        image: null,
        x: position[0],
        y: position[1],
        // Boxes are stored with half extents.
        width: extents[0] * 2,
        height: extents[1] * 2,
        target: null,
        fields,
      });
    }
  const push = (source: string, s: WString | null) => {
    if (s && !isNoPath(s) && s.text) sink.text(source, s.text);
  };
  for (const [source, s] of [
    ['model-path', level.modelPath],
    ['navmesh-path', level.navMeshPath],
    ['eventbox-path', level.eventBoxPath],
    ['moc-path', level.mocPath],
    ['anibg-path', level.aniBGPath],
    ['script-dir', level.triggers.scriptDir],
    ['main-script', level.triggers.mainScript],
  ] as const)
    push(source, s);
  for (const t of level.triggers.triggers ?? []) {
    push('trigger-name', t.name);
    push('trigger-comment', t.comment);
    for (const s of [...t.events, ...t.conditions, ...t.actions]) push('trigger', s);
  }
  const scripts = level.triggers.scripts;
  if (scripts) for (const s of [...scripts.events, ...scripts.conditions, ...scripts.actions]) push('script', s);
  for (const s of level.scenes) push('scene-file', s.file);
  for (const r of level.sceneResources) {
    push('scene-resource', r.key);
    for (const p of r.paths) push('scene-model', p.model);
  }
  sink.level(levelRow({ flavour: `main-v${level.mainVersion}`, game: 'rusty-hearts' }));
}
