// The zip reader every host shares: a zip's central directory and local headers, read through
// positioned reads and checked number by number before anything is inflated. Members whose local
// header and data overlap one another, or run into the central directory, are the "better zip
// bomb" trick (one small member inflated a thousand times), so such an archive is refused whole;
// what may be inflated is charged to a per-archive budget (InflateBudget). No I/O and no inflater
// here: the scan (zip.ts, node:fs and node:zlib) and the page (web/unzip.ts) bring their own.
// See src/scan/README.md "Zips".
import { zipInflateBudget } from '../index.js';
/** True when the first bytes are a zip's: a local file header, or the end record of an empty zip. */
export function isZipHead(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
}

/** Zips inside zips are opened down to this depth; deeper is LIMIT_EXCEEDED (a quine zip would never end). */
export const MAX_ZIP_DEPTH = 8;

/** Positioned reads of a zip; a read past the end returns fewer bytes (never throws for that). */
export interface ZipSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A zip already in memory (a nested zip). */
export class BytesReader implements ZipSource {
  readonly size: number;
  constructor(private readonly bytes: Uint8Array) {
    this.size = bytes.length;
  }
  async read(offset: number, length: number): Promise<Uint8Array> {
    return this.bytes.subarray(offset, offset + length);
  }
}

/** A zip that cannot be read as one (`CORRUPT_ARCHIVE`) or that asks for more than the limits allow (`LIMIT_EXCEEDED`). */
export class ZipError extends Error {
  override name = 'ZipError';
  constructor(
    readonly code: 'CORRUPT_ARCHIVE' | 'LIMIT_EXCEEDED',
    message: string,
  ) {
    super(message);
  }
}

export interface FileMember {
  kind: 'file';
  name: string;
  /** Inflated size the central directory declares (inflating stops there). */
  size: number;
  compressedSize: number;
  method: number;
  /** Where the member's data starts, once its local header was read and checked. */
  dataStart: number;
  /** Why this member cannot be read (encrypted, an unknown method, a bad local header); the others still can. */
  fault?: string;
}
export type Member = FileMember | { kind: 'folder'; name: string };

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const EOCD_BYTES = 22;
const CENTRAL_BYTES = 46;
const LOCAL_BYTES = 30;

/**
 * The members of the zip, in central-directory order. Throws ZipError `CORRUPT_ARCHIVE` when the
 * end record or directory is unreadable, or when members overlap one another or the directory;
 * `LIMIT_EXCEEDED` when the directory alone is larger than `maxBytes`.
 */
export async function members(src: ZipSource, maxBytes: number): Promise<Member[]> {
  const dir = await findDirectory(src);
  if (dir.size > maxBytes) throw new ZipError('LIMIT_EXCEEDED', `its central directory is ${dir.size} bytes, over the ${maxBytes}-byte limit (--max-bytes)`);
  const cd = await src.read(dir.offset, dir.size);
  if (cd.length !== dir.size) throw corrupt(`the central directory (${dir.size} bytes at ${hex(dir.offset)}) is cut short`);
  const entries = parseDirectory(cd, dir);
  const out: Member[] = [];
  const spans: Span[] = [];
  for (const e of entries) {
    if (e.name.endsWith('/') && e.size === 0) {
      out.push({ kind: 'folder', name: e.name });
      continue;
    }
    const m: FileMember = { kind: 'file', name: e.name, size: e.size, compressedSize: e.compressedSize, method: e.method, dataStart: 0 };
    out.push(m);
    // A local header that cannot be read makes only its member unreadable; every readable one
    // takes part in the layout check below.
    if (e.localOffset + LOCAL_BYTES > dir.offset) {
      if (e.localOffset >= dir.offset) throw corrupt(`member ${quote(e.name)} points into the central directory (local header at ${hex(e.localOffset)})`);
      m.fault = `its local header at ${hex(e.localOffset)} runs into the central directory`;
      continue;
    }
    const lh = await src.read(e.localOffset, LOCAL_BYTES);
    if (lh.length < LOCAL_BYTES || u32(lh, 0) !== LOCAL_SIG) {
      m.fault = `no local header at ${hex(e.localOffset)}`;
      continue;
    }
    m.dataStart = e.localOffset + LOCAL_BYTES + u16(lh, 26) + u16(lh, 28);
    const end = m.dataStart + e.compressedSize;
    if (end > dir.offset) throw corrupt(`member ${quote(e.name)} (data ${hex(m.dataStart)}…${hex(end)}) runs into the central directory at ${hex(dir.offset)}`);
    spans.push({ start: e.localOffset, end, name: e.name });
    if (e.flags & 1) m.fault = 'encrypted; not read';
    else if (e.method !== 0 && e.method !== 8) m.fault = `compression method ${e.method} is not supported (stored and deflate are)`;
    else if (e.method === 0 && e.compressedSize !== e.size) m.fault = `stored, but ${e.compressedSize} bytes stored for ${e.size} declared`;
  }
  checkOverlaps(spans);
  return out;
}

