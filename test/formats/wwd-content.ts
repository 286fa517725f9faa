// Shared by the WWD suites: a level without what encode() recomputes or what describes the stored
// bytes rather than the level (container: checksum, stream sizes, trailing bytes; warnings), a
// digest form for comparing large levels quickly, and the form a round trip must keep exactly.
import { createHash } from 'node:crypto';
import { type Text, textBytes } from '../../src/core/text.js';
import type { WwdLevel, WwdObjectTable } from '../../src/formats/wwd/index.js';
import { untilNul } from '../../src/formats/wwd/text.js';

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

/**
 * What a round trip cannot keep, in one place (src/formats/wwd/README.md § Round trips says the
 * same): fields the encoder recomputes from the rest of the level (counts, offsets, string
 * lengths, the tile-property count, the stored block's sizes and checksum) and facts the decoder
 * derives (warnings, game, grid stats). roundTripForm() leaves exactly these out.
 */
export const NOT_KEPT = {
  level: ['warnings', 'game'],
  container: ['mainBlockSizeField', 'storedLength', 'streamLength', 'checksum'],
  header: ['planeCount', 'planesOffset', 'tilePropertiesOffset'],
  plane: ['imageSetCount', 'objectCount', 'tilesOffset', 'imageSetsOffset', 'objectsOffset', 'stats'],
  objects: ['nameLength', 'logicLength', 'imageSetLength', 'animationLength'],
  /** Index of the record count among the tile-property header words. */
  tilePropertiesHeaderWord: 2,
} as const;

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
/** Numbers as text, the same whatever array type holds them; long ones (grids run to 10^5 cells) as a digest of their values. */
const nums = (a: ArrayLike<number>) => {
  if (a.length <= 4096) return Array.prototype.join.call(a, ',');
  const values = Float64Array.from(a);
  return `${values.length} ${createHash('sha1').update(new Uint8Array(values.buffer)).digest('hex')}`;
};
const isText = (v: unknown): v is Text => v !== null && typeof v === 'object' && 'text' in v && 'raw' in v && 'encoding' in v;
const omit = (o: object, keys: readonly string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/**
 * A text field as the file will hold it: `text`, `encoding` and the bytes the encoder stores
 * (textBytes: `raw` while the text is unchanged, else the text re-encoded). Fixed-size fields are
 * NUL-filled to their size when stored, so their trailing NULs are dropped here.
 */
function textForm(t: Text, fixed: boolean, visible?: (raw: Uint8Array) => Uint8Array): unknown {
  let stored = textBytes(t, visible ? { format: 'wwd', path: '', visible } : { format: 'wwd', path: '' });
  if (fixed) {
    let end = stored.length;
    while (end > 0 && stored[end - 1] === 0) end--;
    stored = stored.subarray(0, end);
  }
  return { text: t.text, encoding: t.encoding, raw: hex(stored) };
}

/** JSON with object keys sorted, so two levels built in different key orders compare equal. */
function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );
}

/**
 * `level` as a round trip must give it back: NOT_KEPT left out, text fields in their stored
 * form, number columns and grids as plain lists whatever array type holds them. Meant for a
 * level encode() accepted (it reads fields without checking them).
 */
export function roundTripForm(level: WwdLevel): string {
  const fixedTexts = (o: object) =>
    Object.fromEntries(
      Object.entries(o).map(([k, v]) => [
        k,
        isText(v) ? textForm(v, true, untilNul) : Array.isArray(v) ? v.map((t) => textForm(t as Text, true, untilNul)) : v,
      ]),
    );
  const objects = (t: WwdObjectTable) =>
    Object.fromEntries(
      Object.entries(omit(t, NOT_KEPT.objects)).map(([k, v]) => [
        k,
        Array.isArray(v) && v.length && isText(v[0])
          ? (v as Text[]).map((s) => textForm(s, false, untilNul))
          : typeof v === 'number'
            ? v
            : nums(v as ArrayLike<number>),
      ]),
    );
  return stableJson({
    ...omit(level, [...NOT_KEPT.level, 'header', 'planes', 'container', 'tilePropertiesHeader', 'tileProperties', 'tail']),
    header: fixedTexts(omit(level.header, NOT_KEPT.header)),
    planes: level.planes.map((p) => ({
      ...fixedTexts(omit(p, [...NOT_KEPT.plane, 'tiles', 'imageSetNames', 'objects'])),
      tiles: nums(p.tiles),
      imageSetNames: p.imageSetNames.map((t) => textForm(t, false)),
      objects: objects(p.objects),
    })),
    tilePropertiesHeader: nums(Array.from(level.tilePropertiesHeader).filter((_, i) => i !== NOT_KEPT.tilePropertiesHeaderWord)),
    tileProperties: level.tileProperties.map((t) => (t.type === 3 ? { ...t, mask: nums(t.mask) } : t)),
    tail: nums(level.tail),
    container: { ...omit(level.container, NOT_KEPT.container), trailing: nums(level.container.trailing) },
  });
}
