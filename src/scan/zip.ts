// Zip archives met in a scan: the checked directory reader of zip-directory.ts, with a zip on disk
// read through positioned reads of its file handle (never loaded whole) and members inflated by
// node:zlib, stopped at the size the directory declares. A scan lists a zip on its main thread
// (budget charged there) and its workers inflate the members (inflateMember). See
// src/scan/README.md "Zips".
import * as nodeFs from 'node:fs';
import * as zlib from 'node:zlib';
import { checkInflatedSize, checkRawSize, corrupt, type FileMember, type InflateBudget, type MemberData, type ZipSource } from './zip-directory.js';

export * from './zip-directory.js';

/** A zip on disk, read through its open handle: memory holds only what is asked for. */
export class FileHandleReader implements ZipSource {
  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}
  async read(offset: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(Math.max(0, Math.min(length, this.size - offset)));
    let n = 0;
    while (n < out.length) {
      const r = nodeFs.readSync(this.fd, out, n, out.length - n, offset + n);
      if (r === 0) break;
      n += r;
    }
    return n === out.length ? out : out.subarray(0, n);
  }
}

/** The member's inflated bytes (a fresh buffer the caller may transfer); ZipError for a member that does not inflate to exactly its declared size. */
export async function memberBytes(src: ZipSource, m: FileMember): Promise<Uint8Array<ArrayBuffer>> {
  if (m.fault) throw corrupt(m.fault);
  const raw = await src.read(m.dataStart, m.compressedSize);
  const out = inflateMember(raw, m);
  return out === raw ? raw.slice() : (out as Uint8Array<ArrayBuffer>);
}

/**
 * A member's raw data (the `compressedSize` bytes at `dataStart`) inflated to exactly the size
 * its directory declares; never more is produced. A stored member comes back as `raw` itself.
 * Synchronous: the scan's workers call it between files. ZipError when it does not fit.
 */
export function inflateMember(raw: Uint8Array, m: MemberData): Uint8Array {
  checkRawSize(raw, m);
  if (m.method === 0) return raw;
  let out: Buffer;
  try {
    // maxOutputLength stops zlib as soon as the data would inflate past the declared size; the
    // chunk size keeps a small member from getting zlib's default 16 KiB buffer.
    out = zlib.inflateRawSync(raw, { maxOutputLength: Math.max(1, m.size), chunkSize: Math.max(64, Math.min(m.size + 1, 1 << 20)) });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err?.code === 'ERR_BUFFER_TOO_LARGE') throw corrupt(`inflates past the ${m.size} bytes the directory declares`);
    throw corrupt(`does not inflate: ${err?.message ?? String(e)}`);
  }
  checkInflatedSize(out, m);
  // Node may hand back a view of a pooled slab; the caller owns (and may transfer) what comes back.
  return out.byteOffset === 0 && out.buffer.byteLength === out.length ? new Uint8Array(out.buffer) : new Uint8Array(out);
}

/**
 * Why a listed member is not inflated, or undefined when it may be: over `maxBytes` (declared or
 * compressed size), unreadable (its `fault`), or past the archive's budget. When it may be, its
 * declared size has been charged to `budget` (inflating stops there, so that is all it can cost).
 */
export function memberRefusal(
  m: FileMember,
  maxBytes: number,
  budget: InflateBudget,
): { code: 'LIMIT_EXCEEDED' | 'CORRUPT_ARCHIVE'; message: string } | undefined {
  if (m.size > maxBytes || m.compressedSize > maxBytes)
    return { code: 'LIMIT_EXCEEDED', message: `${Math.max(m.size, m.compressedSize)} bytes, over the ${maxBytes}-byte limit (--max-bytes)` };
  if (m.fault) return { code: 'CORRUPT_ARCHIVE', message: `zip member: ${m.fault}` };
  const over = budget.charge(m.size);
  return over ? { code: 'LIMIT_EXCEEDED', message: over } : undefined;
}
