// GWZ: the zip of Lua source and media that Wherigo builders upload and compile into a GWC.
// Read and written with fflate (see README.md § GWZ for why that library); this module only
// bounds what fflate is asked to do and turns its failures into DecodeErrors.

import { Unzip, zipSync } from 'fflate';
import { sha256Hex } from '../../core/digest.js';
import { decodeError, encodeError } from '../../core/errors.js';
import { type DecodeOptions, type Limits, zipInflateBudget } from '../../core/limits.js';
import { countKey, dictionary } from '../../core/record.js';
import { snapshot } from '../../core/snapshot.js';
import { textBytes } from '../../core/text.js';
import { startDecode } from '../decode-context.js';
import { SlicedInflate } from './gwz-inflate.js';
import { autoText } from './lua.js';
import { mediaTypeName, mediaTypeNumber, sniffMedia } from './media.js';
import type { GwcCartridge, GwcWarningCode, GwzArchive, GwzMember } from './types.js';

/** A zip's first local-file header: `PK 03 04`. */
export const ZIP_LOCAL_MAGIC = [0x50, 0x4b, 0x03, 0x04] as const;
const LOCAL_HEADER_MIN_BYTES = 30;

/**
 * True when `head` starts like a zip. Only a hint: the Lua file a GWZ must hold sits in the
 * central directory at the end of the zip (and is the last member in every known GWZ), out of
 * reach of a 64-byte sniff, so decode checks it and refuses other zips with BAD_MAGIC.
 */
export function sniffZip(head: Uint8Array): boolean {
  return head.length >= 4 && ZIP_LOCAL_MAGIC.every((b, i) => head[i] === b);
}

/** True when `name` is a file at the zip's root ending in `.lua` (any case). */
export function isRootLua(name: string): boolean {
  return !name.includes('/') && !name.includes('\\') && /\.lua$/i.test(name);
}

/**
 * Decodes a `.gwz`: lists the members from their local headers, inflates the Lua
 * source and (unless `sections: 'summary'`) the media. Throws DecodeError: BAD_MAGIC (not a zip,
 * or a zip without a `.lua` file at its root), CORRUPT (a damaged zip), CORRUPT_COMPRESSED (a
 * member that does not inflate), LIMIT_EXCEEDED (a member larger than `limits.maxInflatedBytes`,
 * all members together larger than `limits.maxTotalInflatedBytes` or than `limits.maxZipRatio`
 * times the zip's size, more than `limits.maxRecords`
 * members). Sizes the local headers declare are checked before a member is inflated, and
 * inflated bytes are counted against the same limits as they come, in pieces of at most ~16 MB
 * (SlicedInflate), so a member without sizes (a data descriptor) stops at its first piece over.
 */
export function decodeGwz(input: Uint8Array, opts: DecodeOptions = {}): GwzArchive {
  const { bytes, ctx } = startDecode<GwcWarningCode>('gwz', input, opts);
  if (!sniffZip(bytes)) throw decodeError('gwz', 'BAD_MAGIC', { offset: 0, path: 'signature', expected: '50 4b 03 04 (a zip)' });

  // One pass over the local headers (fflate's streaming reader, fed the whole buffer: synchronous).
  // Root .lua files are always inflated; the rest only in a full decode.
  const listed = readMembers(bytes, ctx.limits, (name) => !ctx.summaryOnly || isRootLua(name));
  const luaCandidates = listed.filter((m) => isRootLua(m.name));
  const luaEntry = luaCandidates.find((m) => m.name.toLowerCase() === '_cartridge.lua') ?? luaCandidates[0];
  if (!luaEntry)
    throw decodeError('gwz', 'BAD_MAGIC', {
      path: 'members',
      expected: "a .lua file at the zip's root",
      actual: `${listed.length} members, none a root .lua`,
      detail: 'a zip, but not a Wherigo GWZ',
    });
  const member = (m: Listed): GwzMember => ({ name: m.name, size: m.size, data: m.data ?? new Uint8Array(0) });
  const lua = member(luaEntry);
  const media: GwzMember[] = [];
  const others: GwzMember[] = [];
  for (const m of listed) {
    if (m === luaEntry) continue;
    const isMedia = !m.name.includes('/') && !m.name.includes('\\') && !isRootLua(m.name);
    (isMedia ? media : others).push(member(m));
  }
  if (others.length)
    ctx.warnings.warn(
      'GWZ_EXTRA_MEMBERS',
      `${others.length} members are folders, below the root or further .lua files: ${others
        .slice(0, 5)
        .map((o) => o.name)
        .join(', ')}${others.length > 5 ? ', …' : ''}`,
      undefined,
      'others',
    );

  return {
    format: 'gwz',
    warnings: ctx.warnings.list,
    sections: ctx.summaryOnly ? 'summary' : 'all',
    bytes: bytes.length,
    luaFile: luaEntry.name,
    lua: autoText(lua.data),
    media,
    others,
  };
}