interface Span {
  start: number;
  end: number;
  name: string;
}

/** Honest writers put each member's header and data after the previous one's: any two spans that share a byte are refused. */
function checkOverlaps(spans: Span[]): void {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (b.start < a.end)
      throw corrupt(
        `members ${quote(a.name)} and ${quote(b.name)} overlap (${hex(b.start)}…${hex(Math.min(a.end, b.end))}); ${spans.length} members, nothing inflated (a zip bomb's layout)`,
      );
  }
}

interface Directory {
  offset: number;
  size: number;
  count: number;
}

/** The end record (zip64 when it says so) and the central directory's place, checked against the file. */
async function findDirectory(src: ZipSource): Promise<Directory> {
  if (src.size < EOCD_BYTES) throw corrupt(`${src.size} bytes: too short for a zip's end record (${EOCD_BYTES} bytes)`);
  const tailStart = Math.max(0, src.size - EOCD_BYTES - 0xffff);
  const tail = await src.read(tailStart, src.size - tailStart);
  let at = -1;
  // The last signature whose comment ends exactly at the end of the file: a signature inside a comment does not count.
  for (let i = tail.length - EOCD_BYTES; i >= 0; i--) {
    if (u32(tail, i) === EOCD_SIG && i + EOCD_BYTES + u16(tail, i + 20) === tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) throw corrupt('no end-of-central-directory record at its end; not a zip, or cut short');
  const eocdOffset = tailStart + at;
  if (u16(tail, at + 4) !== 0 || u16(tail, at + 6) !== 0) throw corrupt('a multi-volume zip (only single-file zips are read)');
  let count = u16(tail, at + 10);
  let size = u32(tail, at + 12);
  let offset = u32(tail, at + 16);
  let end = eocdOffset;
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    const locator = eocdOffset >= 20 ? await src.read(eocdOffset - 20, 20) : new Uint8Array(0);
    if (locator.length < 20 || u32(locator, 0) !== ZIP64_LOCATOR_SIG) throw corrupt('the end record asks for zip64, but there is no zip64 locator before it');
    const recordOffset = u64(locator, 8);
    if (recordOffset + 56 > eocdOffset - 20) throw corrupt(`the zip64 end record at ${hex(recordOffset)} lies outside the file`);
    const record = await src.read(recordOffset, 56);
    if (u32(record, 0) !== ZIP64_EOCD_SIG) throw corrupt(`no zip64 end record at ${hex(recordOffset)}`);
    count = u64(record, 32);
    size = u64(record, 40);
    offset = u64(record, 48);
    end = recordOffset;
  }
  if (offset + size > end)
    throw corrupt(`the central directory (${size} bytes at ${hex(offset)}) lies past the end of the records (${hex(end)}) in this ${src.size}-byte file`);
  if (count * CENTRAL_BYTES > size) throw corrupt(`${count} members cannot fit a ${size}-byte central directory`);
  return { offset, size, count };
}

interface Entry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const utf8 = new TextDecoder('utf-8');

function parseDirectory(cd: Uint8Array, dir: Directory): Entry[] {
  const entries: Entry[] = [];
  let p = 0;
  for (let i = 0; i < dir.count; i++) {
    if (p + CENTRAL_BYTES > cd.length || u32(cd, p) !== CENTRAL_SIG) throw corrupt(`no central directory record for member ${i} at ${hex(dir.offset + p)}`);
    const nameLength = u16(cd, p + 28);
    const extraLength = u16(cd, p + 30);
    const commentLength = u16(cd, p + 32);
    const next = p + CENTRAL_BYTES + nameLength + extraLength + commentLength;
    if (next > cd.length) throw corrupt(`central directory record ${i} at ${hex(dir.offset + p)} runs past the directory`);
    const e: Entry = {
      name: utf8.decode(cd.subarray(p + CENTRAL_BYTES, p + CENTRAL_BYTES + nameLength)),
      flags: u16(cd, p + 8),
      method: u16(cd, p + 10),
      compressedSize: u32(cd, p + 20),
      size: u32(cd, p + 24),
      localOffset: u32(cd, p + 42),
    };
    // QUIRK: .NET writers (the Wherigo builders) mark sizes 0xFFFFFFFF with a zip64 extra field
    // and write no zip64 end record; the extra holds the real values in this order.
    if (e.size === 0xffffffff || e.compressedSize === 0xffffffff || e.localOffset === 0xffffffff)
      readZip64Extra(cd.subarray(p + CENTRAL_BYTES + nameLength, p + CENTRAL_BYTES + nameLength + extraLength), e, i);
    entries.push(e);
    p = next;
  }
  return entries;
}

