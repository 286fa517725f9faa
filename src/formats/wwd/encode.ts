// WWD encoder: lays the main block out as WapWorld does (layout.ts), optionally zlib-compresses
// it, and writes a fresh checksum (WapWorld's base value G). Uncompressed files decoded with a
// canonical layout come back byte for byte. See README.md § Encoding.

import { ByteWriter } from '../../core/reader.js';
import { deflateZlib } from '../../core/inflate.js';
import { LITTLE_ENDIAN_HOST } from '../../core/host.js';
import { chooseKernels } from '../../kernels/select.js';
import { FLAG_COMPRESSED, HEADER_BYTES, writeHeader, writePlaneHeader, type RawHeader } from './header.js';
import { objectsByteLength, writeObjects } from './objects.js';
import { recordByteLength, writeTileProperties } from './tile-properties.js';
import { canonicalLayout } from './layout.js';
import { wapworldChecksum } from './checksum.js';
import type { WwdEncodeOptions, WwdLevel } from './types.js';

/**
 * Writes `level` as a WWD file. Recomputed, whatever the level says: plane count, the offsets,
 * image-set and object counts, string lengths, the tile-property count, the compress flag (from
 * `opts.compress`), the inflated-size field and the checksum. Everything else is written as found.
 * Throws TypeError for a `sections: 'summary'` decode and for a plane whose `tiles` do not hold
 * `tilesWide × tilesHigh` cells (either would write a file that does not decode).
 */
export function encode(level: WwdLevel, opts: WwdEncodeOptions = {}): Uint8Array {
  checkEncodable(level);
  const compress = opts.compress ?? level.header.compressed;
  const sizes = level.planes.map((p) => ({
    gridBytes: p.tiles.length * 4,
    imageSetBytes: p.imageSetNames.reduce((n, s) => n + s.raw.length + 1, 0),
    objectCount: p.objects.count,
    objectBytes: objectsByteLength(p.objects),
  }));
  const layout = canonicalLayout(sizes);
  const tableBytes = 32 + level.tileProperties.reduce((n, p) => n + recordByteLength(p), 0);
  const blockBytes = layout.tilePropertiesOffset + tableBytes - HEADER_BYTES + level.tail.length;

  const w = new ByteWriter(blockBytes + 16);
  level.planes.forEach((p, i) => {
    const at = layout.planes[i]!;
    writePlaneHeader(w, { ...p, imageSetCount: p.imageSetNames.length, objectCount: p.objects.count, ...at });
  });
  for (const p of level.planes) writeGrid(w, p.tiles);
  for (const p of level.planes) for (const s of p.imageSetNames) w.bytes(s.raw).u8(0);
  for (const p of level.planes) writeObjects(w, p.objects);
  writeTileProperties(w, level.tilePropertiesHeader, level.tileProperties);
  w.bytes(level.tail);
  const block = w.finish();

  let stored = block;
  if (compress) {
    const stream = deflateZlib(block, opts.level ?? 9, opts.deflate ?? 'auto');
    const trailing = opts.trailing === false ? new Uint8Array(0) : level.container.trailing;
    stored = new Uint8Array(stream.length + trailing.length);
    stored.set(stream);
    stored.set(trailing, stream.length);
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
  writeHeader(out, header);
  out.bytes(stored);
  return out.finish();
}

/**
 * A summary decode keeps every plane's dimensions but only the main plane's cells, and no objects
 * or tile properties: written out, the grids would not fill their planes and the file would end
 * early (TRUNCATED on decode). The same goes for any plane whose cells disagree with its size.
 */
function checkEncodable(level: WwdLevel): void {
  if (level.sections === 'summary') {
    throw new TypeError("wwd.encode: this level was decoded with sections: 'summary', which leaves out non-main grids, objects and tile properties; decode with sections: 'all' to encode");
  }
  level.planes.forEach((p, i) => {
    const { tilesWide: w, tilesHigh: h } = p;
    if (!Number.isInteger(w) || !Number.isInteger(h) || w < 0 || h < 0 || p.tiles.length !== w * h) {
      throw new TypeError(`wwd.encode: planes[${i}].tiles has ${p.tiles.length} cells, not ${w}×${h}`);
    }
  });
}

function writeGrid(w: ByteWriter, tiles: Uint32Array): void {
  if (LITTLE_ENDIAN_HOST) w.bytes(new Uint8Array(tiles.buffer, tiles.byteOffset, tiles.byteLength));
  else for (let i = 0; i < tiles.length; i++) w.u32(tiles[i]!);
}
