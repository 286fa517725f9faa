// One copy of a model for an encoder to validate and write, so both see the same values. An
// encoder reads each field several times (validation, layout, writing); a getter that answered
// differently each time made files that do not match what was checked (a WWD startX written as 0,
// a Teeworlds layer written 900 wide from a 63-cell column). Every encoder starts with snapshot().

import { hasPending, readUncached } from './lazy.js';

/**
 * A deep copy of `value` in which every property of the caller's objects was read exactly once:
 * plain objects and class instances (own properties, enumerable or not, and accessors on their
 * prototypes, each read once and kept as a data property of the same enumerability on an object
 * of the same prototype), arrays, Dates, Maps and Sets. Shared and cyclic references stay shared
 * in the copy. A lazy field (`layers: 'lazy'`) is computed for the copy but stays lazy in the
 * caller's value. Functions and symbol-keyed properties are kept by reference or left out.
 *
 * Typed arrays and DataViews become fresh views of the same memory, made through the built-in
 * getters (so a subclass or an own `length` the caller defined is not consulted again), not
 * copies: once the snapshot is taken no caller code runs until the encoder returns, so nothing
 * can change the bytes between validation and writing, and a 150 MB map is not copied for it.
 * Views of a SharedArrayBuffer, which another thread can write at any time, are copied.
 * Never mutates `value`; an exception a getter throws propagates.
 */
export function snapshot<T>(value: T): T {
  return copy(value, new Map()) as T;
}

function copy(v: unknown, seen: Map<object, unknown>): unknown {
  if (v === null || typeof v !== 'object') return v;
  const known = seen.get(v);
  if (known !== undefined) return known;
  let out: unknown;
  if (ArrayBuffer.isView(v)) out = freshView(v);
  else if (v instanceof ArrayBuffer) out = v;
  else if (v instanceof Date) out = new Date(DATE_TIME.call(v));
  else if (Array.isArray(v)) return copyArray(v, seen);
  else if (v instanceof Map) {
    const m = new Map();
    seen.set(v, m);
    for (const [k, x] of v) m.set(copy(k, seen), copy(x, seen));
    return m;
  } else if (v instanceof Set) {
    const s = new Set();
    seen.set(v, s);
    for (const x of v) s.add(copy(x, seen));
    return s;
  } else return copyObject(v, seen);
  seen.set(v, out);
  return out;
}

// The built-in getters, taken once when the module loads: they read a view's internal slots,
// which no subclass, own property or later change to a global can redirect.
const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array.prototype) as object;
const slotGetter = (proto: object, key: PropertyKey) => Object.getOwnPropertyDescriptor(proto, key)!.get! as (this: unknown) => unknown;
const TA_TAG = slotGetter(TYPED_ARRAY, Symbol.toStringTag);
const TA_BUFFER = slotGetter(TYPED_ARRAY, 'buffer');
const TA_OFFSET = slotGetter(TYPED_ARRAY, 'byteOffset');
const TA_LENGTH = slotGetter(TYPED_ARRAY, 'length');
const DV_BUFFER = slotGetter(DataView.prototype, 'buffer');
const DV_OFFSET = slotGetter(DataView.prototype, 'byteOffset');
const DV_LENGTH = slotGetter(DataView.prototype, 'byteLength');
const DATE_TIME = Date.prototype.getTime;
type ViewConstructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => ArrayBufferView;
const VIEW_TYPES = new Map<unknown, ViewConstructor>(
  (
    [
      Int8Array,
      Uint8Array,
      Uint8ClampedArray,
      Int16Array,
      Uint16Array,
      Int32Array,
      Uint32Array,
      Float32Array,
      Float64Array,
      BigInt64Array,
      BigUint64Array,
    ] as ViewConstructor[]
  ).map((c) => [c.name, c]),
);
const float16 = (globalThis as { Float16Array?: ViewConstructor }).Float16Array;
if (float16) VIEW_TYPES.set('Float16Array', float16);

function freshView(v: ArrayBufferView): ArrayBufferView {
  const tag = TA_TAG.call(v);
  const typed = tag === undefined ? undefined : VIEW_TYPES.get(tag);
  const buffer = (typed ? TA_BUFFER : DV_BUFFER).call(v) as ArrayBufferLike;
  const offset = (typed ? TA_OFFSET : DV_OFFSET).call(v) as number;
  const length = (typed ? TA_LENGTH : DV_LENGTH).call(v) as number;
  const view = typed ? new typed(buffer, offset, length) : new DataView(buffer, offset, length);
  if (typeof SharedArrayBuffer === 'undefined' || !(buffer instanceof SharedArrayBuffer)) return view;
  const size = typed ? length * (view as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : length;
  const own = new ArrayBuffer(size);
  new Uint8Array(own).set(new Uint8Array(buffer, offset, size));
  return typed ? new typed(own, 0, length) : new DataView(own);
}

function copyArray(list: unknown[], seen: Map<object, unknown>): unknown[] {
  const length = list.length;
  const out = new Array<unknown>(length);
  seen.set(list, out);
  for (let i = 0; i < length; i++) out[i] = copy(list[i], seen);
  return out;
}

function copyObject(obj: object, seen: Map<object, unknown>): object {
  const proto = Object.getPrototypeOf(obj) as object | null;
  if (proto === Object.prototype || proto === null) {
    const plain = copyPlain(obj as Record<string, unknown>, proto, seen);
    if (plain) return plain;
  }
  const out = Object.create(proto) as Record<string, unknown>;
  seen.set(obj, out);
  const record = obj as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, key);
    if (!d) continue;
    // A data property's value came with its descriptor; an accessor is called once here.
    const v = 'value' in d ? d.value : readUncached(record, key);
    define(out, key, copy(v, seen), d.enumerable ?? false);
  }
  // A class instance's getters live on its prototype: read them once too, and keep the values
  // as own properties so the encoder never calls the getter again. Object.prototype's own
  // accessor (`__proto__`) is not a field.
  for (let p = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const key of Object.getOwnPropertyNames(p)) {
      if (key === 'constructor' || Object.hasOwn(out, key)) continue;
      const d = Object.getOwnPropertyDescriptor(p, key);
      if (d?.get) define(out, key, copy(d.get.call(obj), seen), false);
    }
  }
  return out;
}

/**
 * The common case, several times faster than going by descriptors: an object of Object.prototype
 * or none whose own properties are all enumerable (what decoders make). Each is read once (an
 * accessor too, through its getter); undefined when the object has non-enumerable properties.
 */
function copyPlain(obj: Record<string, unknown>, proto: object | null, seen: Map<object, unknown>): object | undefined {
  const keys = Object.keys(obj);
  if (Object.getOwnPropertyNames(obj).length !== keys.length) return undefined;
  const out = (proto === null ? Object.create(null) : {}) as Record<string, unknown>;
  seen.set(obj, out);
  const lazy = hasPending(obj);
  for (const key of keys) {
    const v = copy(lazy ? readUncached(obj, key) : obj[key], seen);
    if (key === '__proto__') define(out, key, v, true);
    else out[key] = v;
  }
  return out;
}

// defineProperty, not assignment: a key such as `__proto__` must stay an ordinary field.
function define(out: object, key: string, value: unknown, enumerable: boolean): void {
  Object.defineProperty(out, key, { value, writable: true, enumerable, configurable: true });
}
