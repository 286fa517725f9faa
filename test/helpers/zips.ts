// Zips built byte by byte, for tests of what no honest writer makes: central-directory entries
// that share one member's bytes (the "better zip bomb" layout), entries pointing into the
// directory, end records that point past the file. fflate writes only well-formed zips.
import { deflateRawSync } from 'node:zlib';

export interface RawMember {
  name: string;
  data: Uint8Array;
  /** Deflate (default) or store. */
  store?: boolean;
  /** Already deflated: `data` is ignored and this body written, with `size` as the inflated size. */
  deflated?: { body: Uint8Array; size: number };
  /**
   * Sizes in a data descriptor after the data (general purpose flag bit 3) instead of the local
   * header, which then says 0 (the directory still has them), as streaming writers do.
   */
  descriptor?: boolean;
}

export interface DirEntry {
  name: string;
  /** Which member's local header this entry points at (its sizes too). */
  member: number;
  /** Points here instead of the member's local header. */
  localOffset?: number;
}

export interface CraftOptions {
  /** The directory's entries; default one per member. */
  directory?: DirEntry[];
  /** Written into the end record instead of the directory's real offset. */
  cdOffset?: number;
}

/** A zip of `members` laid out one after the other, with the directory `opts` describes. */
export function craftZip(members: RawMember[], opts: CraftOptions = {}): Uint8Array {
  const parts: Buffer[] = [];
  let at = 0;
  const laid = members.map((m) => {
    const body = m.deflated ? Buffer.from(m.deflated.body) : m.store ? Buffer.from(m.data) : deflateRawSync(m.data, { level: 9 });
    const size = m.deflated?.size ?? m.data.length;
    const name = Buffer.from(m.name, 'utf8');
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(m.descriptor ? 8 : 0, 6);
    h.writeUInt16LE(m.store ? 0 : 8, 8);
    h.writeUInt32LE(m.descriptor ? 0 : body.length, 18);
    h.writeUInt32LE(m.descriptor ? 0 : size, 22);
    h.writeUInt16LE(name.length, 26);
    const offset = at;
    // The descriptor: signature, CRC-32 (not checked by the readers under test), sizes.
    const descriptor = Buffer.alloc(m.descriptor ? 16 : 0);
    if (m.descriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    parts.push(h, name, body, descriptor);
    at += h.length + name.length + body.length + descriptor.length;
    return { offset, method: m.store ? 0 : 8, compressed: body.length, size };
  });
  const cdOffset = at;
  const directory: DirEntry[] = opts.directory ?? members.map((m, i) => ({ name: m.name, member: i }));
  for (const e of directory) {
    const l = laid[e.member]!;
    const name = Buffer.from(e.name, 'utf8');
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(l.method, 10);
    c.writeUInt32LE(l.compressed, 20);
    c.writeUInt32LE(l.size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(e.localOffset ?? l.offset, 42);
    parts.push(c, name);
    at += c.length + name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(directory.length, 8);
  end.writeUInt16LE(directory.length, 10);
  end.writeUInt32LE(at - cdOffset, 12);
  end.writeUInt32LE(opts.cdOffset ?? cdOffset, 16);
  parts.push(end);
  return new Uint8Array(Buffer.concat(parts));
}
