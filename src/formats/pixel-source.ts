// What an image's pixels were inflated from. The index hashes every embedded image's RGBA pixels
// (images.pixels_sha256), gigabytes over an archive of maps that embed the same tilesets again and
// again; the stored (compressed) block is a tenth of that and determines the pixels, so its digest
// can stand as the key of a cache of pixel digests (archive-index/digest-cache.ts). Noted by the
// decoder, keyed by the pixels array itself: the note lives exactly as long as the pixels do
// (and holds a view of the input as long).

export interface PixelSource {
  /** The stored bytes the pixels were inflated from (a view). */
  stored: Uint8Array;
  /** Bytes per pixel in `pixels` (3 for 0.7's RGB images). */
  channels: number;
}

const sources = new WeakMap<Uint8Array, PixelSource>();

export function notePixelSource(pixels: Uint8Array, stored: Uint8Array, channels: number): void {
  sources.set(pixels, { stored, channels });
}

export function pixelSourceOf(pixels: Uint8Array): PixelSource | undefined {
  return sources.get(pixels);
}
