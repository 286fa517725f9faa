// Rusty Hearts .wdata: box record layouts as data, keyed by kind and gated by the kind's version
// (EventBox, AniBG or ItemBox sub-version). The reader, the writer and boxAt walk these tables; no
// reader code checks versions for box fields. See README.md § Boxes.

import { WalkOp } from '../../kernels/js/walk.js';
import { BOX_TYPE_NAMES } from './types.js';

/** How a field is stored: int32/uint32/float32 word, int32 boolean, counted string, element count, or an array of words. */
export type FieldKind = 'i32' | 'u32' | 'f32' | 'bool' | 'wstr' | 'count' | 'f32[]' | 'i32[]';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  /** For arrays: the `count` field giving the element count. */
  count?: string;
  /** Present when min ≤ version (< below). */
  min?: number;
  below?: number;
}

const f = (name: string, kind: FieldKind, gate: { min?: number; below?: number; count?: string } = {}): FieldSpec => ({ name, kind, ...gate });
const vec = (p: string, kind: FieldKind = 'f32', gate = {}) => [f(`${p}X`, kind, gate), f(`${p}Y`, kind, gate), f(`${p}Z`, kind, gate)];

/** The OBB header every box starts with (after its name): 13 floats. */
export const OBB_COLUMNS = ['posX', 'posY', 'posZ', 'scaleX', 'scaleY', 'scaleZ', 'rotX', 'rotY', 'rotZ', 'rotW', 'extX', 'extY', 'extZ'] as const;

/** Type-specific fields after the OBB, by EventBox type id (camera, type 0, is read by hand: see camera.ts). */
export const EVENT_BOX_FIELDS: readonly (readonly FieldSpec[])[] = [
  /* 0 camera */ [],
  /* 1 respawn */ [
    f('totalEnemyNum', 'i32'),
    f('enemyNum', 'i32'),
    f('enemyName', 'wstr'),
    f('respawnTime', 'f32'),
    f('respawnMotion', 'wstr'),
    f('inCheck', 'bool'),
    f('randomDirection', 'bool'),
    ...[0, 1, 2, 3, 4].map((i) => f(`difficulty${i}`, 'bool')),
  ],
  /* 2 startPoint */ [f('id', 'i32')],
  /* 3 trigger */ [
    f('state', 'i32'),
    f('actionMotion', 'wstr'),
    f('motion', 'wstr'),
    f('signpostTextId', 'i32', { min: 9 }),
    ...vec('signpost', 'f32', { min: 9 }),
  ],
  /* 4 skid */ [f('state', 'i32'), ...vec('velocity'), f('endTime', 'f32'), f('duration', 'f32')],
  /* 5 eventHit */ [
    f('state', 'u32'),
    f('aniBGName', 'wstr'),
    f('damage', 'f32'),
    ...vec('direction'),
    f('damageMotion', 'wstr'),
    f('hitCount', 'count'),
    f('tempHitCount', 'count'),
    f('hitTimes', 'f32[]', { count: 'hitCount' }),
    f('tempHitTimes', 'f32[]', { count: 'tempHitCount' }),
  ],
  /* 6 npc */ [f('npcName', 'wstr'), f('id', 'i32'), f('instanceId', 'i32')],
  /* 7 portal */ [f('warpMapName', 'wstr'), f('id', 'i32'), f('msgType', 'i32'), f('warpMapId', 'i32'), f('warpPortalId', 'i32'), f('active', 'bool')],
  /* 8 selectMapPortal */ [f('id', 'i32'), f('msgType', 'i32'), f('active', 'bool')],
  /* 9 inArea */ [f('warpMapName', 'wstr'), f('id', 'i32'), f('active', 'bool')],
  /* 10 etc */ [f('id', 'i32')],
  /* 11 cameraBlock */ [],
  /* 12 cutoff */ [f('cutoffType', 'i32')],
  /* 13 cameraTarget */ [f('targetName', 'wstr', { below: 8 }), f('nameTextId', 'i32', { min: 8 }), f('targetLocalPC', 'bool', { min: 2 })],
  /* 14 unused: no group may hold any */ [],
  /* 15 miniMapIcon */ [f('iconType', 'i32')],
  /* 16 environmentReverb */ [f('reverbType', 'i32')],
  /* 17 waypoint */ [
    f('id', 'i32'),
    f('range', 'f32'),
    f('linkCount', 'count'),
    f('links', 'i32[]', { count: 'linkCount' }),
    f('distances', 'f32[]', { count: 'linkCount' }),
  ],
  /* 18 obstacle */ [],
];

