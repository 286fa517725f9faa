// Zip archives met in a scan, read through their central directory with unzipit: a zip on disk
// through positioned reads of its file handle (never loaded whole), a nested zip from its bytes
// (bounded by --max-bytes like any member). Why unzipit: src/scan/README.md "Zip library".
import * as nodeFs from 'node:fs';
import { type Reader, unzipRaw, type ZipEntry } from 'unzipit';

/** True when the first bytes are a zip's: a local file header, or the end record of an empty zip. */
export function isZipHead(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
}

/** unzipit's Reader over an open file handle: each read is one positioned read, so memory holds only what is asked for. */
export class FileHandleReader implements Reader {
  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {}
  async getLength(): Promise<number> {
    return this.size;
  }
  async read(offset: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
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

/** unzipit's Reader over bytes already in memory (a nested zip, shared with the workers); reads are copies, and only the directory is read through it. */
export class BytesReader implements Reader {
  constructor(private readonly bytes: Uint8Array) {}
  async getLength(): Promise<number> {
    return this.bytes.length;
  }
  async read(offset: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
    return this.bytes.slice(offset, offset + length);
  }
}

/** Where a member's data is, from the central directory: what a worker needs to read it without unzipit. */
export interface MemberLocation {
  /** Offset of its local file header. */
  offset: number;
  compressedSize: number;
  method: number;
  /** General purpose flags (bit 0: encrypted). */
  flags: number;
}

export type Member = { kind: 'file'; name: string; size: number; entry: ZipEntry; at: MemberLocation } | { kind: 'folder'; name: string };

/** The members of the zip `reader` reads, in central-directory order. Throws when the zip's end record or directory is unreadable. */
export async function members(reader: Reader): Promise<Member[]> {
  const { entries } = await unzipRaw(reader);
  return entries.map((e) =>
    e.isDirectory || e.name.endsWith('/') ? { kind: 'folder', name: e.name } : { kind: 'file', name: e.name, size: e.size, entry: e, at: locationOf(e) },
  );
}

/**
 * The local header offset and flags unzipit read from the central directory. It keeps them in
 * a private field, so they are read through checks rather than a cast: an unzipit without them
 * fails loudly instead of sending workers to a wrong offset.
 */
function locationOf(e: ZipEntry): MemberLocation {
  const raw: unknown = Reflect.get(e, '_rawEntry');
  if (
    typeof raw === 'object' &&
    raw !== null &&
    'relativeOffsetOfLocalHeader' in raw &&
    typeof raw.relativeOffsetOfLocalHeader === 'number' &&
    'generalPurposeBitFlag' in raw &&
    typeof raw.generalPurposeBitFlag === 'number'
  )
    return { offset: raw.relativeOffsetOfLocalHeader, compressedSize: e.compressedSize, method: e.compressionMethod, flags: raw.generalPurposeBitFlag };
  throw new Error('levelkit: unzipit ZipEntry has no _rawEntry.relativeOffsetOfLocalHeader (unsupported unzipit version)');
}

/** The member's inflated bytes; throws for a corrupt or unsupported member. unzipit stops inflating at the declared size. */
export async function memberBytes(m: Extract<Member, { kind: 'file' }>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await m.entry.arrayBuffer());
}
