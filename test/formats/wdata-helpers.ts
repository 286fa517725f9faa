// Shared by the .wdata suites: the generated fixtures, where the EventBox offset table sits, and a
// model normaliser for round-trip comparisons (strings as text + NUL flag, typed arrays by type).
import { buildWdata, WDATA_FIXTURES } from '../../fixtures/generators/wdata.js';
import type { WdataLevel, WString } from '../../src/formats/wdata/index.js';

export const CASES = Object.entries(WDATA_FIXTURES).map(([path, spec]) => ({ path, spec, ...buildWdata(spec) }));

/** Bytes of a stored string (count + units). */
const wsize = (s: WString | null) => (s ? 2 + s.raw.length : 0);

/** Absolute offset of the EventBox offset table's typeCount word (main version ≥ 7). */
export function eventTableAt(v: WdataLevel): number {
  let at = wsize(v.signature) + 4;
  for (const x of [v.eventBoxVersion, v.aniBGVersion, v.itemBoxVersion, v.gimmickVersion, v.reserved9, v.reserved16]) if (x !== null) at += 4;
  if (v.reserved18) at += 8;
  return at + wsize(v.modelPath) + wsize(v.navMeshPath) + wsize(v.navHeightPath) + wsize(v.eventBoxPath);
}

/** The model as comparable plain data: WString → {text, nul}; typed arrays → [type, values]. */
export function normal(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (ArrayBuffer.isView(v)) return [v.constructor.name, Array.from(v as unknown as ArrayLike<number>)];
  if (Array.isArray(v)) return v.map(normal);
  const o = v as Record<string, unknown>;
  if (o.encoding === 'utf-16le' && typeof o.text === 'string') return { text: o.text, nul: o.nul };
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) if (k !== 'counts' && k !== 'contentDigest' && k !== 'warnings') out[k] = normal(x);
  return out;
}

export const u32At = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
export const setU32 = (b: Uint8Array, at: number, v: number) => new DataView(b.buffer, b.byteOffset).setUint32(at, v >>> 0, true);
