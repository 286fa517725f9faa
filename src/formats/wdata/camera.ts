// Rusty Hearts .wdata CameraBoxes (EventBox type 0): four camera settings each, with PVS and
// render lists whose shape depends on the EventBox version (and, for entry categories, on the main
// version). Read field by field; the table keeps the OBB header as Float32Array columns like the
// others. See README.md § CameraBox.

import type { DecodeContext } from '../../core/context.js';
import { encodeError } from '../../core/errors.js';
import type { ByteReader, ByteWriter } from '../../core/reader.js';
import { emptyTable } from './boxes.js';
import { minCameraBytes, OBB_COLUMNS } from './layout.js';
import type { WdataBoxTable, WdataCameraInfo, WdataCameraLists, WdataEntry, WString } from './types.js';
import { readWString, writeWString } from './wstring.js';

const LIST_NAMES = ['renderBg', 'renderAni', 'renderItem', 'renderGimmick', 'noRenderBg', 'noRenderAni', 'noRenderItem', 'noRenderGimmick'];

/** An empty CameraBox table for EventBox version `ev`. */
export function emptyCameraTable(ev: number): WdataBoxTable {
  const t = emptyTable('event:camera', []);
  if (ev >= 7) t.fields.category = new Uint32Array(0);
  t.fields.cameras = [];
  return t;
}

/** Reads `count` CameraBoxes at the cursor (EventBox version `ev`, main version `main`). */
export function readCameras(r: ByteReader, count: number, ev: number, main: number, ctx: DecodeContext): WdataBoxTable {
  r.count(count, ctx.limits.maxRecords, minCameraBytes(ev), 'camera boxes');
  const t = emptyCameraTable(ev);
  const names: WString[] = [];
  const obb = OBB_COLUMNS.map(() => new Float32Array(count));
  const category = ev >= 7 ? new Uint32Array(count) : null;
  const cameras: WdataCameraInfo[][] = [];
  for (let i = 0; i < count; i++) {
    r.within(`camera[${i}]`, () => {
      names.push(readWString(r, 'name'));
      for (const c of obb) c[i] = f32(r);
      if (category) category[i] = r.u32();
      const infos: WdataCameraInfo[] = [];
      for (let k = 0; k < 4; k++) infos.push(r.within(`cameras[${k}]`, () => readInfo(r, k, ev, main, ctx)));
      cameras.push(infos);
    });
  }
  if (ctx.summaryOnly) return t;
  t.count = count;
  t.name = names;
  OBB_COLUMNS.forEach((c, k) => {
    t[c] = obb[k]!;
  });
  if (category) t.fields.category = category;
  t.fields.cameras = cameras;
  return t;
}

/** A float32 by its bits (keeps NaN payloads). */
function f32(r: ByteReader): number {
  const u = new Uint32Array([r.u32()]);
  return new Float32Array(u.buffer)[0]!;
}

function readInfo(r: ByteReader, k: number, ev: number, main: number, ctx: DecodeContext): WdataCameraInfo {
  const target = ev >= 3 || k === 0 ? readWString(r, 'target') : null;
  const name = readWString(r, 'name');
  r.need(84, 'camera parameters');
  const params = new Float32Array(21);
  const pu = new Uint32Array(params.buffer);
  for (let j = 0; j < 21; j++) pu[j] = r.u32();
  const buildPVS = ev >= 5 ? r.u32() : null;
  if (ev < 4) return { target, name, params, buildPVS, lists: null };
  r.need(44, 'list counts');
  const n = Array.from({ length: 11 }, () => r.u32());
  const max = ctx.limits.maxRecords;
  const u32s = (len: number, what: string) => {
    r.count(len, max, 4, what);
    const a = new Uint32Array(len);
    for (let j = 0; j < len; j++) a[j] = r.u32();
    return a;
  };
  const pvsBg = u32s(n[0]!, 'pvsBg');
  let pvsEventBoxIds: Uint32Array | null = null;
  let pvsEventBoxes: { category: number; name: WString }[] | null = null;
  if (ev < 6) pvsEventBoxIds = u32s(n[1]!, 'pvsEventBoxIds');
  else {
    r.count(n[1]!, max, 6, 'pvsEventBoxes');
    pvsEventBoxes = Array.from({ length: n[1]! }, () => ({ category: r.u32(), name: readWString(r, 'pvsEventBoxes.name') }));
  }
  const render = LIST_NAMES.map((list, j) => {
    r.count(n[2 + j]!, max, main >= 22 ? 6 : 2, list);
    return Array.from({ length: n[2 + j]! }, (): WdataEntry => ({ category: main >= 22 ? r.u32() : null, key: readWString(r, list) }));
  });
  r.count(n[10]!, max, 12, 'buildPos');
  const buildPos = new Float32Array(3 * n[10]!);
  const bu = new Uint32Array(buildPos.buffer);
  for (let j = 0; j < bu.length; j++) bu[j] = r.u32();
  const lists: WdataCameraLists = { pvsBg, pvsEventBoxIds, pvsEventBoxes, render, buildPos };
  return { target, name, params, buildPVS, lists };
}

const bad = (path: string, expected: string) => encodeError('wdata', 'BAD_VALUE', { path, expected });
const u32ok = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xffffffff;

