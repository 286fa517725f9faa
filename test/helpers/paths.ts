// Where fixtures and the shared corpus live, and a visible skip when the corpus is absent.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = join(ROOT, 'fixtures');
export const CORPUS = process.env.LEVELKIT_CORPUS ?? resolve(ROOT, '../shared/corpus');

/** The corpus folder of one format, or null (with a notice on stderr) when it is absent. */
export function corpusDir(format: string): string | null {
  const dir = join(CORPUS, format);
  if (existsSync(dir)) return dir;
  console.warn(`\n[levelkit] corpus suite for ${format} SKIPPED: ${dir} not found (put ../shared/corpus beside the repo or set LEVELKIT_CORPUS)\n`);
  return null;
}

/** Every file under `dir` (recursive) whose name matches `pattern`, sorted. */
export function listFiles(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (pattern.test(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

export function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
