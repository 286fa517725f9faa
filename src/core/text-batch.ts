// Many Text values of one level for the price of one string decode. A level with thousands of
// objects has thousands of short text fields; decoding each with its own TextDecoder call costs
// more than the parse around it (every call crosses into the host). A batch collects the fields
// as they are parsed, then decodes all of their visible bytes in one call and cuts the result by
// offsets. The Texts it hands out are the plain `{ text, raw, encoding }` objects every other path
// makes, so JSON, structuredClone and equality see no difference; only their `text` is filled in
// by finish(), which the decoder calls before it returns the level.

import { canonicalEncoding, decodeText, isSingleByte, type Text } from './text.js';

// Below this many bytes in all, one decode per field is as cheap as gathering them.
const MIN_BATCH_BYTES = 64;

export class TextBatch {
  /** The WHATWG name every Text of this batch carries. */
  readonly encoding: string;
  // Single-byte code pages decode each byte to exactly one UTF-16 unit, so offsets in the joined
  // bytes are offsets in the joined string. Other code pages decode field by field.
  private readonly byteIsChar: boolean;
  private readonly pending: Text[] = [];
  private readonly visibles: Uint8Array[] = [];
  private bytes = 0;

  constructor(encoding: string) {
    this.encoding = canonicalEncoding(encoding);
    this.byteIsChar = isSingleByte(this.encoding);
  }

  /**
   * A Text for `raw` (kept as given: the caller passes bytes the result owns) whose `text` will be
   * `visible` (default: all of `raw`) decoded. `text` is empty until finish().
   */
  add(raw: Uint8Array, visible: Uint8Array = raw): Text {
    const t: Text = { text: '', raw, encoding: this.encoding };
    if (visible.length > 0) {
      this.pending.push(t);
      this.visibles.push(visible);
      this.bytes += visible.length;
    }
    return t;
  }

  /** Fills in the `text` of every Text added since the last finish(). */
  finish(): void {
    const n = this.pending.length;
    if (n === 0) return;
    if (!this.byteIsChar || this.bytes < MIN_BATCH_BYTES || n === 1) {
      for (let i = 0; i < n; i++) this.pending[i]!.text = decodeText(this.visibles[i]!, this.encoding);
    } else {
      const joined = new Uint8Array(this.bytes);
      let at = 0;
      for (let i = 0; i < n; i++) {
        joined.set(this.visibles[i]!, at);
        at += this.visibles[i]!.length;
      }
      const all = decodeText(joined, this.encoding);
      at = 0;
      for (let i = 0; i < n; i++) {
        const end = at + this.visibles[i]!.length;
        this.pending[i]!.text = all.slice(at, end);
        at = end;
      }
    }
    this.pending.length = 0;
    this.visibles.length = 0;
    this.bytes = 0;
  }
}

/**
 * Copies of many small ranges of one input into one buffer the result owns: each `copy()` is a view
 * into a shared slab instead of an ArrayBuffer of its own. Slabs are sized to what is asked, so no
 * more memory is held than the copies need (plus the last slab's unused tail).
 */
export class ByteSlab {
  private slab = new Uint8Array(0);
  private used = 0;

  constructor(private readonly slabSize = 64 * 1024) {}

  /** A copy of `src` (a view into the current slab; large inputs get their own buffer). */
  copy(src: Uint8Array): Uint8Array {
    const n = src.length;
    if (n === 0) return new Uint8Array(0);
    if (n > this.slabSize >>> 2) return src.slice();
    if (this.used + n > this.slab.length) {
      this.slab = new Uint8Array(this.slabSize);
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + n);
    out.set(src);
    this.used += n;
    return out;
  }
}
