// Shared by the WWD suites: a level without what encode() recomputes or what describes the stored
// bytes rather than the level (container: checksum, stream sizes, trailing bytes; warnings), and
// a digest form for comparing large levels quickly.
import { createHash } from 'node:crypto';
import type { WwdLevel } from '../../src/formats/wwd/index.js';

export function wwdContent(level: WwdLevel): Omit<WwdLevel, 'container' | 'warnings'> {
  const { container: _c, warnings: _w, ...rest } = level;
  return rest;
}

/**
 * `value` with every typed array replaced by `<Type>(length) sha256`: vitest's toEqual walks
 * typed arrays element by element (minutes over the whole corpus); this keeps the comparison
 * exact (kind, length and bytes) and fast.
 */
export function digestArrays(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return `${value.constructor.name}(${bytes.length}) ${createHash('sha256').update(bytes).digest('hex')}`;
  }
  if (Array.isArray(value)) return value.map(digestArrays);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, digestArrays(v)]));
  return value;
}
