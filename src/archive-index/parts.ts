// The files of an index folder: `<dir>/<table>/part-<shard>-<run>-<seq>.parquet`, one per table per
// flush of a run or shard, so many machines can write into one shared folder and every part is
// read together. A part is written under a temporary name and renamed when whole.
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { TableName } from './schema.js';

/** Parquet files start and end with these four bytes; the footer's length sits just before the end. */
const MAGIC = Buffer.from('PAR1');

/** A part file that is not a whole Parquet file (cut short, or not Parquet at all). */
export class BrokenPart extends Error {
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`${file}: ${why}`);
    this.name = 'BrokenPart';
  }
}

export function partName(shard: string, run: string, seq: number): string {
  return `part-${shard}-${run}-${String(seq).padStart(4, '0')}.parquet`;
}

/** The parts of `table` in `dir`, sorted by name; each checked to be whole (its magic at both ends, a footer that fits). */
export function partsOf(dir: string, table: TableName): string[] {
  const folder = join(dir, table);
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const parts = names.filter((n) => n.startsWith('part-') && n.endsWith('.parquet')).sort();
  for (const n of parts) checkPart(join(folder, n));
  return parts.map((n) => join(folder, n));
}

function checkPart(file: string): void {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new BrokenPart(file, 'not a regular file');
    if (st.size < 12) throw new BrokenPart(file, `${st.size} bytes: too short to be a Parquet file (truncated?)`);
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(8);
    fs.readSync(fd, head, 0, 4, 0);
    fs.readSync(fd, tail, 0, 8, st.size - 8);
    if (!head.equals(MAGIC)) throw new BrokenPart(file, 'does not start as a Parquet file');
    if (!tail.subarray(4).equals(MAGIC)) throw new BrokenPart(file, 'does not end as a Parquet file (truncated?)');
    const footer = tail.readUInt32LE(0);
    if (footer > st.size - 12) throw new BrokenPart(file, `its footer (${footer} bytes) does not fit in the file (truncated?)`);
  } finally {
    fs.closeSync(fd);
  }
}
