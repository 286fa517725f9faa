// What an image's pixels were inflated from. The index hashes every embedded image's RGBA pixels
// (images.pixels_sha256), gigabytes over an archive of maps that embed the same tilesets again and
// again; the stored (compressed) block is a tenth of that and determines the pixels, so its digest
// can stand as the key of a cache of pixel digests (archive-index/digest-cache.ts). Noted by the
// decoder, keyed by the pixels array itself: the note lives exactly as long as the pixels do
// (and holds a view of the input as long). An image whose pixels are left deflated (`layers:
// 'lazy'`) has the note keyed by the image instead, holding the lazy field's own copy of the block.

export interface PixelSource {
  /** The stored bytes the pixels were inflated from (a view). */
  stored: Uint8Array;
  /** Bytes per pixel in `pixels` (3 for 0.7's RGB images). */
  channels: number;
  /** What the file declares the block inflates to (a stream's outcome depends on it as well). */
  declared: number;
  /**
   * For pixels still deflated: `use` gets them (RGBA only), valid only while it runs and made
   * without an array where the WASM inflater holds them, so a digest of them allocates nothing.
   */
  withPixels?<T>(use: (pixels: Uint8Array) => T): T;
}

const sources = new WeakMap<object, PixelSource>();

/** `owner`: the pixels array, or the image whose `pixels` are still deflated. */
export function notePixelSource(owner: object, source: PixelSource): void {
  sources.set(owner, source);
}

export function pixelSourceOf(owner: object): PixelSource | undefined {
  return sources.get(owner);
}
