// The levels a command's arguments stand for: files, folders (walked), `-` (standard input, its
// format told by content), zips of levels walked like folders with the scan's zip reader (its
// checks, limits and per-archive budget; nested zips as scan opens them), and one member named
// as `archive.zip::path/in/zip`. A zip named like a level (`.gwz`) is a level, as in scan.
import * as nodeFs from 'node:fs';
import { DEFAULT_LIMITS, detect, LEVEL_EXTENSIONS } from '../index.js';
import { extOf, pathBytes } from '../scan/names.js';
import { errorRecord, type FailedRecord, loadFile, type RecordCode } from '../scan/record.js';
import { walk } from '../scan/walk.js';
import {
  BytesReader,
  FileHandleReader,
  InflateBudget,
  isZipHead,
  MAX_ZIP_DEPTH,
  type Member,
  memberBytes,
  memberRefusal,
  members,
  ZipError,
  type ZipSource,
} from '../scan/zip.js';
import { type Options, UsageError } from './options.js';
import type { Reporter } from './report.js';

/** One level to work on. */
export interface LevelInput {
  /** The file on disk (`-` for standard input). */
  path: Buffer;
  /** Its path inside the zip `path` (nested zips joined with `/`), or null. */
  member: string | null;
  /** Where its outputs go below an output folder: a named file's name, a walked file's path below its folder, a member's below its archive's. */
  rel: Buffer;
  /** Named by the user (a file, `-`, `archive.zip::member`), not found in a folder or zip. */
  named: boolean;
  bytes: Uint8Array;
}

export type Input = { level: LevelInput } | { failed: FailedRecord } | { passed: 'unrecognised' | 'not-followed' };

export interface InputOptions {
  follow: boolean;
  /** Largest file, member or standard input read. */
  maxBytes: number;
  /** Each zip's inflate budget, as a multiple of its size (scan's --max-zip-ratio). */
  maxZipRatio: number;
  /** Levels found so far (files walked, members listed), for a progress total. */
  counts?: { found: number };
}

/** Separates an archive from the member it names: `levels.zip::maps/a.map`. */
export const MEMBER_SEPARATOR = '::';
const STDIN = Buffer.from('-');
const HEAD = 64;

/** The levels under `positionals`, in order: each one's bytes, or why it cannot be read, or a file passed over. */
export async function* levelInputs(positionals: readonly string[], opts: InputOptions): AsyncGenerator<Input> {
  const counts = opts.counts ?? { found: 0 };
  for (const given of positionals) {
    if (given === '-') {
      counts.found++;
      yield* stdinInputs(opts, counts);
      continue;
    }
    const addressed = memberAddress(given);
    if (addressed) {
      counts.found++;
      yield* zipFileInputs(addressed.archive, baseName(addressed.archive), { ...opts, counts }, addressed.member);
      continue;
    }
    // Walked to the end first, so the total is known before the first level is worked on.
    const entries = [...walk([given], { follow: opts.follow })];
    counts.found += entries.length;
    for (const entry of entries) {
      if (entry.kind === 'not-followed') {
        counts.found--;
        yield { passed: 'not-followed' };
        continue;
      }
      if (entry.kind === 'unreadable') {
        yield { failed: errorRecord(entry.path, entry.failure.code, entry.failure.message) };
        continue;
      }
      const loaded = loadFile(entry, { maxBytes: opts.maxBytes, archives: true });
      const rel = entry.named ? baseName(entry.path) : entry.rel;
      if (loaded === 'unrecognised') yield { passed: 'unrecognised' };
      else if (loaded === 'zip') yield* zipFileInputs(entry.path, rel, { ...opts, counts }, undefined);
      else if ('error' in loaded) yield { failed: loaded };
      else yield { level: { path: entry.path, member: null, rel, named: entry.named, bytes: loaded.bytes } };
    }
  }
}

/** `archive.zip::member` when the argument is not itself the name of something on disk. */
function memberAddress(given: string): { archive: Buffer; member: string } | undefined {
  const at = given.indexOf(MEMBER_SEPARATOR);
  if (at <= 0 || nodeFs.existsSync(given)) return undefined;
  return { archive: pathBytes(given.slice(0, at)), member: given.slice(at + MEMBER_SEPARATOR.length) };
}