interface Listed {
  name: string;
  size: number;
  data: Uint8Array | undefined;
}

/**
 * Every member in local-header order, inflating those `want` accepts. Sizes are checked against
 * `limits` before a member is inflated when the header gives them, and while it inflates otherwise.
 * QUIRK: the .NET zip writers behind the Wherigo builders mark sizes as 0xFFFFFFFF with a zip64
 * extra field but write no zip64 end record (13 of 14 corpus GWZ); fflate's central-directory
 * reader (unzipSync) then takes 0xFFFFFFFF as the size, its streaming reader reads the extra.
 */
function readMembers(bytes: Uint8Array, limits: Limits, want: (name: string) => boolean): Listed[] {
  const listed: Listed[] = [];
  let total = 0;
  // Members are found by walking the local headers in order, so no byte of the zip belongs to two
  // members (the overlap a central directory allows cannot happen here); the ratio still bounds
  // what a small zip may inflate.
  const ratioBudget = zipInflateBudget(bytes.length, limits.maxZipRatio);
  // A local header is at least 30 bytes, which bounds the member count of n bytes.
  const maxEntries = Math.min(limits.maxRecords, Math.floor(bytes.length / LOCAL_HEADER_MIN_BYTES));
  const unzip = new Unzip();
  unzip.register(SlicedInflate);
  unzip.onfile = (f) => {
    if (listed.length >= maxEntries) {
      throw decodeError('gwz', listed.length >= limits.maxRecords ? 'LIMIT_EXCEEDED' : 'CORRUPT', {
        path: 'members',
        expected: `at most ${maxEntries} members in ${bytes.length} bytes`,
        actual: `${listed.length + 1} or more`,
      });
    }
    const entry: Listed = { name: f.name, size: f.originalSize ?? 0, data: undefined };
    listed.push(entry);
    if (!want(f.name) || f.name.endsWith('/')) return;
    const path = `members[${JSON.stringify(f.name)}]`;
    const tooBig = (n: number) => {
      if (n > limits.maxInflatedBytes)
        return decodeError('gwz', 'LIMIT_EXCEEDED', { path, expected: `≤ ${limits.maxInflatedBytes} bytes (limits.maxInflatedBytes)`, actual: n });
      if (total + n > limits.maxTotalInflatedBytes)
        return decodeError('gwz', 'LIMIT_EXCEEDED', {
          path,
          expected: `≤ ${limits.maxTotalInflatedBytes} inflated bytes per file (limits.maxTotalInflatedBytes)`,
          actual: total + n,
        });
      if (total + n > ratioBudget)
        return decodeError('gwz', 'LIMIT_EXCEEDED', {
          path,
          expected: `≤ ${ratioBudget} inflated bytes: ${limits.maxZipRatio} × this ${bytes.length}-byte zip (limits.maxZipRatio)`,
          actual: total + n,
        });
      return undefined;
    };
    if (f.originalSize !== undefined) {
      const e = tooBig(f.originalSize);
      if (e) throw e;
    }
    const parts: Uint8Array[] = [];
    let got = 0;
    f.ondata = (err, chunk, final) => {
      if (err) throw decodeError('gwz', 'CORRUPT_COMPRESSED', { path, detail: `fflate: ${err.message}` });
      got += chunk.length;
      const e = tooBig(got);
      if (e) throw e;
      parts.push(chunk.slice());
      if (final) {
        if (f.originalSize !== undefined && got !== f.originalSize)
          throw decodeError('gwz', 'CORRUPT_COMPRESSED', { path, expected: `${f.originalSize} bytes`, actual: got });
        const data = new Uint8Array(got);
        let at = 0;
        for (const p of parts) {
          data.set(p, at);
          at += p.length;
        }
        entry.data = data;
        entry.size = got;
        total += got;
      }
    };
    f.start();
  };
  runFflate(() => unzip.push(bytes, true));
  for (const m of listed) {
    if (want(m.name) && !m.name.endsWith('/') && m.data === undefined)
      throw decodeError('gwz', 'TRUNCATED', { path: `members[${JSON.stringify(m.name)}]`, detail: 'the zip ends inside this member' });
  }
  return listed;
}

