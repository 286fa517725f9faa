// Reading one scan item under Node, with every check the scan makes: a file is opened only if
// it is a regular file (O_NONBLOCK, fstat on the handle, size against --max-bytes before
// reading; read.ts), a zip member is read from its local header and inflated to exactly its
// declared size. Runs in the workers; the scan itself calls it only when the caller replaced the
// fs functions (which cannot travel to a worker).
import * as nodeFs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { detect, LEVEL_EXTENSIONS } from '../index.js';
import { errorFields, type MemberPlace, type RecordBase, type ScanConfig, type ScanRecord } from './job.js';
import { extOf, fileFields } from './names.js';
import { type ReadFs, readFileSafe } from './read.js';
import { isZipHead } from './zip.js';

/** Nested zips deeper than this are reported, not opened (a quine zip would otherwise never end). */
export const MAX_ZIP_DEPTH = 8;

/** What reading an item gives: its bytes to scan, a record already (a failure, a file of no interest), or a zip to open. */
export type ReadOutcome = { bytes: Uint8Array; levelName: boolean } | { record: ScanRecord } | { zip: true } | { nestedZip: true };

/** The record fields of a path given as a latin1 string (the bytes of the name). */
export function baseOf(path: string, member: string | null): RecordBase {
  const f = fileFields(Buffer.from(path, 'latin1'));
  return f.fileBytes ? { path: f.file, pathBytes: f.fileBytes, member } : { path: f.file, member };
}

/** A file found by the walk (or named): read whole when it may be a level, or told apart as a zip or a file of no interest. */
export function readFileItem(path: string, named: boolean, config: ScanConfig, base: RecordBase, fs?: ReadFs & Pick<typeof nodeFs, 'statSync'>): ReadOutcome {
  const p = Buffer.from(path, 'latin1');
  const levelName = LEVEL_EXTENSIONS.includes(extOf(p));
  let zip = false;
  const r = readFileSafe(p, {
    maxBytes: config.maxBytes,
    ...(fs ? { fs } : {}),
    // Named like a level: read whole whatever its head says (and in one read, without the head's).
    wanted: levelName
      ? undefined
      : (head) => {
          // A zip not named like a level is an archive to open, whatever detect() says: the GWZ
          // format claims every zip head (it cannot see the member list in 64 bytes), but only a
          // `.gwz` is handed to it. Anything else is read whole only when a format may claim it
          // (the decoder looks at the whole head again), or with --all.
          zip = !levelName && isZipHead(head);
          return !zip && (named || levelName || config.all || headKnown(head));
        },
  });
  if ('unwanted' in r) return zip ? { zip: true } : { record: { ...base, bytes: sizeOf(p), format: null } };
  if ('failure' in r) return { record: { ...base, bytes: sizeOf(p), format: null, error: errorFields(r.failure.code, r.failure.message) } };
  return { bytes: r.bytes, levelName: levelName || named };
}

function headKnown(head: Uint8Array): boolean {
  return detect(head) !== undefined;
}

function sizeOf(p: Buffer): number | null {
  try {
    return nodeFs.statSync(p).size;
  } catch {
    return null;
  }
}

/** A zip member: its inflated bytes (or, for a member that is itself a zip, that fact), or its CORRUPT_ARCHIVE / LIMIT_EXCEEDED record. */
export function readMemberItem(m: MemberPlace, member: string, base: RecordBase): ReadOutcome | { opened: Uint8Array } {
  let bytes: Uint8Array;
  try {
    bytes = memberBytes(m);
  } catch (e) {
    return { record: { ...base, bytes: m.size, format: null, error: errorFields('CORRUPT_ARCHIVE', `zip member: ${(e as Error)?.message ?? e}`) } };
  }
  if (m.open) return { opened: bytes };
  const levelName = LEVEL_EXTENSIONS.includes(extOf(Buffer.from(member, 'utf8')));
  if (!levelName && isZipHead(bytes)) {
    if (m.level >= MAX_ZIP_DEPTH)
      return { record: { ...base, bytes: bytes.length, format: null, error: errorFields('LIMIT_EXCEEDED', `zip nested more than ${MAX_ZIP_DEPTH} deep`) } };
    return { nestedZip: true };
  }
  return { bytes, levelName };
}

/** The local file header's fixed part. */
const LOCAL_HEADER = 30;
const LOCAL_SIGNATURE = 0x04034b50;

/**
 * A member's bytes, checked as unzipit checks them: not encrypted, a local header with its
 * signature, stored or deflated, data inside the archive, and exactly the declared size after
 * inflating (never more is produced). Throws an Error saying what is wrong.
 */
function memberBytes(m: MemberPlace): Uint8Array {
  if (m.flags & 0x1) throw new Error('encrypted entries not supported');
  const header = readAt(m, m.offset, LOCAL_HEADER);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const signature = header.length === LOCAL_HEADER ? view.getUint32(0, true) : 0;
  if (signature !== LOCAL_SIGNATURE) throw new Error(`invalid local file header signature: 0x${signature.toString(16)}`);
  if (m.method !== 0 && m.method !== 8) throw new Error(`unsupported compression method: ${m.method}`);
  const dataStart = m.offset + LOCAL_HEADER + view.getUint16(26, true) + view.getUint16(28, true);
  // A deflate stream of `size` bytes needs little more than `size` (stored blocks cost 5 bytes
  // each): more than that is not read into memory on the directory's word.
  if (m.method === 8 && m.compressedSize > m.size + 5 * (Math.floor(m.size / 1024) + 1) + 65536)
    throw new Error(`compressed size ${m.compressedSize} is more than a deflate stream of ${m.size} bytes needs`);
  if (m.compressedSize !== 0 && dataStart + m.compressedSize > m.source.size)
    throw new Error(`file data overflows file bounds: ${dataStart} +  ${m.compressedSize}  > ${m.source.size}`);
  const data = readAt(m, dataStart, m.compressedSize);
  if (m.method === 0) return data;
  if (data.length !== m.compressedSize) throw new Error(`short read: expected ${m.compressedSize} bytes at offset ${dataStart}, got ${data.length}`);
  let out: Buffer;
  try {
    // maxOutputLength stops the inflater past the declared size instead of trusting it.
    out = inflateRawSync(data, { maxOutputLength: Math.max(1, m.size), chunkSize: Math.max(64, Math.min(m.size + 1, 1 << 20)) });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new Error(`decompressed size exceeds limit: more than ${m.size}`);
    throw e;
  }
  if (out.length !== m.size) throw new Error(`decompressed size mismatch. declared: ${m.size}, actual: ${out.length}`);
  // Node may hand back a view of a pooled slab; the scan owns (and may transfer) what it returns.
  return out.byteOffset === 0 && out.buffer.byteLength === out.length ? new Uint8Array(out.buffer) : new Uint8Array(out);
}

/** `length` bytes at `offset` of the member's source (fewer at its end). */
function readAt(m: MemberPlace, offset: number, length: number): Uint8Array {
  const n = Math.max(0, Math.min(length, m.source.size - offset));
  if ('shared' in m.source) return new Uint8Array(m.source.shared, offset, n).slice();
  const out = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const r = nodeFs.readSync(m.source.fd, out, got, n - got, offset + got);
    if (r === 0) break;
    got += r;
  }
  return got === n ? out : out.subarray(0, got);
}