function baseName(p: Buffer): Buffer {
  return p.subarray(p.lastIndexOf(0x2f) + 1);
}

interface ZipContext {
  path: Buffer;
  /** Output path of the archive (members go below it). */
  rel: Buffer;
  prefix: string;
  level: number;
  parent: InflateBudget | undefined;
  /** The one member wanted (the rest of `archive.zip::member` at this depth), or undefined for all. */
  want: string | undefined;
}

/** A zip on disk: opened like scan opens one (without blocking, regular files only), listed, its members read one at a time. */
async function* zipFileInputs(path: Buffer, rel: Buffer, opts: InputOptions & { counts: { found: number } }, want: string | undefined): AsyncGenerator<Input> {
  let fd: number | undefined;
  try {
    let source: ZipSource;
    try {
      fd = nodeFs.openSync(path, (nodeFs.constants.O_RDONLY ?? 0) | (nodeFs.constants.O_NONBLOCK ?? 0));
      const st = nodeFs.fstatSync(fd);
      if (!st.isFile()) {
        yield { failed: errorRecord(path, 'NOT_A_FILE', 'not a regular file; only regular files are read') };
        return;
      }
      source = new FileHandleReader(fd, st.size);
    } catch (e) {
      yield { failed: failure(path, null, 'IO', (e as Error).message) };
      return;
    }
    yield* zipInputs(source, { path, rel, prefix: '', level: 1, parent: undefined, want }, opts);
  } finally {
    if (fd !== undefined) nodeFs.closeSync(fd);
  }
}

async function* zipInputs(source: ZipSource, z: ZipContext, opts: InputOptions & { counts: { found: number } }): AsyncGenerator<Input> {
  let list: Member[];
  try {
    list = await members(source, opts.maxBytes);
  } catch (e) {
    if (!(e instanceof ZipError)) throw e;
    yield { failed: failure(z.path, z.prefix ? z.prefix.slice(0, -1) : null, e.code, `zip: ${e.message}`) };
    return;
  }
  const budget = new InflateBudget(source.size, opts.maxZipRatio, z.parent);
  let matched = false;
  if (z.want === undefined) opts.counts.found += list.filter((m) => m.kind === 'file').length - 1;
  for (const m of list) {
    if (m.kind === 'folder') continue;
    const member = z.prefix + m.name;
    const wanted = z.want === m.name;
    const inside = z.want?.startsWith(`${m.name}/`) === true;
    if (z.want !== undefined && !wanted && !inside) continue;
    matched = true;
    const refused = memberRefusal(m, opts.maxBytes, budget);
    if (refused) {
      yield { failed: failure(z.path, member, refused.code, refused.message) };
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await memberBytes(source, m);
    } catch (e) {
      if (!(e instanceof ZipError)) throw e;
      yield { failed: failure(z.path, member, e.code, `zip member: ${e.message}`) };
      continue;
    }
    const levelName = LEVEL_EXTENSIONS.includes(extOf(Buffer.from(m.name, 'utf8')));
    if (inside || (!levelName && isZipHead(bytes))) {
      if (z.level >= MAX_ZIP_DEPTH) {
        yield { failed: failure(z.path, member, 'LIMIT_EXCEEDED', `zip nested more than ${MAX_ZIP_DEPTH} deep`) };
        continue;
      }
      const want = inside ? z.want!.slice(m.name.length + 1) : undefined;
      yield* zipInputs(new BytesReader(bytes), { ...z, prefix: `${member}/`, level: z.level + 1, parent: budget, want }, opts);
      continue;
    }
    // As in a folder: a member neither named like a level nor claimed by a format is passed over.
    if (!wanted && !levelName && detect(bytes.subarray(0, HEAD)) === undefined) {
      yield { passed: 'unrecognised' };
      continue;
    }
    // A member named by the user is named like a file; the others keep their path below the archive's.
    const rel = wanted ? Buffer.from(m.name.slice(m.name.lastIndexOf('/') + 1), 'utf8') : Buffer.concat([z.rel, Buffer.from(`/${member}`, 'utf8')]);
    yield { level: { path: z.path, member, rel, named: wanted, bytes } };
  }
  if (z.want !== undefined && !matched)
    yield { failed: failure(z.path, z.prefix ? z.prefix.slice(0, -1) : null, 'NOT_FOUND', `no member '${z.want}' in this zip`) };
}

