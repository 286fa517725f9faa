// WWD encoder: lays the main block out as WapWorld does (layout.ts), optionally zlib-compresses
// it, and writes a fresh checksum (WapWorld's base value G). Uncompressed files decoded with a
// canonical layout come back byte for byte. See README.md § Layout, tail and round trips.

import { LITTLE_ENDIAN_HOST } from '../../core/host.js';
import { deflateZlib } from '../../core/inflate.js';
import { ByteWriter } from '../../core/reader.js';
import { snapshot } from '../../core/snapshot.js';
import { chooseKernels } from '../../kernels/select.js';
import { wapworldChecksum } from './checksum.js';
import { FLAG_COMPRESSED, HEADER_BYTES, type RawHeader, writeHeader, writePlaneHeader } from './header.js';
import { canonicalLayout } from './layout.js';
import { writeObjects } from './objects.js';
import { writeTileProperties } from './tile-properties.js';
import type { WwdEncodeOptions, WwdLevel } from './types.js';
import { prepare } from './validate.js';

/**
 * Writes `level` as a WWD file. Recomputed, whatever the level says: plane count, the offsets,
 * image-set and object counts, string lengths, the tile-property count, the compress flag (from
 * `opts.compress`), the inflated-size field and the checksum. Everything else is written as found.
 * The whole level is checked first (validate.ts): EncodeError OUT_OF_RANGE, BAD_LENGTH, BAD_VALUE,
 * UNENCODABLE_TEXT or LIMIT_EXCEEDED, with `path` into the level, before anything is written.
 * Bad options are TypeError/RangeError naming the option.
 */
export function encode(model: WwdLevel, opts: WwdEncodeOptions = {}): Uint8Array {
  // One read of the caller's level: what is validated is what is written (core/snapshot.ts).
  const level = snapshot(model);
  const plan = prepare(level, opts);
  const { compress } = plan;
  const layout = canonicalLayout(plan.planes);

  const w = new ByteWriter(plan.blockBytes + 16);
  level.planes.forEach((p, i) => {
    const at = layout.planes[i]!;
    const { imageSetNames, objectCount } = plan.planes[i]!;
    writePlaneHeader(w, { ...p, imageSetCount: imageSetNames.length, objectCount, ...at }, plan.planes[i]!.texts);
  });
  for (const p of plan.planes) writeGrid(w, p.tiles);
  for (const p of plan.planes) for (const name of p.imageSetNames) w.bytes(name).u8(0);
  for (const p of plan.planes) writeObjects(w, p.columns, p.strings, p.objectCount);
  writeTileProperties(w, plan.tileTableHeader, plan.tileProperties);
  w.bytes(plan.tail);
  const block = w.finish();

  let stored = block;
  if (compress) {
    const stream = deflateZlib(block, opts.level ?? 9, opts.deflate ?? 'auto');
    stored = new Uint8Array(stream.length + plan.trailing.length);
    stored.set(stream);
    stored.set(plan.trailing, stream.length);
  }
  // The same kernel choice as decode (formats reach kernels only through the interface); every
  // set gives the same sum, so the bytes do not depend on it.
  const kernels = chooseKernels(opts.backend ?? 'auto', opts.kernels);
  const checksum = wapworldChecksum(kernels.sumBytes(stored), stored.length, stored[0] ?? 0);
  const header: RawHeader = {
    ...level.header,
    flags: compress ? level.header.flags | FLAG_COMPRESSED : level.header.flags & ~FLAG_COMPRESSED,
    planeCount: level.planes.length,
    planesOffset: layout.planesOffset,
    tilePropertiesOffset: layout.tilePropertiesOffset,
    mainBlockSizeField: compress ? block.length : 0,
    checksum,
  };
  const out = new ByteWriter(HEADER_BYTES + stored.length);
  writeHeader(out, header, plan.headerTexts);
  out.bytes(stored);
  return out.finish();
}

/** The cells as little-endian u32: one copy of a Uint32Array on little-endian hosts. */
function writeGrid(w: ByteWriter, tiles: ArrayLike<number>): void {
  if (LITTLE_ENDIAN_HOST && tiles instanceof Uint32Array) w.bytes(new Uint8Array(tiles.buffer, tiles.byteOffset, tiles.byteLength));
  else for (let i = 0; i < tiles.length; i++) w.u32(tiles[i]!);
}
