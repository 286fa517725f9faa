// The JSON that extract() writes for every format: plain data a person or another tool can
// read. Texts become their string (plus the raw bytes when they do not decode back to them),
// bigints decimal strings, short typed arrays number arrays and long ones base64 of their bytes.

/** Typed arrays up to this length are written as plain number arrays. */
const INLINE_MAX = 256;

/** `value` as indented JSON text, UTF-8 encoded, ending in a newline. */
export function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, jsonValue, 1)}\n`);
}

/** The replacer behind jsonBytes(). */
export function jsonValue(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (isText(v)) return v.text;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const a = v as unknown as ArrayLike<number> & ArrayBufferView;
    if (a.length <= INLINE_MAX) return Array.from(a);
    return { type: a.constructor.name, length: a.length, base64: base64(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) };
  }
  return v;
}

function isText(v: unknown): v is { text: string } {
  return typeof v === 'object' && v !== null && 'text' in v && 'raw' in v && 'encoding' in v && typeof v.text === 'string';
}

// btoa over chunks: works in browsers and Node alike (no Buffer in the library).
function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
