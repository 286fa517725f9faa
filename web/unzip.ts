// A dropped zip, opened as `levelkit scan` opens one: the same checked directory reader
// (src/scan/zip-directory.ts: overlapping members and members running into the directory refuse
// the zip whole), the same per-archive inflate budget (nested zips charge every zip around them),
// the same depth limit, and the members listed under the same names (`outer.zip/inner.zip/a.nw`
// is `inner.zip/a.nw` here, the dropped zip being the file). Inflating is pako in raw mode (the
// inflater's TS twin), stopped as soon as a member would pass its declared size, so a member that lies about its size costs no
// more than it declared.

import { DEFAULT_LIMITS, detect, LEVEL_EXTENSIONS } from '../src/index.js';
import { inflateRawInto } from '../src/kernels/js/inflate.js';
import { Status, statusName } from '../src/kernels/status.js';
import { BytesReader, checkRawSize, corrupt, type FileMember, InflateBudget, isZipHead, MAX_ZIP_DEPTH, members, ZipError } from '../src/scan/zip-directory.js';
import type { ZipMember } from './protocol.js';

/** A name with a level file's extension (`levelkit scan` lists such files even when their content is no level). */
export const namedLikeLevel = (name: string) => LEVEL_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

/** A member's bytes: stored as is, or deflated and inflated to exactly its declared size (ZipError otherwise). */
function inflateMember(zip: Uint8Array, m: FileMember): Uint8Array {
  if (m.fault) throw corrupt(m.fault);
  const raw = zip.subarray(m.dataStart, m.dataStart + m.compressedSize);
  checkRawSize(raw, m);
  if (m.method === 0) return raw.slice();
  const out = new Uint8Array(m.size);
  const status = inflateRawInto(raw, out);
  if (status === Status.OVERFLOW) throw corrupt(`inflates past the ${m.size} bytes the directory declares`);
  if (status === Status.SHORT_OUTPUT) throw corrupt(`inflates to fewer bytes than the ${m.size} the directory declares`);
  if (status < 0) throw corrupt(`does not inflate (${statusName(status)})`);
  return out;
}

/**
 * The members of a dropped zip that `levelkit scan` would list: levels by content or by name, and
 * one refused row (with the scan's code) for each member it would report as failed. A zip whose
 * directory cannot be read is a ZipError for the caller (the file itself failed).
 */
export async function levelFilesIn(bytes: Uint8Array, ratio = DEFAULT_LIMITS.maxZipRatio): Promise<ZipMember[]> {
  const out: ZipMember[] = [];
  await visit(bytes, '', 1, undefined, ratio, out, true);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

async function visit(
  bytes: Uint8Array,
  prefix: string,
  depth: number,
  parent: InflateBudget | undefined,
  ratio: number,
  out: ZipMember[],
  top: boolean,
): Promise<void> {
  const refuse = (name: string, code: string, message: string) => out.push({ name, bytes: new Uint8Array(0), refused: { code, message } });
  let list: Awaited<ReturnType<typeof members>>;
  try {
    list = await members(new BytesReader(bytes), DEFAULT_LIMITS.maxInflatedBytes);
  } catch (e) {
    // The dropped zip failing is the caller's error; a nested one failing is a row, as in the scan.
    if (top || !(e instanceof ZipError)) throw e;
    refuse(prefix.slice(0, -1), e.code, `zip: ${e.message}`);
    return;
  }
  const budget = new InflateBudget(bytes.length, ratio, parent);
  for (const m of list) {
    if (m.kind === 'folder') continue;
    const name = prefix + m.name;
    if (m.size > DEFAULT_LIMITS.maxInflatedBytes || m.compressedSize > DEFAULT_LIMITS.maxInflatedBytes) {
      refuse(name, 'LIMIT_EXCEEDED', `${Math.max(m.size, m.compressedSize)} bytes, over the ${DEFAULT_LIMITS.maxInflatedBytes}-byte limit per member`);
      continue;
    }
    if (m.fault) {
      refuse(name, 'CORRUPT_ARCHIVE', `zip member: ${m.fault}`);
      continue;
    }
    // Charged before inflating: inflating stops at the declared size, so that is all it can cost.
    const over = budget.charge(m.size);
    if (over) {
      refuse(name, 'LIMIT_EXCEEDED', over);
      continue;
    }
    let member: Uint8Array;
    try {
      member = inflateMember(bytes, m);
    } catch (e) {
      if (!(e instanceof ZipError)) throw e;
      refuse(name, e.code, `zip member: ${e.message}`);
      continue;
    }
    const levelName = namedLikeLevel(name);
    if (!levelName && isZipHead(member)) {
      if (depth >= MAX_ZIP_DEPTH) refuse(name, 'LIMIT_EXCEEDED', `zip nested more than ${MAX_ZIP_DEPTH} deep`);
      else await visit(member, `${name}/`, depth + 1, budget, ratio, out, false);
      continue;
    }
    // An empty member can only be listed (named like a level: the scan's UNKNOWN_FORMAT).
    if (member.length === 0 && !levelName) continue;
    if (levelName || detect(member) !== undefined) out.push({ name, bytes: member });
  }
}
