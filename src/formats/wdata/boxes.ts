// Rusty Hearts .wdata box tables (EventBoxes, AniBG, ItemBox, Gimmick): records walked by the
// walkRecords kernel from the layouts in layout.ts into struct-of-arrays tables, and written back
// row by row. CameraBoxes nest lists of strings, so camera.ts reads those. See README.md § Boxes.

import type { DecodeContext } from '../../core/context.js';
import { encodeError } from '../../core/errors.js';
import { statusToErrorCode } from '../../core/kernel-status.js';
import type { ByteReader, ByteWriter } from '../../core/reader.js';
import { type FieldSpec, minRecordBytes, OBB_COLUMNS, programFor } from './layout.js';
import type { Column, WdataBoxTable, WString } from './types.js';
import { writeWString, wstringFromWalk } from './wstring.js';

/** An empty table of `kind` with the columns `fields` name. */
export function emptyTable(kind: string, fields: readonly FieldSpec[]): WdataBoxTable {
  const t = { kind, count: 0, name: [] as WString[], fields: {} as Record<string, Column> } as WdataBoxTable;
  for (const c of OBB_COLUMNS) t[c] = new Float32Array(0);
  for (const s of fields) if (s.kind !== 'count') t.fields[s.name] = emptyColumn(s);
  return t;
}

function emptyColumn(s: FieldSpec): Column {
  switch (s.kind) {
    case 'i32':
    case 'bool':
      return new Int32Array(0);
    case 'u32':
      return new Uint32Array(0);
    case 'f32':
      return new Float32Array(0);
    default:
      return [];
  }
}

/**
 * Reads `count` records of `fields` at the cursor into a table (or, with `ctx.summaryOnly`, only
 * walks them and returns an empty table). The count is checked against the bytes left and the
 * record limit before the kernel's columns are allocated.
 */
export function readTable(r: ByteReader, kind: string, fields: readonly FieldSpec[], count: number, ctx: DecodeContext): WdataBoxTable {
  r.count(count, ctx.limits.maxRecords, minRecordBytes(fields), `${kind} records`);
  const program = programFor(fields);
  const ops = program.length / 3;
  const columns = new Int32Array(ops * count);
  const start = r.pos;
  const end = ctx.kernels.walkRecords(r.bytes, start, count, program, columns);
  if (end < 0) throw r.fail(statusToErrorCode(end), { detail: `${count} ${kind} records do not fit` });
  if (ctx.summaryOnly) {
    r.pos = end;
    return emptyTable(kind, fields);
  }
  const col = (o: number) => columns.subarray(o * count, (o + 1) * count);
  const floats = (o: number) => new Float32Array(columns.buffer, o * count * 4, count).slice();
  const strings = (o: number, name: string): WString[] => Array.from(col(o), (at, i) => wstringFromWalk(r, at, () => `${kind}[${i}].${name}`));
  const t = { kind, count, name: strings(0, 'name'), fields: {} as Record<string, Column> } as WdataBoxTable;
  OBB_COLUMNS.forEach((c, k) => {
    t[c] = floats(1 + k);
  });
  const dv = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  fields.forEach((s, i) => {
    const o = 14 + i;
    switch (s.kind) {
      case 'i32':
      case 'bool':
        t.fields[s.name] = col(o).slice();
        break;
      case 'u32':
        t.fields[s.name] = new Uint32Array(col(o));
        break;
      case 'f32':
        t.fields[s.name] = floats(o);
        break;
      case 'wstr':
        t.fields[s.name] = strings(o, s.name);
        break;
      case 'count':
        break;
      default: {
        const n = col(14 + fields.findIndex((c) => c.name === s.count));
        const at = col(o);
        const make = s.kind === 'f32[]' ? (len: number) => new Float32Array(len) : (len: number) => new Int32Array(len);
        t.fields[s.name] = Array.from(at, (pos, k) => {
          const a = make(n[k]! >>> 0);
          const u = new Uint32Array(a.buffer);
          for (let e = 0; e < u.length; e++) u[e] = dv.getUint32(pos + 4 * e, true);
          return a;
        }) as Float32Array[] | Int32Array[];
      }
    }
  });
  r.pos = end;
  return t;
}