/** AniBG fields (gated by the AniBG version). */
export const ANIBG_FIELDS: readonly FieldSpec[] = [
  f('model', 'wstr'),
  f('motion', 'wstr'),
  f('loop', 'bool'),
  f('lightIndex', 'i32'),
  f('coverIndex', 'i32'),
  f('shadow', 'bool', { min: 3 }),
  f('moveWeight', 'bool', { min: 4 }),
  f('pvsRadius', 'f32', { min: 5 }),
];
/** ItemBox fields (gated by the ItemBox version). */
export const ITEMBOX_FIELDS: readonly FieldSpec[] = [
  f('model', 'wstr'),
  f('motion', 'wstr'),
  f('tablePath', 'wstr'),
  f('loop', 'bool'),
  f('openEnable', 'bool', { min: 3 }),
];
/** Gimmick fields (the Gimmick version gates nothing). */
export const GIMMICK_FIELDS: readonly FieldSpec[] = [
  f('model', 'wstr'),
  f('motion', 'wstr'),
  f('loopFlag', 'i32'),
  f('lightIndex', 'i32'),
  f('coverIndex', 'i32'),
  f('shadow', 'i32'),
  f('moveWeight', 'i32'),
  f('templateId', 'i32'),
];

export const CAMERA = 0;
export const UNUSED = 14;

/** The fields of `specs` present at `version`. */
export function fieldsAt(specs: readonly FieldSpec[], version: number): FieldSpec[] {
  return specs.filter((s) => (s.min === undefined || version >= s.min) && (s.below === undefined || version < s.below));
}

/** The record program for walkRecords: name, 13 OBB words, then `fields` in order. */
export function programFor(fields: readonly FieldSpec[]): Int32Array {
  const prog: number[] = [WalkOp.WSTRING, 0, 0];
  for (let i = 0; i < 13; i++) prog.push(WalkOp.WORD, 0, 0);
  const colOf = new Map<string, number>();
  fields.forEach((s, i) => {
    colOf.set(s.name, 14 + i);
    if (s.kind === 'wstr') prog.push(WalkOp.WSTRING, 0, 0);
    else if (s.kind === 'f32[]' || s.kind === 'i32[]') prog.push(WalkOp.ARRAY, colOf.get(s.count!)!, 4);
    else prog.push(WalkOp.WORD, 0, 0);
  });
  return Int32Array.from(prog);
}

/** Smallest byte size of one record with `fields` (strings and arrays empty). */
export function minRecordBytes(fields: readonly FieldSpec[]): number {
  let n = 2 + 13 * 4;
  for (const s of fields) n += s.kind === 'wstr' ? 2 : s.kind.endsWith('[]') ? 0 : 4;
  return n;
}

/** Smallest CameraBox record at EventBox version `ev`. */
export function minCameraBytes(ev: number): number {
  const info = 2 + 21 * 4 + (ev >= 5 ? 4 : 0) + (ev >= 4 ? 11 * 4 : 0);
  return 2 + 13 * 4 + (ev >= 7 ? 4 : 0) + 4 * info + 2 + (ev >= 3 ? 3 * 2 : 0);
}

export const typeName = (type: number): string => BOX_TYPE_NAMES[type] ?? `type${type}`;
