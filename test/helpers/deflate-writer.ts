// A tiny DEFLATE writer for hand-made streams the zlib deflater never emits: matches at distance
// 32768, empty stored blocks anywhere, fixed-code symbols 286/287 and distance codes 30/31, and
// dynamic headers with chosen code lengths. Written from RFC 1951 for the inflater's tests.

/** LSB-first bit writer (RFC 1951 §3.1.1). */
export class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private n = 0;
  /** Appends the low `count` bits of `value`, least significant first. */
  bits(value: number, count: number): this {
    for (let i = 0; i < count; i++) {
      this.acc |= ((value >>> i) & 1) << this.n;
      if (++this.n === 8) this.flushByte();
    }
    return this;
  }
  /** A Huffman code: `len` bits of `code`, most significant first. */
  code(code: number, len: number): this {
    for (let i = len - 1; i >= 0; i--) this.bits((code >>> i) & 1, 1);
    return this;
  }
  /** Pads to a byte boundary with zero bits. */
  align(): this {
    if (this.n > 0) this.flushByte();
    return this;
  }
  raw(b: ArrayLike<number>): this {
    this.align();
    for (let i = 0; i < b.length; i++) this.bytes.push(b[i]!);
    return this;
  }
  done(): Uint8Array {
    this.align();
    return Uint8Array.from(this.bytes);
  }
  private flushByte() {
    this.bytes.push(this.acc);
    this.acc = 0;
    this.n = 0;
  }
}

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** Writes fixed-code (§3.2.6) symbols. */
export class FixedBlock {
  constructor(readonly w: BitWriter) {}
  /** Literal/length symbol 0..287 with the fixed code (286/287 included: inflaters must refuse them). */
  symbol(s: number): this {
    if (s < 144) this.w.code(0x30 + s, 8);
    else if (s < 256) this.w.code(0x190 + s - 144, 9);
    else if (s < 280) this.w.code(s - 256, 7);
    else this.w.code(0xc0 + s - 280, 8);
    return this;
  }
  literals(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.symbol(b[i]!);
    return this;
  }
  /** A match of `len` (3..258) bytes from `dist` (1..32768) back; `distCode` forces a (possibly invalid) distance code. */
  match(len: number, dist: number, distCode?: number): this {
    let i = LENGTH_BASE.length - 1;
    while (LENGTH_BASE[i]! > len) i--;
    if (len === 258) i = 28;
    this.symbol(257 + i).w.bits(len - LENGTH_BASE[i]!, LENGTH_EXTRA[i]!);
    if (distCode !== undefined) {
      this.w.code(distCode, 5);
      return this;
    }
    let d = DIST_BASE.length - 1;
    while (DIST_BASE[d]! > dist) d--;
    this.w.code(d, 5).bits(dist - DIST_BASE[d]!, DIST_EXTRA[d]!);
    return this;
  }
  end(): BitWriter {
    this.symbol(256);
    return this.w;
  }
}

/** Opens a fixed-code block. */
export function fixedBlock(w: BitWriter, final: boolean): FixedBlock {
  w.bits(final ? 1 : 0, 1).bits(1, 2);
  return new FixedBlock(w);
}

/** A stored block of `data` (LEN/NLEN may be forced to disagree). */
export function storedBlock(w: BitWriter, final: boolean, data: ArrayLike<number>, nlen = ~data.length & 0xffff): BitWriter {
  w.bits(final ? 1 : 0, 1)
    .bits(0, 2)
    .align();
  return w.raw([data.length & 0xff, data.length >> 8, nlen & 0xff, nlen >> 8]).raw(data);
}

/**
 * A dynamic block header (§3.2.7) whose code-length code gives every used length 0..15 a
 * 4-bit code (lengths 16/17/18 absent), then `litlen` and `dist` lengths as plain symbols. The
 * codes themselves are whatever the lengths say (they may be over-subscribed or incomplete:
 * that is the point). Returns a function writing a literal/length symbol with that code.
 */
export function dynamicHeader(w: BitWriter, final: boolean, litlen: number[], dist: number[], codelenLengths?: number[]): (s: number) => void {
  w.bits(final ? 1 : 0, 1).bits(2, 2);
  w.bits(litlen.length - 257, 5)
    .bits(dist.length - 1, 5)
    .bits(19 - 4, 4);
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  // Symbols 0..15 with 4-bit codes: a complete code over 16 symbols.
  const cl = codelenLengths ?? Array.from({ length: 19 }, (_, s) => (s < 16 ? 4 : 0));
  for (const s of order) w.bits(cl[s]!, 3);
  const clCodes = canonical(cl);
  for (const len of [...litlen, ...dist]) w.code(clCodes[len]!, cl[len]!);
  const codes = canonical(litlen);
  return (s) => {
    w.code(codes[s]!, litlen[s]!);
  };
}

/** Canonical codes (§3.2.2) for these lengths. */
export function canonical(lengths: number[]): number[] {
  const count = new Array(16).fill(0);
  for (const l of lengths) if (l) count[l]++;
  const next = new Array(16).fill(0);
  let code = 0;
  for (let len = 1; len < 16; len++) {
    next[len] = code;
    code = (code + count[len]) << 1;
  }
  return lengths.map((l) => (l ? next[l]++ : 0));
}

/** RFC 1950 wrapper: header 78 01 (window 32 KiB, no dictionary), the DEFLATE data, Adler-32 of `plain`. */
export function zlibWrap(deflate: Uint8Array, plain: Uint8Array): Uint8Array {
  const out = new Uint8Array(deflate.length + 6);
  out[0] = 0x78;
  out[1] = 0x01;
  out.set(deflate, 2);
  const a = adler32(plain);
  new DataView(out.buffer).setUint32(out.length - 4, a);
  return out;
}

export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const v of data) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