const isColumn = (c: unknown, ctor: abstract new (...args: never[]) => unknown, n: number) => c instanceof ctor && (c as { length: number }).length === n;

/** Checks `t` against `fields` (every column present, of its type, `count` long); EncodeError naming the column. */
export function checkTable(t: WdataBoxTable, fields: readonly FieldSpec[], path: string, kind: string): void {
  if (t === null || typeof t !== 'object') throw encodeError('wdata', 'BAD_VALUE', { path, expected: 'a box table' });
  // The kind is not stored: a table of another kind here would read back relabelled.
  if (t.kind !== kind) throw encodeError('wdata', 'BAD_VALUE', { path: `${path}.kind`, expected: kind, actual: String(t.kind) });
  const n = t.count;
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw encodeError('wdata', 'OUT_OF_RANGE', { path: `${path}.count`, actual: String(n) });
  if (!Array.isArray(t.name) || t.name.length !== n)
    throw encodeError('wdata', 'BAD_LENGTH', { path: `${path}.name`, expected: n, actual: Array.isArray(t.name) ? t.name.length : typeof t.name });
  for (const c of OBB_COLUMNS) {
    if (!isColumn(t[c], Float32Array, n)) throw encodeError('wdata', 'BAD_LENGTH', { path: `${path}.${c}`, expected: `Float32Array(${n})` });
  }
  if (t.fields === null || typeof t.fields !== 'object') throw encodeError('wdata', 'BAD_VALUE', { path: `${path}.fields`, expected: 'an object of columns' });
  const fs = t.fields;
  for (const s of fields) {
    if (s.kind === 'count') continue;
    const c = fs[s.name];
    const p = `${path}.fields.${s.name}`;
    const ctor = s.kind === 'u32' ? Uint32Array : s.kind === 'f32' ? Float32Array : s.kind === 'i32' || s.kind === 'bool' ? Int32Array : Array;
    if (!isColumn(c, ctor, n))
      throw encodeError('wdata', 'BAD_LENGTH', { path: p, expected: `${ctor.name}(${n})`, detail: 'missing, of another type, or not count long' });
    if (s.kind.endsWith('[]')) {
      const el = s.kind === 'f32[]' ? Float32Array : Int32Array;
      (c as unknown[]).forEach((a, i) => {
        if (!(a instanceof el)) throw encodeError('wdata', 'BAD_VALUE', { path: `${p}[${i}]`, expected: el.name });
      });
      // Arrays sharing one stored count must agree in length.
      const twin = fields.find((o) => o !== s && o.count === s.count && o.kind.endsWith('[]'));
      if (twin) {
        const other = fs[twin.name] as { length: number }[];
        (c as { length: number }[]).forEach((a, i) => {
          if (other[i]?.length !== a.length)
            throw encodeError('wdata', 'BAD_LENGTH', { path: `${p}[${i}]`, expected: `${twin.name}[${i}].length`, actual: a.length });
        });
      }
    }
  }
}

/** Writes the rows of `t` (checked with checkTable first). */
export function writeTable(w: ByteWriter, t: WdataBoxTable, fields: readonly FieldSpec[], path: string, nul?: boolean): void {
  const bits = (a: Float32Array | Int32Array | Uint32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
  const obb = OBB_COLUMNS.map((c) => bits(t[c]));
  const cols = fields.map((s) => {
    if (s.kind === 'count') {
      const arr = fields.find((o) => o.count === s.name)!;
      return (t.fields[arr.name] as { length: number }[]).map((a) => a.length);
    }
    const c = t.fields[s.name]!;
    return s.kind === 'wstr' || s.kind.endsWith('[]') ? c : bits(c as Float32Array);
  });
  for (let i = 0; i < t.count; i++) {
    writeWString(w, t.name[i]!, `${path}.name[${i}]`, nul);
    for (const c of obb) w.u32(c[i]!);
    fields.forEach((s, k) => {
      const c = cols[k]!;
      if (s.kind === 'wstr') writeWString(w, (c as WString[])[i]!, `${path}.fields.${s.name}[${i}]`, nul);
      else if (s.kind.endsWith('[]')) for (const v of bits((c as Float32Array[])[i]!)) w.u32(v);
      else w.u32((c as ArrayLike<number>)[i]!);
    });
  }
}
