// Reading one scan item under Node, with every check the scan makes: a file is opened only if
// it is a regular file (O_NONBLOCK, fstat on the handle, size against --max-bytes before
// reading; read.ts; never one of the scan's own outputs), a zip member is read at the place the
// main thread's zip reader checked and inflated to exactly its declared size (zip.ts). Runs in
// the workers; the scan itself calls it only when the caller replaced the fs functions (which
// cannot travel to a worker).
import * as nodeFs from 'node:fs';
import { detect, LEVEL_EXTENSIONS } from '../index.js';
import { errorFields, type MemberPlace, type RecordBase, type ScanConfig, type ScanRecord } from './job.js';
import { extOf, extOfLatin1, fileFields } from './names.js';
import { type FileIdentity, ioFailure, type ReadFs, readFileSafe } from './read.js';
import { inflateMember, isZipHead, MAX_ZIP_DEPTH, ZipError } from './zip.js';

/** What reading an item gives: its bytes to scan, a record already (a failure, a file of no interest), or a zip to open. */
export type ReadOutcome = { bytes: Uint8Array; levelName: boolean } | { record: ScanRecord } | { zip: true } | { nestedZip: true } | { excluded: true };

/** The record fields of a path given as a latin1 string (the bytes of the name). */
export function baseOf(path: string, member: string | null): RecordBase {
  const f = fileFields(Buffer.from(path, 'latin1'));
  return f.fileBytes ? { path: f.file, pathBytes: f.fileBytes, member } : { path: f.file, member };
}

/** A file found by the walk (or named): read whole when it may be a level, or told apart as a zip or a file of no interest. */
export function readFileItem(
  path: string,
  named: boolean,
  config: ScanConfig,
  base: RecordBase,
  fs?: ReadFs & Pick<typeof nodeFs, 'statSync'>,
  listed?: { id?: FileIdentity; noFollow?: boolean },
): ReadOutcome {
  const p = Buffer.from(path, 'latin1');
  const levelName = LEVEL_EXTENSIONS.includes(extOfLatin1(path));
  let zip = false;
  const r = readFileSafe(p, {
    maxBytes: config.maxBytes,
    ...(fs ? { fs } : {}),
    ...(config.exclude?.length ? { exclude: config.exclude } : {}),
    ...(listed?.id ? { expect: listed.id } : {}),
    ...(listed?.noFollow ? { noFollow: true } : {}),
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
  if ('excluded' in r) return { excluded: true };
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

/** A zip member: its inflated bytes (or, for a member that is itself a zip, that fact), or the record of why it cannot be read. */
export function readMemberItem(m: MemberPlace, member: string, base: RecordBase): ReadOutcome | { opened: Uint8Array } {
  let bytes: Uint8Array;
  try {
    // The member's place, limits and budget were checked by the zip reader on the main thread:
    // here it is only read and inflated, stopping at its declared size.
    bytes = inflateMember(readAt(m, m.dataStart, m.compressedSize), m);
  } catch (e) {
    if (e instanceof ZipError) return { record: { ...base, bytes: m.size, format: null, error: errorFields(e.code, `zip member: ${e.message}`) } };
    return { record: { ...base, bytes: m.size, format: null, error: errorFields('IO', ioFailure(e).message) } };
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

/** `length` bytes at `offset` of the member's source (fewer at its end; inflateMember refuses a short read). */
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
