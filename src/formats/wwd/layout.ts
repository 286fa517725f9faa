// Where WapWorld, WapMap and this encoder put each section of the main block: plane headers,
// then every grid, every plane's image-set names, every plane's objects, the tile-property table.
// The decoder compares the stored offsets with this layout (a mismatch is a LAYOUT warning, since
// the encoder then cannot reproduce the file byte for byte); the encoder writes it.

import type { ByteReader } from '../../core/reader.js';
import { HEADER_BYTES, PLANE_HEADER_BYTES } from './header.js';

/** Sizes of one plane's sections, in bytes. */
export interface PlaneSizes {
  gridBytes: number;
  imageSetBytes: number;
  objectCount: number;
  objectBytes: number;
}

export interface Layout {
  planesOffset: number;
  planes: { tilesOffset: number; imageSetsOffset: number; objectsOffset: number }[];
  tilePropertiesOffset: number;
}

/** Absolute offsets of every section for planes of the given sizes. */
export function canonicalLayout(planes: PlaneSizes[]): Layout {
  let pos = HEADER_BYTES + planes.length * PLANE_HEADER_BYTES;
  const out = planes.map(() => ({ tilesOffset: 0, imageSetsOffset: 0, objectsOffset: 0 }));
  planes.forEach((p, i) => {
    out[i]!.tilesOffset = pos;
    pos += p.gridBytes;
  });
  planes.forEach((p, i) => {
    out[i]!.imageSetsOffset = pos;
    pos += p.imageSetBytes;
  });
  // Planes without objects store offset 0 (every known file does).
  planes.forEach((p, i) => {
    out[i]!.objectsOffset = p.objectCount ? pos : 0;
    pos += p.objectBytes;
  });
  return { planesOffset: HEADER_BYTES, planes: out, tilePropertiesOffset: pos };
}

/** The first stored offset that differs from `expected`, as "what: stored vs expected", or null. */
export function firstLayoutDifference(stored: Layout, expected: Layout): { what: string; stored: number; expected: number } | null {
  const check: [string, number, number][] = [['planesOffset', stored.planesOffset, expected.planesOffset]];
  stored.planes.forEach((p, i) => {
    const e = expected.planes[i]!;
    check.push(
      [`planes[${i}].tilesOffset`, p.tilesOffset, e.tilesOffset],
      [`planes[${i}].imageSetsOffset`, p.imageSetsOffset, e.imageSetsOffset],
      [`planes[${i}].objectsOffset`, p.objectsOffset, e.objectsOffset],
    );
  });
  check.push(['tilePropertiesOffset', stored.tilePropertiesOffset, expected.tilePropertiesOffset]);
  for (const [what, s, e] of check) if (s !== e) return { what, stored: s, expected: e };
  return null;
}

/**
 * The bytes of the main block the decoder has given to sections so far. No writer lets two
 * sections share bytes, so together they never take more than the block. Planes pointing at one
 * shared section would otherwise each decode their own copy of it: 1,000 planes sharing a 390 KB
 * grid were 381 MiB of tiles from a 550 KB file. Every section is claimed before it is copied, so
 * what a decode allocates stays proportional to the block.
 */
export class SectionBudget {
  private claimed = 0;

  /** @param blockBytes the (inflated) main block's length */
  constructor(private readonly blockBytes: number) {}

  /** Claims `bytes` more; OUT_OF_RANGE at `at` (a position in `r`) under `path` when the block is exceeded. */
  claim(r: ByteReader, bytes: number, at: number, path: string): void {
    this.claimed += bytes;
    if (this.claimed > this.blockBytes) {
      throw r.fail('OUT_OF_RANGE', {
        at,
        path,
        expected: `sections that share no bytes, ≤ ${this.blockBytes} bytes in all (the main block)`,
        actual: `${this.claimed} bytes claimed`,
      });
    }
  }
}