/** Runs an fflate call; its errors (and anything else it throws on damaged input) become DecodeError. */
function runFflate<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Error && e.name === 'DecodeError') throw e;
    const msg = e instanceof Error ? e.message : String(e);
    const inflate = /invalid (block type|length\/literal|distance)|unexpected EOF|unknown compression/.test(msg);
    throw decodeError('gwz', inflate ? 'CORRUPT_COMPRESSED' : 'CORRUPT', { path: 'zip', detail: `fflate: ${msg}` });
  }
}

/**
 * Writes a GWZ: the media, then the other members, then the Lua source (the order the builders
 * use), deflated by fflate with a fixed timestamp. The bytes differ from the zip that was decoded
 * (compression and timestamps are not kept), but decoding them gives the same archive.
 * EncodeError: a summary decode (no member bytes), a member name used twice, a `.lua` media name,
 * Lua text the code page cannot hold.
 */
export function encodeGwz(model: GwzArchive): Uint8Array {
  // One read of the caller's archive: what is validated is what is written (core/snapshot.ts).
  const v = snapshot(model);
  if (v.sections === 'summary')
    throw encodeError('gwz', 'BAD_VALUE', { path: 'sections', expected: "'all'", actual: "'summary'", detail: 'a summary decode holds no member bytes' });
  if (typeof v.luaFile !== 'string' || !isRootLua(v.luaFile))
    throw encodeError('gwz', 'BAD_VALUE', { path: 'luaFile', expected: 'a .lua name at the zip root', actual: JSON.stringify(v.luaFile) });
  const luaBytes = textBytes(v.lua, { format: 'gwz', path: 'lua' });
  const back = autoText(luaBytes).text;
  if (back !== v.lua.text)
    throw encodeError('gwz', 'UNENCODABLE_TEXT', {
      path: 'lua',
      expected: 'text that reads back the same (bytes are decoded as UTF-8 when valid)',
      detail: `would read back as ${JSON.stringify(back.slice(0, 40))}…`,
    });
  // Member names come from the model (often a decoded GWZ): `__proto__` must stay a member.
  const out = dictionary<Uint8Array>();
  const names = new Set<string>();
  const add = (m: GwzMember, path: string, media: boolean) => {
    if (!m || typeof m.name !== 'string' || !(m.data instanceof Uint8Array)) throw encodeError('gwz', 'BAD_VALUE', { path, expected: '{ name, size, data }' });
    // fflate's zip writer flattens members through a plain object, where `__proto__` would be lost.
    if (m.name === '__proto__')
      throw encodeError('gwz', 'BAD_VALUE', { path: `${path}.name`, expected: 'a name the zip writer can store', actual: '"__proto__"' });
    if (!m.name || names.has(m.name) || m.name === v.luaFile)
      throw encodeError('gwz', 'BAD_VALUE', { path: `${path}.name`, expected: 'a unique, non-empty member name', actual: JSON.stringify(m.name) });
    if (media && (m.name.includes('/') || m.name.includes('\\') || isRootLua(m.name)))
      throw encodeError('gwz', 'BAD_VALUE', { path: `${path}.name`, expected: 'a root file name that is not .lua (media)', actual: JSON.stringify(m.name) });
    if (!media && !(m.name.includes('/') || m.name.includes('\\') || isRootLua(m.name)))
      throw encodeError('gwz', 'BAD_VALUE', {
        path: `${path}.name`,
        expected: 'a folder, a file below the root or a .lua file (others)',
        actual: JSON.stringify(m.name),
      });
    if (m.size !== m.data.length) throw encodeError('gwz', 'BAD_LENGTH', { path: `${path}.size`, expected: m.data.length, actual: m.size });
    names.add(m.name);
    out[m.name] = m.data;
  };
  for (const [i, m] of v.media.entries()) add(m, `media[${i}]`, true);
  for (const [i, m] of v.others.entries()) add(m, `others[${i}]`, false);
  out[v.luaFile] = luaBytes;
  return zipSync(out, { level: 9, mtime: GWZ_MTIME });
}

/** The timestamp encode() gives every member (zip times have no zone; kept fixed so output is deterministic). */
const GWZ_MTIME = new Date(Date.UTC(2004, 1, 10, 1, 0, 0));

