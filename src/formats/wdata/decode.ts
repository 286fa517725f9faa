// Rusty Hearts .wdata decoder: header and versions, paths, the EventBox offset table and groups,
// AniBG/ItemBox/Gimmick tables, trailing paths, trigger scripts (two layouts), Scenes (two
// passes) and SceneResources. Sequential except for the EventBox groups. See README.md here.

import type { DecodeContext } from '../../core/context.js';
import { sha256Hex } from '../../core/digest.js';
import type { DecodeOptions } from '../../core/limits.js';
import { ByteReader } from '../../core/reader.js';
import { startDecode } from '../decode-context.js';
import { emptyTable, readTable } from './boxes.js';
import { emptyCameraTable, readCameras } from './camera.js';
import { ANIBG_FIELDS, CAMERA, EVENT_BOX_FIELDS, fieldsAt, GIMMICK_FIELDS, ITEMBOX_FIELDS, typeName, UNUSED } from './layout.js';
import type {
  WdataBoxTable,
  WdataEntry,
  WdataEventBoxes,
  WdataLevel,
  WdataScene,
  WdataSceneResource,
  WdataTriggers,
  WdataWarningCode,
  WString,
} from './types.js';
import { readWString } from './wstring.js';

/** The signature every file starts with (as UTF-16LE, with or without a counted NUL). */
export const SIGNATURE = 'stairwaygames.';
/** Highest main and EventBox versions this decoder knows. */
export const MAX_MAIN_VERSION = 22;
export const MAX_EVENTBOX_VERSION = 9;