function readZip64Extra(extra: Uint8Array, e: Entry, i: number): void {
  for (let q = 0; q + 4 <= extra.length; ) {
    const id = u16(extra, q);
    const len = u16(extra, q + 2);
    if (q + 4 + len > extra.length) break;
    if (id === 1) {
      let r = q + 4;
      const take = (): number => {
        if (r + 8 > q + 4 + len) throw corrupt(`member ${i}'s zip64 extra field is too short for the values it stands for`);
        const v = u64(extra, r);
        r += 8;
        return v;
      };
      if (e.size === 0xffffffff) e.size = take();
      if (e.compressedSize === 0xffffffff) e.compressedSize = take();
      if (e.localOffset === 0xffffffff) e.localOffset = take();
      return;
    }
    q += 4 + len;
  }
  throw corrupt(`member ${i} has 0xFFFFFFFF sizes but no zip64 extra field`);
}

/**
 * Bytes one archive may inflate, all members together: `ratio` × its size, at least
 * ZIP_INFLATE_ALLOWANCE (so a small zip of very compressible levels still reads). A nested zip has its own budget and
 * also charges every archive around it, so a bomb inside a zip cannot exceed its parent's.
 */
export class InflateBudget {
  private used = 0;
  readonly limit: number;
  constructor(
    archiveBytes: number,
    readonly ratio: number,
    private readonly parent?: InflateBudget,
  ) {
    this.limit = zipInflateBudget(archiveBytes, ratio);
  }

  /** Takes `n` bytes from this budget and every parent's, or none and says which one ran out. */
  charge(n: number): string | undefined {
    for (let b: InflateBudget | undefined = this; b; b = b.parent)
      if (b.used + n > b.limit)
        return `inflating its ${n} bytes would take ${b === this ? 'this archive' : 'an archive around it'} to ${b.used + n} bytes, over ${b.ratio} × its size (--max-zip-ratio)`;
    for (let b: InflateBudget | undefined = this; b; b = b.parent) b.used += n;
    return undefined;
  }
}

/** What inflating a member needs: the numbers its directory entry and local header gave (a scan worker gets them with the archive's handle). */
export type MemberData = Pick<FileMember, 'dataStart' | 'compressedSize' | 'size' | 'method'>;

/**
 * Checks a member's inflated bytes against its directory entry: ZipError unless exactly the
 * declared size came out (inflaters stop at the declared size, so more means it did not fit).
 */
export function checkInflatedSize(out: Uint8Array, m: MemberData): void {
  if (out.length !== m.size) throw corrupt(`inflates to ${out.length} bytes, not the ${m.size} the directory declares`);
}

/** A member's raw data must be all there before it is inflated. */
export function checkRawSize(raw: Uint8Array, m: MemberData): void {
  if (raw.length !== m.compressedSize) throw corrupt(`its data is cut short (${raw.length} of ${m.compressedSize} bytes)`);
}

/** The error for a zip (or member) that cannot be read as one. */
export function corrupt(message: string): ZipError {
  return new ZipError('CORRUPT_ARCHIVE', message);
}

function u16(b: Uint8Array, i: number): number {
  return b[i]! | (b[i + 1]! << 8);
}
function u32(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
}
/** A 64-bit field as a number; past 2^53 it cannot be an offset or size in any file, so it becomes Infinity and fails every bounds check. */
function u64(b: Uint8Array, i: number): number {
  const v = u32(b, i) + u32(b, i + 4) * 0x100000000;
  return Number.isSafeInteger(v) ? v : Number.POSITIVE_INFINITY;
}
function hex(n: number): string {
  return Number.isFinite(n) ? `0x${n.toString(16)}` : 'beyond 2^53';
}
function quote(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}
