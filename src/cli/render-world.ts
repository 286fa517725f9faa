// `levelkit render world.gmap -o world.png`: a Graal .gmap is drawn as its world (src/render/
// world.ts), its levels read from beside it: the gmap's folder (regular files only, each size-
// checked before it is read, links not followed unless --follow), or the folder of the gmap's zip
// member in the same zip (each member under --max-bytes and the zip's inflate budget). Names match
// as a Graal server matches them (levelNameMatcher: as spelt, else in another case); a name with a
// path is never looked up, so nothing outside that folder or zip is read. Drawn on the main thread:
// the world's limits (cells, pixels) bound it, and its levels are small.

import * as nodeFs from 'node:fs';
import { type DecodeOptions, drawWorld, graal, levelNameMatcher, type Tileset, type World } from '../index.js';
import { displayName, printable } from '../scan/names.js';
import { readFileSafe } from '../scan/read.js';
import { errorOf } from '../scan/record.js';
import { FileHandleReader, type FileMember, InflateBudget, memberBytes, memberRefusal, members, ZipError } from '../scan/zip.js';
import { inputName, type LevelInput } from './inputs.js';
import type { PngEncode } from './png.js';
import { pictureOutputs, type RenderAnswer, type RenderJob, renderRefusal } from './render-level.js';

/** What a world's record says beyond a level's: its grid and the cells not drawn. */
export interface WorldRecord {
  columns: number;
  rows: number;
  /** Levels the gmap names that were not found beside it (or not read: `why`). */
  missing: { name: string; column: number; row: number; why?: string }[];
  /** Levels found that did not decode. */
  errors: { name: string; column: number; row: number; error: string }[];
}

/** How a run reads a world's levels. */
export interface WorldReading {
  maxBytes: number;
  maxZipRatio: number;
  follow: boolean;
  /** The --tileset picture. */
  tileset?: Tileset;
}

/** True for a .gmap's bytes: drawn as a world, not as a level. */
export const isWorld = (bytes: Uint8Array): boolean => graal.sniff(bytes.subarray(0, 8)) === 'graal-gmap';

/** Draws gmap `level` as its world; never throws for the world's content (its gmap failing to decode, or a limit, is its error). */
export async function renderWorld(level: LevelInput, job: RenderJob, reading: WorldReading, encodePng: PngEncode): Promise<RenderAnswer> {
  let gmap: ReturnType<typeof graal.decodeGmap>;
  try {
    gmap = graal.decodeGmap(level.bytes, job.decode);
  } catch (e) {
    return { error: errorOf(e) };
  }
  const names = new Set(gmap.levels.flat().map((n) => n.text));
  const base = { format: gmap.format, warnings: gmap.warnings.length, layers: [], markers: 0 };
  if (![...names].some((n) => n.trim() !== '')) {
    const empty = gmap.withoutLevelNames ? 'a generated map (no LEVELNAMES): its server makes its levels' : 'the gmap names no levels';
    return { drawn: { ...base, width: 0, height: 0, tilesWide: 0, tilesHigh: 0, empty } };
  }
  const notes: string[] = [];
  const why = new Map<string, string>();
  let found: Map<string, Uint8Array>;
  try {
    found = await levelsBeside(level, { names, reading, why, notes });
  } catch (e) {
    return { error: errorOf(e) };
  }
  let world: World;
  try {
    world = drawWorld(gmap, (name) => found.get(name), {
      ...(job.render.scale === undefined ? {} : { scale: job.render.scale }),
      ...(reading.tileset ? { tileset: reading.tileset } : {}),
      decode: job.decode as DecodeOptions,
    });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return { error: renderRefusal(e) };
  }
  const record: WorldRecord = { columns: world.columns, rows: world.rows, missing: [], errors: [] };
  for (const c of world.cells) {
    if (c.state === 'error') record.errors.push({ name: c.name, column: c.column, row: c.row, error: c.error ?? '' });
    else if (c.state === 'missing' && c.name.trim() !== '') {
      const reason = c.error ?? why.get(c.name);
      record.missing.push({ name: c.name, column: c.column, row: c.row, ...(reason ? { why: reason } : {}) });
    }
  }
  // One line a cell not drawn, so a list of what to fetch is a grep away.
  const shown = printable(inputName({ file: displayName(level.path), ...(level.member === null ? {} : { member: level.member }) }));
  for (const m of record.missing)
    process.stderr.write(
      `levelkit render: ${shown}: missing level ${printable(m.name)} (column ${m.column}, row ${m.row})${m.why ? `: ${printable(m.why)}` : ''}\n`,
    );
  for (const m of record.errors)
    process.stderr.write(`levelkit render: ${shown}: level ${printable(m.name)} (column ${m.column}, row ${m.row}) did not decode: ${printable(m.error)}\n`);
  return {
    drawn: {
      ...base,
      width: world.width,
      height: world.height,
      tilesWide: Math.round(world.width / world.scale),
      tilesHigh: Math.round(world.height / world.scale),
      world: record,
      ...pictureOutputs(world, job, encodePng),
    },
    ...(notes.length ? { notes } : {}),
  };
}

