// The files a command is told to write (scan --out/--report, render -o/--sheet, report --report),
// checked together before the first is created, so a refused run leaves nothing behind and two
// outputs never land in one file. `-` is standard output. See src/scan/write.ts for how they are
// then written.
import * as fs from 'node:fs';
import { pathBytes, printable } from '../scan/names.js';
import { ioError, outputKeys } from '../scan/write.js';
import { UsageError } from './options.js';

/** The name that means standard output for --out, --report and -o. */
export const STDOUT = '-';

/** One output as the user gave it: the option (or what else writes there: `the records`) and its path; undefined when not asked for. */
export interface AskedOutput {
  option: string;
  path: string | undefined;
}

/**
 * Throws UsageError when two outputs are one file: the same path once resolved, a link to the
 * same file, a hard link, or standard output twice. The second would replace or interleave with
 * the first (`--out r.json --report r.json` used to end with the report alone).
 */
export function refuseSharedOutputs(outputs: readonly AskedOutput[]): void {
  const seen = new Map<string, AskedOutput>();
  const folders = new Map<string, string>();
  for (const o of outputs) {
    if (o.path === undefined) continue;
    const keys = o.path === STDOUT ? ['stdout'] : outputKeys(pathBytes(o.path), folders);
    const first = keys.map((k) => seen.get(k)).find((x) => x !== undefined);
    if (first) {
      const where = o.path === STDOUT ? 'standard output' : printable(o.path);
      throw new UsageError(`${first.option} and ${o.option} would both write ${where}; give each its own file`);
    }
    for (const k of keys) seen.set(k, o);
  }
}

/**
 * Checks a file the command will create, creating nothing: UsageError when something is there
 * (even a dangling link, which writing would follow to create its target) and `force` is not
 * set, or when it is a folder; OutputError `IO` when the path cannot name a file (a folder on
 * the way is a file).
 */
export function checkNewFile(option: string, path: string, force: boolean): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw ioError(pathBytes(path), e);
  }
  if (st.isDirectory()) throw new UsageError(`${option} ${printable(path)} is a folder; it needs a file name`);
  if (!force) throw new UsageError(`${printable(path)} exists (--force overwrites it)`);
}