/** How a GWZ and a GWC relate: their media by name and by type, and the counts. */
export interface GwzComparison {
  /** Media members in the GWZ. */
  gwzMedia: number;
  /** Present (non-deleted) media objects in the GWC. */
  gwcMedia: number;
  /** True when the counts agree. */
  sameCount: boolean;
  /** GWZ media by kind (from the name's extension): `{ jpg: 3, mp3: 2 }`. */
  gwzByType: Record<string, number>;
  /** GWC media by declared type: `{ jpg: 3, mp3: 2 }`. */
  gwcByType: Record<string, number>;
  /** Per kind, GWZ count minus GWC count, for the kinds where they differ. */
  typeDifferences: Record<string, number>;
  /**
   * GWZ media names whose exact bytes are a GWC object (by id): a builder copies media as is, so
   * this pairs the sources with the compiled objects. Names that match no object are in `unmatched`.
   */
  matched: { name: string; id: number }[];
  unmatched: string[];
  /** GWC object ids no GWZ member's bytes equal. */
  unmatchedIds: number[];
  /**
   * GWZ media whose bytes equal a record no table row points at: a further entry of a media object
   * (`objects[id].extraEntries[k]`, a valid byte above 1) or an unreferenced record (a `gapBefore`
   * or `trailing` holding `i32 type, i32 length, data`). Urwigo puts Garmin FDL tones there.
   */
  matchedOrphans: { name: string; where: string; type: number }[];
  /** Media names the GWZ's Lua source mentions in quotes, as ZMedia resources do ("Filename = …"). */
  referencedByLua: string[];
}

/**
 * Relates a GWZ (the source) to a GWC (its compiled form): media counts and kinds, and which
 * members are byte-identical to which objects. Needs full decodes of both (summary decodes have no
 * media bytes to compare; their `matched` is then empty).
 */
export function compareGwz(gwz: GwzArchive, gwc: GwcCartridge): GwzComparison {
  const present = gwc.media.filter((m) => m.valid !== 0);
  const gwzByType = countBy(gwz.media.map((m) => extensionKind(m.name, m.data)));
  const gwcByType = countBy(present.map((m) => mediaTypeName(m.type!)));
  const typeDifferences = dictionary<number>();
  for (const k of new Set([...Object.keys(gwzByType), ...Object.keys(gwcByType)])) {
    const d = (gwzByType[k] ?? 0) - (gwcByType[k] ?? 0);
    if (d) typeDifferences[k] = d;
  }
  const byDigest = new Map<string, number[]>();
  for (const m of present) if (m.data.length === m.length) byDigest.set(key(m.data), [...(byDigest.get(key(m.data)) ?? []), m.id]);
  const matched: { name: string; id: number }[] = [];
  const unmatched: string[] = [];
  const used = new Set<number>();
  for (const m of gwz.media) {
    const ids = (m.data.length === m.size ? byDigest.get(key(m.data)) : undefined)?.filter((id) => !used.has(id));
    if (ids?.length) {
      used.add(ids[0]!);
      matched.push({ name: m.name, id: ids[0]! });
    } else unmatched.push(m.name);
  }
  const orphans = new Map<string, { where: string; type: number }>();
  const addOrphan = (b: Uint8Array, where: string) => {
    if (b.length < 8) return;
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const len = dv.getInt32(4, true);
    if (len >= 0 && 8 + len === b.length) orphans.set(key(b.subarray(8)), { where, type: dv.getInt32(0, true) });
  };
  for (const m of present)
    (m.extraEntries ?? []).forEach((e, k) => {
      if (e.data.length === e.length) orphans.set(key(e.data), { where: `objects[${m.id}].extraEntries[${k}]`, type: e.type });
    });
  for (const [i, row] of gwc.table.entries()) addOrphan(row.gapBefore, `table[${i}].gapBefore`);
  addOrphan(gwc.trailing, 'trailing');
  const matchedOrphans = unmatched.flatMap((name) => {
    const m = gwz.media.find((x) => x.name === name)!;
    const o = orphans.get(key(m.data));
    return o ? [{ name, ...o }] : [];
  });
  const lua = gwz.lua.text;
  return {
    gwzMedia: gwz.media.length,
    gwcMedia: present.length,
    sameCount: gwz.media.length === present.length,
    gwzByType,
    gwcByType,
    typeDifferences,
    matched,
    unmatched,
    unmatchedIds: present.filter((m) => !used.has(m.id)).map((m) => m.id),
    matchedOrphans,
    referencedByLua: gwz.media.map((m) => m.name).filter((n) => lua.includes(`"${n}"`)),
  };
}

/** The media kind of a GWZ member: its bytes' signature when known, else its extension. */
function extensionKind(name: string, data: Uint8Array): string {
  const ext = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  const byExt = ext === 'jpeg' ? 'jpg' : ext;
  if (mediaTypeNumber(byExt) !== undefined) return byExt;
  return sniffMedia(data) ?? (byExt || 'unknown');
}

function countBy(xs: string[]): Record<string, number> {
  const out = dictionary<number>();
  for (const x of xs) countKey(out, x);
  return out;
}

/** sha256 of the bytes: equal media give equal keys. */
function key(d: Uint8Array): string {
  return sha256Hex(d);
}
