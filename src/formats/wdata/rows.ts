// Rusty Hearts .wdata as plain rows: boxAt() for one box, and extract()'s level.json with every
// table as an array of row objects (strings as text, `.\` paths as null). See README.md § Rows.

import { isTypedArray } from '../../core/json.js';
import { dictionary } from '../../core/record.js';
import type { ExtractedFile } from '../define.js';
import { ANIBG_FIELDS, CAMERA, EVENT_BOX_FIELDS, type FieldSpec, fieldsAt, GIMMICK_FIELDS, ITEMBOX_FIELDS, OBB_COLUMNS, typeName } from './layout.js';
import type { WdataBoxTable, WdataLevel, WString } from './types.js';
import { isNoPath } from './wstring.js';

/** Which table: an EventBox type id (0–18), or `aniBG`, `itemBox`, `gimmick`. */
export type BoxKind = number | 'aniBG' | 'itemBox' | 'gimmick';

/** One box as a plain object: name, position/scale/rotation/extents arrays, then its fields. */
export interface WdataBox {
  name: string;
  position: [number, number, number];
  scale: [number, number, number];
  rotation: [number, number, number, number];
  extents: [number, number, number];
  [field: string]: unknown;
}

function tableOf(level: WdataLevel, kind: BoxKind): { table: WdataBoxTable; fields: FieldSpec[] } {
  if (kind === 'aniBG') return { table: level.aniBGs, fields: fieldsAt(ANIBG_FIELDS, level.aniBGVersion ?? 0) };
  if (kind === 'itemBox') return { table: level.itemBoxes, fields: fieldsAt(ITEMBOX_FIELDS, level.itemBoxVersion ?? 0) };
  if (kind === 'gimmick') return { table: level.gimmicks, fields: GIMMICK_FIELDS.slice() };
  const table = level.eventBoxes?.tables[kind];
  if (!table) throw new RangeError(`levelkit: wdata has no EventBox table ${kind}`);
  return { table, fields: kind === CAMERA ? [] : fieldsAt(EVENT_BOX_FIELDS[kind] ?? [], level.eventBoxVersion ?? 0) };
}

/**
 * Box `i` of `kind` as a plain object (a copy). Booleans stored as int32 become `boolean`, strings
 * their text, arrays plain number arrays; CameraBoxes add `category` and `cameras`. RangeError for
 * a table or row that does not exist.
 */
export function boxAt(level: WdataLevel, kind: BoxKind, i: number): WdataBox {
  const { table: t, fields } = tableOf(level, kind);
  if (!Number.isInteger(i) || i < 0 || i >= t.count) throw new RangeError(`levelkit: wdata ${String(kind)} box ${i} of ${t.count}`);
  const o = OBB_COLUMNS.map((c) => t[c][i]!);
  const box: WdataBox = {
    name: t.name[i]!.text,
    position: [o[0]!, o[1]!, o[2]!],
    scale: [o[3]!, o[4]!, o[5]!],
    rotation: [o[6]!, o[7]!, o[8]!, o[9]!],
    extents: [o[10]!, o[11]!, o[12]!],
  };
  for (const s of fields) {
    if (s.kind === 'count') continue;
    const v = (t.fields[s.name] as ArrayLike<unknown>)[i];
    box[s.name] = s.kind === 'bool' ? v !== 0 : s.kind === 'wstr' ? (v as WString).text : s.kind.endsWith('[]') ? Array.from(v as Float32Array) : v;
  }
  if (kind === CAMERA) {
    const cat = t.fields.category as Uint32Array | undefined;
    box.category = cat ? cat[i] : null;
    box.cameras = jsonable((t.fields.cameras as unknown[])[i]);
  }
  return box;
}

/** Typed arrays → number arrays, WString → text, recursively (for rows and JSON). */
function jsonable(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (isTypedArray(v)) return Array.from<number | bigint>(v);
  if (Array.isArray(v)) return v.map(jsonable);
  const o = v as Record<string, unknown>;
  if (o.encoding === 'utf-16le' && typeof o.text === 'string') return o.text;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, jsonable(x)]));
}

const path = (s: WString | null) => (s === null || isNoPath(s) ? null : s.text);
const rows = (level: WdataLevel, kind: BoxKind, count: number) => Array.from({ length: count }, (_, i) => boxAt(level, kind, i));

/** The whole level as JSON-ready rows (what `level.json` holds). */
export function levelRows(level: WdataLevel): Record<string, unknown> {
  const eventBoxes = dictionary<unknown[]>();
  level.eventBoxes?.tables.forEach((t, type) => {
    if (t.count > 0) eventBoxes[typeName(type)] = rows(level, type, t.count);
  });
  return {
    format: 'wdata',
    mainVersion: level.mainVersion,
    eventBoxVersion: level.eventBoxVersion,
    aniBGVersion: level.aniBGVersion,
    itemBoxVersion: level.itemBoxVersion,
    gimmickVersion: level.gimmickVersion,
    reserved9: level.reserved9,
    reserved16: level.reserved16,
    reserved18: level.reserved18,
    paths: {
      model: path(level.modelPath),
      navMesh: path(level.navMeshPath),
      navHeight: path(level.navHeightPath),
      eventBox: path(level.eventBoxPath),
      obstacle: path(level.obstaclePath),
      moc: path(level.mocPath),
      aniBG: path(level.aniBGPath),
    },
    eventBoxes,
    aniBGs: rows(level, 'aniBG', level.aniBGs.count),
    itemBoxes: rows(level, 'itemBox', level.itemBoxes.count),
    gimmicks: rows(level, 'gimmick', level.gimmicks.count),
    triggers: jsonable(level.triggers),
    scenes: jsonable(level.scenes),
    sceneResources: jsonable(level.sceneResources),
    warnings: level.warnings,
  };
}

/** Files `levelkit extract` writes for a .wdata: `level.json` (UTF-8) with every table as rows. */
export function extract(level: WdataLevel): ExtractedFile[] {
  const json = JSON.stringify(levelRows(level), (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2);
  return [{ path: 'level.json', bytes: new TextEncoder().encode(`${json}\n`) }];
}
