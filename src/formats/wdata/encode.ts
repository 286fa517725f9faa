// Rusty Hearts .wdata encoder: the inverse of decode.ts, every version branch. Writes into a
// private buffer and hands it out only when the whole model was written, so an EncodeError leaves
// the caller with nothing: round-trip or refuse. See README.md § Writing.

import { encodeError } from '../../core/errors.js';
import { ByteWriter } from '../../core/reader.js';
import { snapshot } from '../../core/snapshot.js';
import { checkTable, writeTable } from './boxes.js';
import { writeCameras, writeCategory } from './camera.js';
import { ANIBG_FIELDS, CAMERA, EVENT_BOX_FIELDS, fieldsAt, GIMMICK_FIELDS, ITEMBOX_FIELDS, typeName, UNUSED } from './layout.js';

const KINDS = { aniBGs: 'aniBG', itemBoxes: 'itemBox', gimmicks: 'gimmick' } as const;

import { MAX_EVENTBOX_VERSION, MAX_MAIN_VERSION, SIGNATURE } from './decode.js';
import type { WdataEncodeOptions, WdataEntry, WdataLevel, WString } from './types.js';
import { writeWString } from './wstring.js';

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

const fail = (code: 'OUT_OF_RANGE' | 'BAD_VALUE' | 'BAD_LENGTH', path: string, expected: string, actual?: unknown) =>
  encodeError('wdata', code, { path, expected, actual: actual === undefined ? undefined : describe(actual) });
const describe = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? String(v) : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/**
 * Writes `level` as a .wdata file. EncodeError (code, path) when a value cannot be stored so that
 * it reads back the same: a field present or missing against its version gate, an integer out of
 * its range, a column of the wrong type or length, unencodable text, a `sections: 'summary'` value.
 */