/**
 * Standard input, read to its end but never past `maxBytes` (reading stops there: LIMIT_EXCEEDED).
 * Its format is its content's: a zip holding a `.lua` at its root is a Wherigo GWZ (a level),
 * any other zip is walked as a zip of levels.
 */
async function* stdinInputs(opts: InputOptions, counts: { found: number }): AsyncGenerator<Input> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      n += chunk.length;
      if (n > opts.maxBytes) {
        yield { failed: failure(STDIN, null, 'LIMIT_EXCEEDED', `more than the ${opts.maxBytes}-byte limit (--max-bytes); reading stopped there`) };
        return;
      }
      chunks.push(chunk);
    }
  } catch (e) {
    yield { failed: failure(STDIN, null, 'IO', `cannot read standard input: ${(e as Error).message}`) };
    return;
  }
  const bytes = new Uint8Array(Buffer.concat(chunks, n));
  if (isZipHead(bytes) && !(await isGwz(bytes, opts.maxBytes))) {
    yield* zipInputs(
      new BytesReader(bytes),
      { path: STDIN, rel: Buffer.from('stdin'), prefix: '', level: 1, parent: undefined, want: undefined },
      { ...opts, counts },
    );
    return;
  }
  yield { level: { path: STDIN, member: null, rel: Buffer.from('stdin'), named: true, bytes } };
}

/** A GWZ holds its cartridge's Lua source at its root (see src/formats/gwc/gwz.ts); a zip whose directory cannot be read is left to the GWZ decoder to explain. */
async function isGwz(bytes: Uint8Array, maxBytes: number): Promise<boolean> {
  try {
    return (await members(new BytesReader(bytes), maxBytes)).some((m) => !m.name.includes('/') && /\.lua$/i.test(m.name));
  } catch {
    return true;
  }
}

function failure(path: Buffer, member: string | null, code: RecordCode, message: string): FailedRecord {
  return withMember(errorRecord(path, code, message), member);
}

/** A record about a level with its `member` (after `file`, as scan records have it) when the level is one. */
export function withMember<R extends { file: string; fileBytes?: string }>(r: R, member: string | null): R & { member?: string } {
  if (member === null) return r;
  const { file, fileBytes, ...rest } = r;
  return { file, ...(fileBytes === undefined ? {} : { fileBytes }), member, ...rest } as R & { member: string };
}

/** The level of an input, or undefined after counting what was passed over and reporting what failed. */
export function takeLevel(input: Input, out: Reporter): LevelInput | undefined {
  if ('level' in input) return input.level;
  if ('failed' in input) out.fail(input.failed);
  else if (input.passed === 'not-followed') out.tally.notFollowed++;
  else {
    out.tally.unrecognised++;
    out.tick();
  }
  return undefined;
}

/** The input options of the shared flags. */
export function inputOptions(o: Options, counts?: { found: number }): InputOptions {
  return {
    follow: o.follow,
    maxBytes: o.maxBytes,
    maxZipRatio: o.maxZipRatio ?? o.limits.maxZipRatio ?? DEFAULT_LIMITS.maxZipRatio,
    ...(counts ? { counts } : {}),
  };
}

/** Usage errors of the level arguments: none at all, `-` twice (standard input is read once). */
export function checkInputs(positionals: readonly string[], command: string): void {
  if (positionals.length === 0) throw new UsageError(`${command} needs at least one file, folder or zip (- reads standard input)`);
  if (positionals.filter((p) => p === '-').length > 1) throw new UsageError('- (standard input) can be given once');
}

/** How messages name a level: `file` or `archive.zip::member`. */
export function inputName(r: { file: string; member?: string }): string {
  return r.member === undefined ? r.file : `${r.file}${MEMBER_SEPARATOR}${r.member}`;
}