/** Writes the CameraBox table `t`, refusing anything the versions cannot hold. */
export function writeCameras(w: ByteWriter, t: WdataBoxTable, ev: number, main: number, path: string, nul?: boolean): void {
  const n = t.count;
  const category = t.fields.category as Uint32Array | undefined;
  const cameras = t.fields.cameras as WdataCameraInfo[][] | undefined;
  if (ev >= 7 && !(category instanceof Uint32Array && category.length === n))
    throw encodeError('wdata', 'BAD_LENGTH', { path: `${path}.fields.category`, expected: `Uint32Array(${n}) at EventBox version ≥ 7` });
  if (!Array.isArray(cameras) || cameras.length !== n) throw encodeError('wdata', 'BAD_LENGTH', { path: `${path}.fields.cameras`, expected: n });
  const obb = OBB_COLUMNS.map((c) => new Uint32Array(t[c].buffer, t[c].byteOffset, n));
  for (let i = 0; i < n; i++) {
    const p = `${path}[${i}]`;
    writeWString(w, t.name[i]!, `${p}.name`, nul);
    for (const c of obb) w.u32(c[i]!);
    if (ev >= 7) w.u32(category![i]!);
    const infos = cameras[i]!;
    if (!Array.isArray(infos) || infos.length !== 4) throw encodeError('wdata', 'BAD_LENGTH', { path: `${p}.cameras`, expected: 4 });
    infos.forEach((info, k) => {
      if (info === null || typeof info !== 'object') throw bad(`${p}.cameras[${k}]`, 'a camera setting');
    });
    infos.forEach((info, k) => writeInfo(w, info, k, ev, main, `${p}.cameras[${k}]`, nul));
  }
}

function writeInfo(w: ByteWriter, info: WdataCameraInfo, k: number, ev: number, main: number, p: string, nul?: boolean): void {
  const hasTarget = ev >= 3 || k === 0;
  if (hasTarget !== (info.target !== null))
    throw bad(`${p}.target`, hasTarget ? 'a string at this EventBox version' : 'null below EventBox version 3 (infos 1–3)');
  if (info.target) writeWString(w, info.target, `${p}.target`, nul);
  writeWString(w, info.name, `${p}.name`, nul);
  if (!(info.params instanceof Float32Array) || info.params.length !== 21)
    throw encodeError('wdata', 'BAD_LENGTH', { path: `${p}.params`, expected: 'Float32Array(21)' });
  for (const v of new Uint32Array(info.params.buffer, info.params.byteOffset, 21)) w.u32(v);
  if (ev >= 5 !== (info.buildPVS !== null)) throw bad(`${p}.buildPVS`, ev >= 5 ? 'a uint32' : 'null below EventBox version 5');
  if (info.buildPVS !== null) {
    if (!u32ok(info.buildPVS)) throw encodeError('wdata', 'OUT_OF_RANGE', { path: `${p}.buildPVS`, actual: String(info.buildPVS) });
    w.u32(info.buildPVS);
  }
  if (ev >= 4 !== (info.lists !== null)) throw bad(`${p}.lists`, ev >= 4 ? 'lists at EventBox version ≥ 4' : 'null below EventBox version 4');
  const l = info.lists;
  if (!l) return;
  if (typeof l !== 'object') throw bad(`${p}.lists`, 'an object');
  const lp = `${p}.lists`;
  if (!(l.pvsBg instanceof Uint32Array)) throw bad(`${lp}.pvsBg`, 'Uint32Array');
  if (ev < 6 ? !(l.pvsEventBoxIds instanceof Uint32Array) || l.pvsEventBoxes !== null : !Array.isArray(l.pvsEventBoxes) || l.pvsEventBoxIds !== null) {
    throw bad(
      `${lp}.pvsEventBoxes`,
      ev < 6 ? 'pvsEventBoxIds (Uint32Array) and pvsEventBoxes null below EventBox version 6' : 'pvsEventBoxes (array) and pvsEventBoxIds null from version 6',
    );
  }
  if (ev >= 6 && l.pvsEventBoxes!.some((e) => e === null || typeof e !== 'object')) throw bad(`${lp}.pvsEventBoxes`, 'objects');
  if (!Array.isArray(l.render) || l.render.length !== 8 || !l.render.every((x) => Array.isArray(x) && x.every((e) => e !== null && typeof e === 'object')))
    throw encodeError('wdata', 'BAD_LENGTH', { path: `${lp}.render`, expected: '8 lists' });
  if (!(l.buildPos instanceof Float32Array) || l.buildPos.length % 3 !== 0)
    throw encodeError('wdata', 'BAD_LENGTH', { path: `${lp}.buildPos`, expected: 'Float32Array, 3 per position' });
  const pvsEvents = ev < 6 ? l.pvsEventBoxIds!.length : l.pvsEventBoxes!.length;
  for (const c of [l.pvsBg.length, pvsEvents, ...l.render.map((x) => x.length), l.buildPos.length / 3]) w.u32(c);
  for (const v of l.pvsBg) w.u32(v);
  if (ev < 6) for (const v of l.pvsEventBoxIds!) w.u32(v);
  else l.pvsEventBoxes!.forEach((e, j) => writeCategory(w, e.category, e.name, `${lp}.pvsEventBoxes[${j}]`, true, nul));
  l.render.forEach((list, j) => list.forEach((e, m) => writeCategory(w, e.category, e.key, `${lp}.render[${j}][${m}]`, main >= 22, nul)));
  for (const v of new Uint32Array(l.buildPos.buffer, l.buildPos.byteOffset, l.buildPos.length)) w.u32(v);
}

/** An entry: uint32 category (when the version stores one) then the string. */
export function writeCategory(w: ByteWriter, category: number | null, key: WString, p: string, withCategory: boolean, nul?: boolean): void {
  if (withCategory) {
    if (!u32ok(category)) throw encodeError('wdata', 'OUT_OF_RANGE', { path: `${p}.category`, expected: 'uint32', actual: String(category) });
    w.u32(category);
  } else if (category !== null) throw bad(`${p}.category`, 'null: this version stores no category');
  writeWString(w, key, `${p}.key`, nul);
}