export function encode(model: WdataLevel, opts: WdataEncodeOptions = {}): Uint8Array {
  // One read of the caller's level: what is validated is what is written (core/snapshot.ts).
  const level = snapshot(model);
  if (level === null || typeof level !== 'object' || level.format !== 'wdata')
    throw fail('BAD_VALUE', 'format', "'wdata'", (level as { format?: unknown } | null)?.format);
  if (level.summaryOnly) throw fail('BAD_VALUE', 'summaryOnly', "a full decode (sections: 'all')", true);
  const nul = opts.nul;
  const w = new ByteWriter(1 << 16);
  const v = level.mainVersion;
  if (!Number.isInteger(v) || v < 1 || v > MAX_MAIN_VERSION) throw fail('OUT_OF_RANGE', 'mainVersion', `1..${MAX_MAIN_VERSION}`, v);
  const int = (x: unknown, path: string): number => {
    if (!Number.isInteger(x) || (x as number) < -0x80000000 || (x as number) > 0x7fffffff) throw fail('OUT_OF_RANGE', path, 'int32', x);
    return x as number;
  };
  const uint = (x: unknown, path: string): number => {
    if (!Number.isInteger(x) || (x as number) < 0 || (x as number) > 0xffffffff) throw fail('OUT_OF_RANGE', path, 'uint32', x);
    return x as number;
  };
  const float = (x: unknown, path: string) => {
    if (typeof x !== 'number') throw fail('BAD_VALUE', path, 'a number', x);
    F32[0] = x;
    if (!Object.is(F32[0], x) && !Number.isNaN(x)) throw fail('OUT_OF_RANGE', path, 'a float32 value (it would read back rounded)', x);
    w.u32(U32[0]!);
  };
  /** `x` must be null exactly when `present` is false. */
  const gated = <T>(x: T | null | undefined, present: boolean, path: string, gate: string): x is T => {
    if (present && (x === null || x === undefined)) throw fail('BAD_VALUE', path, `a value (${gate})`, x);
    if (!present && x !== null) throw fail('BAD_VALUE', path, `null (only ${gate})`, x);
    return present;
  };
  const str = (s: WString, path: string) => writeWString(w, s, path, nul);
  /** `a` as an array whose every element is an object (`objects`) or anything. */
  const list = <T>(a: T[] | null | undefined, path: string, objects = false): T[] => {
    if (!Array.isArray(a)) throw fail('BAD_VALUE', path, 'an array', a);
    if (objects)
      a.forEach((x, i) => {
        if (x === null || typeof x !== 'object') throw fail('BAD_VALUE', `${path}[${i}]`, 'an object', x);
      });
    return a;
  };
  const record = <T>(x: T | null | undefined, path: string): T => {
    if (x === null || typeof x !== 'object') throw fail('BAD_VALUE', path, 'an object', x);
    return x;
  };

  // Header: the signature is kept as stored (with or without its counted NUL).
  if (level.signature?.text !== SIGNATURE) throw fail('BAD_VALUE', 'signature.text', JSON.stringify(SIGNATURE), level.signature?.text);
  str(level.signature, 'signature');
  w.i32(v);
  if (gated(level.eventBoxVersion, v >= 7, 'eventBoxVersion', 'from main version 7')) {
    if (!Number.isInteger(level.eventBoxVersion) || level.eventBoxVersion < 1 || level.eventBoxVersion > MAX_EVENTBOX_VERSION)
      throw fail('OUT_OF_RANGE', 'eventBoxVersion', `1..${MAX_EVENTBOX_VERSION}`, level.eventBoxVersion);
    w.i32(level.eventBoxVersion);
  }
  if (gated(level.aniBGVersion, v >= 7, 'aniBGVersion', 'from main version 7')) w.i32(int(level.aniBGVersion, 'aniBGVersion'));
  if (gated(level.itemBoxVersion, v >= 7, 'itemBoxVersion', 'from main version 7')) w.i32(int(level.itemBoxVersion, 'itemBoxVersion'));
  if (gated(level.gimmickVersion, v >= 8, 'gimmickVersion', 'from main version 8')) w.i32(int(level.gimmickVersion, 'gimmickVersion'));
  if (gated(level.reserved9, v >= 9, 'reserved9', 'from main version 9')) w.i32(int(level.reserved9, 'reserved9'));
  if (gated(level.reserved16, v >= 16, 'reserved16', 'from main version 16')) w.i32(int(level.reserved16, 'reserved16'));
  if (gated(level.reserved18, v >= 18, 'reserved18', 'from main version 18')) {
    if (!Array.isArray(level.reserved18) || level.reserved18.length !== 2) throw fail('BAD_LENGTH', 'reserved18', '2 numbers', level.reserved18);
    w.i32(int(level.reserved18[0], 'reserved18[0]')).i32(int(level.reserved18[1], 'reserved18[1]'));
  }
  str(level.modelPath, 'modelPath');
  str(level.navMeshPath, 'navMeshPath');
  if (gated(level.navHeightPath, v >= 2, 'navHeightPath', 'from main version 2')) str(level.navHeightPath, 'navHeightPath');
  str(level.eventBoxPath, 'eventBoxPath');

  // EventBoxes: the offset table, then the non-empty groups in `order`, offsets patched after.
  const eb = level.eventBoxes;
  if (gated(eb, v >= 7, 'eventBoxes', 'from main version 7')) {
    const ev = level.eventBoxVersion!;
    const n = eb.typeCount;
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw fail('OUT_OF_RANGE', 'eventBoxes.typeCount', 'uint32', n);
    if (!(eb.offsets instanceof Uint32Array) || eb.offsets.length !== n) throw fail('BAD_LENGTH', 'eventBoxes.offsets', `Uint32Array(${n})`);
    if (!Array.isArray(eb.tables) || eb.tables.length !== n) throw fail('BAD_LENGTH', 'eventBoxes.tables', `${n} tables`, eb.tables?.length);
    const nonEmpty = eb.tables.flatMap((t, i) => (t?.count > 0 ? [i] : []));
    const order = list(eb.order, 'eventBoxes.order');
    if (order.length !== nonEmpty.length || [...order].sort((a, b) => a - b).some((t, k) => t !== nonEmpty[k])) {
      throw fail('BAD_VALUE', 'eventBoxes.order', `the non-empty types [${nonEmpty}] each once, in the order to write them`, `[${order}]`);
    }
    for (const t of nonEmpty) {
      if (t === UNUSED || t >= EVENT_BOX_FIELDS.length)
        throw fail('BAD_VALUE', `eventBoxes.tables[${t}].count`, '0 (no reader knows this type)', eb.tables[t]!.count);
    }
    eb.tables.forEach((t, i) => {
      const kind = `event:${typeName(i)}`;
      if (i !== CAMERA && i < EVENT_BOX_FIELDS.length) checkTable(t, fieldsAt(EVENT_BOX_FIELDS[i]!, ev), `eventBoxes.tables[${i}]`, kind);
      else if (i === CAMERA) checkTable(t, [], `eventBoxes.tables[0]`, kind);
      else if (t?.count !== 0 || t.kind !== kind) throw fail('BAD_VALUE', `eventBoxes.tables[${i}]`, `an empty ${kind} table`, t?.count);
    });
    w.u32(n);
    const tableAt = w.pos;
    for (let t = 0; t < n; t++) w.u32(eb.offsets[t]!).u32(eb.tables[t]!.count);
    for (const t of order) {
      w.patchU32(tableAt + 8 * t, w.pos);
      const path = `eventBoxes.tables[${t}]`;
      if (t === CAMERA) writeCameras(w, eb.tables[t]!, ev, v, path, nul);
      else writeTable(w, eb.tables[t]!, fieldsAt(EVENT_BOX_FIELDS[t]!, ev), path, nul);
    }
  }
  const section = (name: 'aniBGs' | 'itemBoxes' | 'gimmicks', fields: typeof ANIBG_FIELDS) => {
    checkTable(level[name], fields, name, KINDS[name]);
    w.u32(level[name].count);
    writeTable(w, level[name], fields, name, nul);
  };
  section('aniBGs', fieldsAt(ANIBG_FIELDS, level.aniBGVersion ?? 0));
  section('itemBoxes', fieldsAt(ITEMBOX_FIELDS, level.itemBoxVersion ?? 0));
  section('gimmicks', GIMMICK_FIELDS);
  if (gated(level.obstaclePath, v >= 2, 'obstaclePath', 'from main version 2')) str(level.obstaclePath, 'obstaclePath');
  str(level.mocPath, 'mocPath');
  str(level.aniBGPath, 'aniBGPath');

  // Triggers: the script list from main version 9, the trigger list below it.
  const tr = record(level.triggers, 'triggers');
  w.i32(int(tr.reserved0, 'triggers.reserved0'));
  str(tr.scriptDir, 'triggers.scriptDir');
  w.i32(int(tr.reserved1, 'triggers.reserved1'));
  str(tr.mainScript, 'triggers.mainScript');
  const strings = (a: WString[], path: string) => list(a, path).forEach((s, i) => str(s, `${path}[${i}]`));
  if (gated(tr.scripts, v >= 9, 'triggers.scripts', 'from main version 9')) {
    const s = record(tr.scripts, 'triggers.scripts');
    const lists = [list(s.events, 'triggers.scripts.events'), list(s.conditions, 'triggers.scripts.conditions'), list(s.actions, 'triggers.scripts.actions')];
    for (const l of lists) w.u32(l.length);
    ['events', 'conditions', 'actions'].forEach((k, i) => strings(lists[i]!, `triggers.scripts.${k}`));
  }
  if (gated(tr.triggers, v < 9, 'triggers.triggers', 'below main version 9')) {
    w.u32(list(tr.triggers, 'triggers.triggers', true).length);
    tr.triggers.forEach((t, i) => {
      const p = `triggers.triggers[${i}]`;
      str(t.name, `${p}.name`);
      str(t.comment, `${p}.comment`);
      const lists = [list(t.events, `${p}.events`), list(t.conditions, `${p}.conditions`), list(t.actions, `${p}.actions`)];
      for (const l of lists) w.u32(l.length);
      ['events', 'conditions', 'actions'].forEach((k, j) => strings(lists[j]!, `${p}.${k}`));
    });
  }

  // Scenes: first pass, then (main version ≥ 20) the second.
  const scenes = list(level.scenes, 'scenes', true);
  w.u32(scenes.length);
  scenes.forEach((s, i) => {
    const p = `scenes[${i}]`;
    str(s.file, `${p}.file`);
    float(s.fadeInPreview, `${p}.fadeInPreview`);
    float(s.fadeHoldPreview, `${p}.fadeHoldPreview`);
    float(s.fadeOutPreview, `${p}.fadeOutPreview`);
    if (gated(s.category, v >= 15, `${p}.category`, 'from main version 15')) w.u32(uint(s.category, `${p}.category`));
    if (gated(s.fades, v >= 15, `${p}.fades`, 'from main version 15')) floats(s.fades, 6, `${p}.fades`);
    if (gated(s.camera, v >= 19, `${p}.camera`, 'from main version 19')) floats(s.camera, 8, `${p}.camera`);
  });
  function floats(a: number[], n: number, path: string) {
    if (!Array.isArray(a) || a.length !== n) throw fail('BAD_LENGTH', path, `${n} numbers`, a?.length);
    a.forEach((x, k) => float(x, `${path}[${k}]`));
  }
  const entries = (a: WdataEntry[], withCategory: boolean, path: string) =>
    list(a, path, true).forEach((e, k) => writeCategory(w, e.category, e.key, `${path}[${k}]`, withCategory, nul));
  scenes.forEach((s, i) => {
    const p = `scenes[${i}].extra`;
    if (!gated(s.extra, v >= 20, p, 'from main version 20')) return;
    const x = record(s.extra, p);
    if (gated(x.name, v >= 21, `${p}.name`, 'from main version 21')) str(x.name, `${p}.name`);
    if (!(x.indices instanceof Uint32Array)) throw fail('BAD_VALUE', `${p}.indices`, 'Uint32Array', x.indices);
    const lists = list(x.lists, `${p}.lists`);
    if (lists.length !== 8) throw fail('BAD_LENGTH', `${p}.lists`, '8 lists', lists.length);
    w.u32(list(x.events, `${p}.events`, true).length).u32(x.indices.length);
    for (const l of lists) w.u32(list(l, `${p}.lists`).length);
    for (const idx of x.indices) w.u32(idx);
    x.events.forEach((e, k) => writeCategory(w, e.category, e.key, `${p}.events[${k}]`, true, nul));
    lists.forEach((l, k) => entries(l, v >= 22, `${p}.lists[${k}]`));
  });

  // SceneResources.
  const res = list(level.sceneResources, 'sceneResources', true);
  w.u32(res.length);
  res.forEach((sr, i) => {
    const p = `sceneResources[${i}]`;
    str(sr.key, `${p}.key`);
    w.u32(list(sr.aliases, `${p}.aliases`).length);
    strings(sr.aliases, `${p}.aliases`);
    const paths = list(sr.paths, `${p}.paths`, true);
    w.u32(paths.length);
    if (gated(sr.delay, paths.length > 0, `${p}.delay`, 'when there are paths')) float(sr.delay, `${p}.delay`);
    paths.forEach((q, k) => {
      const pp = `${p}.paths[${k}]`;
      str(q.model, `${pp}.model`);
      str(q.motion, `${pp}.motion`);
      str(q.name, `${pp}.name`);
      str(q.eventName, `${pp}.eventName`);
      if (gated(q.time, v >= 10, `${pp}.time`, 'from main version 10')) w.u32(uint(q.time, `${pp}.time`));
      if (gated(q.hold, v >= 10, `${pp}.hold`, 'from main version 10')) w.u32(uint(q.hold, `${pp}.hold`));
      if (gated(q.blendTime, k < paths.length - 1, `${pp}.blendTime`, 'between paths (not after the last)')) float(q.blendTime, `${pp}.blendTime`);
    });
    if (gated(sr.cues, v >= 11, `${p}.cues`, 'from main version 11')) {
      w.u32(list(sr.cues, `${p}.cues`, true).length);
      sr.cues.forEach((c, k) => {
        float(c.delay, `${p}.cues[${k}].delay`);
        str(c.name, `${p}.cues[${k}].name`);
        w.u32(uint(c.id, `${p}.cues[${k}].id`));
        float(c.start, `${p}.cues[${k}].start`);
      });
    }
    if (gated(sr.sounds, v >= 12, `${p}.sounds`, 'from main version 12')) {
      const sb = record(sr.sounds, `${p}.sounds`);
      w.u32(list(sb.sounds, `${p}.sounds.sounds`, true).length);
      sb.sounds.forEach((s, k) => {
        const sp = `${p}.sounds.sounds[${k}]`;
        float(s.start, `${sp}.start`);
        for (const key of ['fadeIn', 'fadeOut', 'volMax', 'volMin'] as const)
          if (gated(s[key], v >= 16, `${sp}.${key}`, 'from main version 16')) float(s[key], `${sp}.${key}`);
        str(s.path, `${sp}.path`);
      });
      if (gated(sb.unk1, v >= 13, `${p}.sounds.unk1`, 'from main version 13')) w.u32(uint(sb.unk1, `${p}.sounds.unk1`));
      w.u32(uint(sb.unk2, `${p}.sounds.unk2`));
      float(sb.unk3, `${p}.sounds.unk3`);
      w.u32(uint(sb.unk4, `${p}.sounds.unk4`));
      if (gated(sb.legacyInts, v <= 14, `${p}.sounds.legacyInts`, 'up to main version 14')) {
        if (!(sb.legacyInts instanceof Int32Array) || sb.legacyInts.length !== 7) throw fail('BAD_LENGTH', `${p}.sounds.legacyInts`, 'Int32Array(7)');
        for (const x of sb.legacyInts) w.i32(x);
      }
      if (gated(sb.legacyStrings, v <= 13, `${p}.sounds.legacyStrings`, 'up to main version 13')) {
        if (!Array.isArray(sb.legacyStrings) || sb.legacyStrings.length !== 2) throw fail('BAD_LENGTH', `${p}.sounds.legacyStrings`, '2 strings');
        strings(sb.legacyStrings, `${p}.sounds.legacyStrings`);
      }
    }
    if (gated(sr.ambients, v >= 17, `${p}.ambients`, 'from main version 17')) {
      w.u32(list(sr.ambients, `${p}.ambients`, true).length);
      sr.ambients.forEach((a, k) => {
        float(a.start, `${p}.ambients[${k}].start`);
        str(a.path, `${p}.ambients[${k}].path`);
        w.i32(int(a.playOnStart, `${p}.ambients[${k}].playOnStart`));
        w.i32(int(a.loop, `${p}.ambients[${k}].loop`));
      });
    }
  });
  if (!(level.trailing instanceof Uint8Array)) throw fail('BAD_VALUE', 'trailing', 'Uint8Array', level.trailing);
  w.bytes(level.trailing);
  return w.finish();
}
