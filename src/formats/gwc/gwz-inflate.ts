// GWZ members' DEFLATE decompressor for fflate's Unzip, in place of its UnzipInflate: the member's
// compressed bytes are fed to the inflater in small slices, so its output arrives in bounded
// pieces and the caller's running count stops the member at the first piece over a limit. See
// README.md § GWZ.

import { Inflate } from 'fflate';

/**
 * Compressed bytes per step. DEFLATE expands at most ~1032:1, so one step yields at most ~16.5 MB
 * before the caller's limits see it. fflate's own UnzipInflate inflates whatever Unzip hands it at
 * once, and for a member with a data descriptor (general purpose bit 3: no sizes in the local
 * header) that is the whole member: a 1 MB zip of zeros took over 3 GB before any limit was checked.
 */
const SLICE_BYTES = 16 * 1024;

type OnData = (err: Error | null, data: Uint8Array, final: boolean) => void;

/**
 * fflate's UnzipDecoder contract (compression 8): `push(chunk, final)`, results through `ondata`.
 * A throw from `ondata` (the caller's DecodeError for a limit) propagates out of push(); only the
 * inflater's own failures (damaged data) come back as `err`. UnzipInflate caught both and called
 * ondata again with the limit as `err`, which made a limit a CORRUPT_COMPRESSED.
 */
export class SlicedInflate {
  static readonly compression = 8;
  ondata: OnData = () => {};
  private inCallback = false;
  private readonly inflate = new Inflate((data, final) => {
    this.inCallback = true;
    this.ondata(null, data, final);
    this.inCallback = false;
  });

  push(chunk: Uint8Array, final = false): void {
    let at = 0;
    do {
      const end = Math.min(chunk.length, at + SLICE_BYTES);
      try {
        this.inflate.push(chunk.subarray(at, end), final && end === chunk.length);
      } catch (e) {
        if (this.inCallback) throw e;
        this.ondata(e instanceof Error ? e : new Error(String(e)), new Uint8Array(0), true);
        return;
      }
      at = end;
    } while (at < chunk.length);
  }
}