/** True when `head` starts with the counted UTF-16LE signature (count 14, or 15 with a NUL). */
export function sniffWdata(head: Uint8Array): boolean {
  if (head.length < 2 + 2 * SIGNATURE.length) return false;
  const units = head[0]! | (head[1]! << 8);
  if (units !== SIGNATURE.length && units !== SIGNATURE.length + 1) return false;
  for (let i = 0; i < SIGNATURE.length; i++) {
    if (head[2 + 2 * i] !== SIGNATURE.charCodeAt(i) || head[3 + 2 * i] !== 0) return false;
  }
  return true;
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

type Ctx = DecodeContext<WdataWarningCode>;

/**
 * Decodes a whole .wdata file. DecodeError: BAD_MAGIC (no signature), UNSUPPORTED_VERSION (main
 * version outside 1–22, EventBox version outside 1–9), TRUNCATED, OUT_OF_RANGE (an EventBox offset
 * outside the file or inside the header), CORRUPT (two groups at one offset or overlapping, boxes of
 * type 14 or an unknown type, an unpaired surrogate), LIMIT_EXCEEDED (a count over `limits.maxRecords`).
 * Every count is checked against the bytes left before anything is allocated for it.
 */
export function decode(input: Uint8Array, opts?: DecodeOptions): WdataLevel {
  const { bytes, ctx } = startDecode<WdataWarningCode>('wdata', input, opts);
  const r = new ByteReader(bytes, 'wdata');
  if (!sniffWdata(bytes)) throw r.fail('BAD_MAGIC', { at: 0, path: 'signature', expected: `UTF-16LE "${SIGNATURE}"` });
  const signature = readWString(r, 'signature');
  const f32 = () => {
    U32[0] = r.u32();
    return F32[0]!;
  };
  const mainVersion = r.within('mainVersion', () => r.i32());
  if (mainVersion < 1 || mainVersion > MAX_MAIN_VERSION)
    throw r.fail('UNSUPPORTED_VERSION', { at: r.pos - 4, path: 'mainVersion', expected: `1..${MAX_MAIN_VERSION}`, actual: mainVersion });
  const v = mainVersion;
  const eventBoxVersion = v >= 7 ? r.i32() : null;
  if (eventBoxVersion !== null && (eventBoxVersion < 1 || eventBoxVersion > MAX_EVENTBOX_VERSION)) {
    throw r.fail('UNSUPPORTED_VERSION', { at: r.pos - 4, path: 'eventBoxVersion', expected: `1..${MAX_EVENTBOX_VERSION}`, actual: eventBoxVersion });
  }
  const aniBGVersion = v >= 7 ? r.i32() : null;
  const itemBoxVersion = v >= 7 ? r.i32() : null;
  const gimmickVersion = v >= 8 ? r.i32() : null;
  const reserved9 = v >= 9 ? r.i32() : null;
  const reserved16 = v >= 16 ? r.i32() : null;
  const reserved18: [number, number] | null = v >= 18 ? [r.i32(), r.i32()] : null;
  const path = (name: string) => r.within(name, () => readWString(r, name));
  const modelPath = path('modelPath');
  const navMeshPath = path('navMeshPath');
  const navHeightPath = v >= 2 ? path('navHeightPath') : null;
  const eventBoxPath = path('eventBoxPath');

  const digestParts: Uint8Array[] = [];
  const boxRead = eventBoxVersion === null ? null : r.within('eventBoxes', () => readEventBoxes(r, eventBoxVersion, v, ctx, digestParts));
  const eventBoxes = boxRead?.boxes ?? null;
  const section = (name: string, kind: string, fields: typeof ANIBG_FIELDS) =>
    r.within(name, () => {
      const start = r.pos;
      const t = readTable(r, kind, fields, r.u32(), ctx);
      digestParts.push(bytes.subarray(start, r.pos));
      return t;
    });
  // The stored count (also in a summary decode, whose tables stay empty).
  const peek = () => (r.remaining >= 4 ? new DataView(bytes.buffer, bytes.byteOffset + r.pos, 4).getUint32(0, true) : 0);
  const aniBGCount = peek();
  const aniBGs = section('aniBGs', 'aniBG', fieldsAt(ANIBG_FIELDS, aniBGVersion ?? 0));
  const itemBoxCount = peek();
  const itemBoxes = section('itemBoxes', 'itemBox', fieldsAt(ITEMBOX_FIELDS, itemBoxVersion ?? 0));
  const gimmickCount = peek();
  const gimmicks = section('gimmicks', 'gimmick', GIMMICK_FIELDS);
  const obstaclePath = v >= 2 ? path('obstaclePath') : null;
  const mocPath = path('mocPath');
  const aniBGPath = path('aniBGPath');
  const triggers = r.within('triggers', () => readTriggers(r, v, ctx));
  const scenes = r.within('scenes', () => readScenes(r, v, ctx, f32));
  const sceneResources = r.within('sceneResources', () => readSceneResources(r, v, ctx, f32));
  const trailing = r.bytes.slice(r.pos);
  if (trailing.length > 0) ctx.warnings.warn('TRAILING_BYTES', `${trailing.length} bytes after the last section (kept and written back)`, r.pos);

  let total = 0;
  for (const p of digestParts) total += p.length;
  const digestInput = new Uint8Array(total);
  total = 0;
  for (const p of digestParts) {
    digestInput.set(p, total);
    total += p.length;
  }

  return {
    format: 'wdata',
    warnings: ctx.warnings.list,
    signature,
    mainVersion,
    eventBoxVersion,
    aniBGVersion,
    itemBoxVersion,
    gimmickVersion,
    reserved9,
    reserved16,
    reserved18,
    modelPath,
    navMeshPath,
    navHeightPath,
    eventBoxPath,
    eventBoxes,
    aniBGs,
    itemBoxes,
    gimmicks,
    obstaclePath,
    mocPath,
    aniBGPath,
    triggers,
    scenes,
    sceneResources,
    trailing,
    counts: {
      boxesByType: boxRead ? boxRead.counts : [],
      aniBGs: aniBGCount,
      itemBoxes: itemBoxCount,
      gimmicks: gimmickCount,
      scenes: scenes.length,
      sceneResources: sceneResources.length,
    },
    summaryOnly: ctx.summaryOnly,
    contentDigest: sha256Hex(digestInput),
  };
}

function readEventBoxes(r: ByteReader, ev: number, main: number, ctx: Ctx, digest: Uint8Array[]): { boxes: WdataEventBoxes; counts: number[] } {
  const typeCount = r.count(r.u32(), ctx.limits.maxRecords, 8, 'EventBox types');
  const entriesAt = r.pos;
  const offsets = new Uint32Array(typeCount);
  const counts: number[] = [];
  for (let t = 0; t < typeCount; t++) {
    offsets[t] = r.u32();
    counts.push(r.u32());
  }
  const tableEnd = r.pos;
  const groups: number[] = [];
  let records = 0;
  for (let t = 0; t < typeCount; t++) {
    if (counts[t] === 0) continue;
    const at = entriesAt + 8 * t;
    const where = `types[${t}]`;
    if (t === UNUSED || t >= EVENT_BOX_FIELDS.length) {
      throw r.fail('CORRUPT', {
        at,
        path: `eventBoxes.${where}`,
        detail: `${counts[t]} boxes of ${t === UNUSED ? 'type 14, which no reader knows' : `unknown type ${t}`}`,
      });
    }
    const off = offsets[t]!;
    if (off < tableEnd || off >= r.length) {
      throw r.fail('OUT_OF_RANGE', {
        at,
        path: `eventBoxes.${where}.offset`,
        expected: `0x${tableEnd.toString(16)}..0x${(r.length - 1).toString(16)} (after the offset table, inside the file)`,
        actual: `0x${off.toString(16)}`,
      });
    }
    records += counts[t]!;
    if (records > ctx.limits.maxRecords)
      throw r.fail('LIMIT_EXCEEDED', { at, path: `eventBoxes.${where}.count`, expected: `≤ ${ctx.limits.maxRecords} boxes per file`, actual: records });
    groups.push(t);
  }
  const order = [...groups].sort((a, b) => offsets[a]! - offsets[b]! || a - b);
  for (let k = 1; k < order.length; k++) {
    if (offsets[order[k]!] === offsets[order[k - 1]!]) {
      throw r.fail('CORRUPT', {
        at: entriesAt + 8 * order[k]!,
        path: `eventBoxes.types[${order[k]}].offset`,
        detail: `types ${order[k - 1]} and ${order[k]} both start at 0x${offsets[order[k]!]!.toString(16)}`,
      });
    }
  }
  const tables: WdataBoxTable[] = [];
  for (let t = 0; t < typeCount; t++) {
    tables.push(t === CAMERA ? emptyCameraTable(ev) : emptyTable(`event:${typeName(t)}`, fieldsAt(EVENT_BOX_FIELDS[t] ?? [], ev)));
  }
  let prevEnd = tableEnd;
  let laidOut = true;
  for (const t of order) {
    const off = offsets[t]!;
    if (off < prevEnd)
      throw r.fail('CORRUPT', {
        at: entriesAt + 8 * t,
        path: `eventBoxes.types[${t}].offset`,
        detail: `group starts at 0x${off.toString(16)}, inside the previous group (ends 0x${prevEnd.toString(16)})`,
      });
    if (off !== prevEnd) laidOut = false;
    r.seek(off);
    const name = typeName(t);
    tables[t] = r.within(name, () =>
      t === CAMERA ? readCameras(r, counts[t]!, ev, main, ctx) : readTable(r, `event:${name}`, fieldsAt(EVENT_BOX_FIELDS[t]!, ev), counts[t]!, ctx),
    );
    const head = new Uint8Array(8);
    new DataView(head.buffer).setUint32(0, t, true);
    new DataView(head.buffer).setUint32(4, counts[t]!, true);
    digest.push(head, r.bytes.subarray(off, r.pos));
    prevEnd = r.pos;
  }
  if (!laidOut)
    ctx.warnings.warn('EVENTBOX_LAYOUT', 'EventBox groups do not follow the offset table back to back; the encoder writes them so', tableEnd, 'eventBoxes');
  r.pos = prevEnd;
  return { boxes: { typeCount, offsets, order, tables }, counts };
}

function readTriggers(r: ByteReader, v: number, ctx: Ctx): WdataTriggers {
  const reserved0 = r.i32();
  const scriptDir = readWString(r, 'scriptDir');
  const reserved1 = r.i32();
  const mainScript = readWString(r, 'mainScript');
  const max = ctx.limits.maxRecords;
  const list = (n: number, what: string) => {
    r.count(n, max, 2, what);
    return Array.from({ length: n }, (_, i) => readWString(r, `${what}[${i}]`));
  };
  if (v >= 9) {
    const n = [r.u32(), r.u32(), r.u32()];
    return {
      reserved0,
      scriptDir,
      reserved1,
      mainScript,
      triggers: null,
      scripts: { events: list(n[0]!, 'events'), conditions: list(n[1]!, 'conditions'), actions: list(n[2]!, 'actions') },
    };
  }
  const count = r.count(r.u32(), max, 16, 'triggers');
  const triggers = Array.from({ length: count }, (_, i) =>
    r.within(`list[${i}]`, () => {
      const name = readWString(r, 'name');
      const comment = readWString(r, 'comment');
      const n = [r.u32(), r.u32(), r.u32()];
      return { name, comment, events: list(n[0]!, 'events'), conditions: list(n[1]!, 'conditions'), actions: list(n[2]!, 'actions') };
    }),
  );
  return { reserved0, scriptDir, reserved1, mainScript, triggers, scripts: null };
}

function readEntries(r: ByteReader, n: number, withCategory: boolean, what: string, ctx: Ctx): WdataEntry[] {
  r.count(n, ctx.limits.maxRecords, withCategory ? 6 : 2, what);
  return Array.from({ length: n }, (_, i) => ({ category: withCategory ? r.u32() : null, key: readWString(r, `${what}[${i}]`) }));
}

function readScenes(r: ByteReader, v: number, ctx: Ctx, f32: () => number): WdataScene[] {
  const count = r.count(r.u32(), ctx.limits.maxRecords, 14 + (v >= 15 ? 28 : 0) + (v >= 19 ? 32 : 0), 'scenes');
  const scenes: WdataScene[] = [];
  for (let i = 0; i < count; i++) {
    scenes.push(
      r.within(`[${i}]`, () => {
        const file = readWString(r, 'file');
        const fadeInPreview = f32(),
          fadeHoldPreview = f32(),
          fadeOutPreview = f32();
        const category = v >= 15 ? r.u32() : null;
        const fades = v >= 15 ? Array.from({ length: 6 }, f32) : null;
        const camera = v >= 19 ? Array.from({ length: 8 }, f32) : null;
        return { file, fadeInPreview, fadeHoldPreview, fadeOutPreview, category, fades, camera, extra: null };
      }),
    );
  }
  if (v < 20) return scenes;
  // Second pass (main version ≥ 20): names, counts, then the lists in a different order.
  r.count(count, ctx.limits.maxRecords, 40, 'scene details');
  for (let i = 0; i < count; i++) {
    scenes[i]!.extra = r.within(`[${i}].extra`, () => {
      const name = v >= 21 ? readWString(r, 'name') : null;
      r.need(40, 'scene list counts');
      const n = Array.from({ length: 10 }, () => r.u32());
      r.count(n[1]!, ctx.limits.maxRecords, 4, 'indices');
      const indices = new Uint32Array(n[1]!);
      for (let k = 0; k < indices.length; k++) indices[k] = r.u32();
      r.count(n[0]!, ctx.limits.maxRecords, 6, 'events');
      const events = Array.from({ length: n[0]! }, (_, k) => ({ category: r.u32(), key: readWString(r, `events[${k}]`) }));
      const lists = Array.from({ length: 8 }, (_, k) => readEntries(r, n[2 + k]!, v >= 22, `lists[${k}]`, ctx));
      return { name, indices, events, lists };
    });
  }
  return scenes;
}

function readSceneResources(r: ByteReader, v: number, ctx: Ctx, f32: () => number): WdataSceneResource[] {
  const max = ctx.limits.maxRecords;
  const minEach = 10 + (v >= 11 ? 4 : 0) + (v >= 12 ? 16 + (v >= 13 ? 4 : 0) + (v <= 14 ? 28 : 0) + (v <= 13 ? 4 : 0) : 0) + (v >= 17 ? 4 : 0);
  const count = r.count(r.u32(), max, minEach, 'sceneResources');
  return Array.from({ length: count }, (_, i) =>
    r.within(`[${i}]`, (): WdataSceneResource => {
      const key = readWString(r, 'key');
      const aliasCount = r.count(r.u32(), max, 2, 'aliases');
      const aliases = Array.from({ length: aliasCount }, (_, k) => readWString(r, `aliases[${k}]`));
      const pathCount = r.count(r.u32(), max, 8 + (v >= 10 ? 8 : 0), 'paths');
      const delay = pathCount > 0 ? f32() : null;
      const paths = Array.from({ length: pathCount }, (_, k) =>
        r.within(`paths[${k}]`, () => {
          const model = readWString(r, 'model'),
            motion = readWString(r, 'motion'),
            name = readWString(r, 'name'),
            eventName = readWString(r, 'eventName');
          const time = v >= 10 ? r.u32() : null;
          const hold = v >= 10 ? r.u32() : null;
          const blendTime = k < pathCount - 1 ? f32() : null;
          return { model, motion, name, eventName, time, hold, blendTime };
        }),
      );
      const cues =
        v >= 11
          ? Array.from({ length: r.count(r.u32(), max, 14, 'cues') }, (_, k) => ({
              delay: f32(),
              name: readWString(r, `cues[${k}].name`),
              id: r.u32(),
              start: f32(),
            }))
          : null;
      let sounds: WdataSceneResource['sounds'] = null;
      if (v >= 12) {
        const n = r.count(r.u32(), max, 6 + (v >= 16 ? 16 : 0), 'sounds');
        const list = Array.from({ length: n }, (_, k) => {
          const start = f32();
          const fade = v >= 16 ? [f32(), f32(), f32(), f32()] : null;
          return {
            start,
            fadeIn: fade?.[0] ?? null,
            fadeOut: fade?.[1] ?? null,
            volMax: fade?.[2] ?? null,
            volMin: fade?.[3] ?? null,
            path: readWString(r, `sounds[${k}].path`),
          };
        });
        const unk1 = v >= 13 ? r.u32() : null;
        const unk2 = r.u32(),
          unk3 = f32(),
          unk4 = r.u32();
        let legacyInts: Int32Array | null = null;
        if (v <= 14) {
          r.need(28, 'legacy words');
          legacyInts = Int32Array.from({ length: 7 }, () => r.i32());
        }
        const legacyStrings: WString[] | null = v <= 13 ? [readWString(r, 'legacy[0]'), readWString(r, 'legacy[1]')] : null;
        sounds = { sounds: list, unk1, unk2, unk3, unk4, legacyInts, legacyStrings };
      }
      const ambients =
        v >= 17
          ? Array.from({ length: r.count(r.u32(), max, 14, 'ambients') }, (_, k) => ({
              start: f32(),
              path: readWString(r, `ambients[${k}].path`),
              playOnStart: r.i32(),
              loop: r.i32(),
            }))
          : null;
      return { key, aliases, delay, paths, cues, sounds, ambients };
    }),
  );
}