/** The level names a gmap wants, how to read them, and where to say why one was not read (`why`, by name) or what was not looked at (`notes`). */
interface Wanted {
  names: Set<string>;
  reading: WorldReading;
  why: Map<string, string>;
  notes: string[];
}

/** The bytes of the levels `names` beside the gmap, by the name the gmap spells; why a matching file was not read goes to `why`. */
async function levelsBeside(level: LevelInput, want: Wanted): Promise<Map<string, Uint8Array>> {
  const { names, reading, why, notes } = want;
  const out = new Map<string, Uint8Array>();
  if (level.path.equals(Buffer.from('-'))) {
    notes.push('a .gmap read from standard input has no folder: its levels are not looked for');
    return out;
  }
  if (level.member !== null) return levelsInZip(level.path, level.member, want);
  const slash = level.path.lastIndexOf(0x2f);
  const dir = slash < 0 ? Buffer.from('.') : level.path.subarray(0, slash + 1);
  const files = new Map<string, Buffer>();
  for (const f of nodeFs.readdirSync(dir, { encoding: 'buffer' })) files.set(f.toString('utf8'), f);
  const match = levelNameMatcher(files.keys());
  for (const name of names) {
    const file = match(name);
    if (file === undefined) continue;
    const path = Buffer.concat([dir, slash < 0 ? Buffer.from('/') : Buffer.alloc(0), files.get(file)!]);
    const r = readFileSafe(path, { maxBytes: reading.maxBytes, noFollow: !reading.follow });
    if ('bytes' in r) out.set(name, r.bytes);
    else if ('failure' in r) why.set(name, `${r.failure.code}: ${r.failure.message}`);
  }
  return out;
}

/** The levels `names` among the members of the gmap's own folder in its zip (opened as render opens one: a regular file, without blocking). */
async function levelsInZip(path: Buffer, member: string, { names, reading, why, notes }: Wanted): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const fd = nodeFs.openSync(path, (nodeFs.constants.O_RDONLY ?? 0) | (nodeFs.constants.O_NONBLOCK ?? 0));
  try {
    const st = nodeFs.fstatSync(fd);
    if (!st.isFile()) return out;
    const source = new FileHandleReader(fd, st.size);
    const list = await members(source, reading.maxBytes);
    if (!list.some((m) => m.name === member)) {
      notes.push(`${printable(member)} is inside a zip in a zip: its levels are not looked for there`);
      return out;
    }
    const folder = member.slice(0, member.lastIndexOf('/') + 1);
    const beside = new Map<string, FileMember>();
    for (const m of list)
      if (m.kind === 'file' && m.name.startsWith(folder) && !m.name.includes('/', folder.length)) beside.set(m.name.slice(folder.length), m);
    const match = levelNameMatcher(beside.keys());
    const budget = new InflateBudget(source.size, reading.maxZipRatio);
    for (const name of names) {
      const file = match(name);
      if (file === undefined) continue;
      const m = beside.get(file)!;
      const refused = memberRefusal(m, reading.maxBytes, budget);
      if (refused) {
        why.set(name, `${refused.code}: ${refused.message}`);
        continue;
      }
      try {
        out.set(name, await memberBytes(source, m));
      } catch (e) {
        if (!(e instanceof ZipError)) throw e;
        why.set(name, `${e.code}: zip member: ${e.message}`);
      }
    }
    return out;
  } finally {
    nodeFs.closeSync(fd);
  }
}
