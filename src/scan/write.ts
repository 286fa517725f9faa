// Writing outputs without losing data: every output path is known (and checked for clashes)
// before the first write, an existing file is kept unless the caller forces, and each file is
// written whole to a temporary name in its folder and then moved into place, so a crash or a
// full disk never leaves a half-written level where a good one was.
import * as fs from 'node:fs';
import { resolve } from 'node:path';
import { joinBytes } from './names.js';

/** Outputs that two or more inputs would write, with those inputs. */
export function findClashes(plan: readonly { input: Buffer; output: Buffer }[]): { output: Buffer; inputs: Buffer[] }[] {
  // latin1 maps bytes to characters one to one, so resolve() works on any name without changing it.
  const byOutput = new Map<string, { output: Buffer; inputs: Buffer[] }>();
  for (const { input, output } of plan) {
    const key = resolve(output.toString('latin1'));
    const seen = byOutput.get(key);
    if (seen) seen.inputs.push(input);
    else byOutput.set(key, { output, inputs: [input] });
  }
  return [...byOutput.values()].filter((c) => c.inputs.length > 1);
}

/** Whether anything (a file, a folder, even a dangling link) is at the path. */
export function exists(path: Buffer): boolean {
  try {
    fs.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes `bytes` to `path` through a temporary file in the same folder (creating folders as
 * needed). Returns false, writing nothing, when something is already at `path` and `force` is
 * not set. fs errors are thrown.
 */
export function writeNew(path: Buffer, bytes: Uint8Array, force: boolean): boolean {
  const slash = path.lastIndexOf(0x2f);
  const dir = slash < 0 ? Buffer.from('.') : slash === 0 ? Buffer.from('/') : path.subarray(0, slash);
  const base = path.subarray(slash + 1);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = joinBytes(dir, Buffer.concat([Buffer.from('.'), base, Buffer.from(`.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`)]));
  const fd = fs.openSync(tmp, 'wx');
  try {
    try {
      for (let off = 0; off < bytes.length; ) off += fs.writeSync(fd, bytes, off, bytes.length - off);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (force) fs.renameSync(tmp, path);
    else if (!linkNoClobber(tmp, path)) return false;
    return true;
  } finally {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* renamed away */
    }
  }
}

/**
 * link() fails when the target exists, so unlike a check followed by a rename it cannot
 * overwrite a file that appeared in between. File systems without hard links fall back to that
 * check and a rename.
 */
function linkNoClobber(tmp: Buffer, path: Buffer): boolean {
  try {
    fs.linkSync(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
    if (exists(path)) return false;
    fs.renameSync(tmp, path);
    return true;
  }
}
