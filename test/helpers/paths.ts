// Where fixtures and the shared corpus live, and file listing/reading helpers.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = join(ROOT, 'fixtures');
export const CORPUS = process.env.LEVELKIT_CORPUS ?? resolve(ROOT, '../shared/corpus');

/** Where the shared corpus of `format` is expected; it may be absent (see corpus() in needs.ts). */
export function corpusPath(format: string): string {
  return join(CORPUS, format);
}

/**
 * For benchmarks: the corpus folder of `format`, or null with a notice on stderr. Tests use
 * describeCorpus / itCorpus (needs.ts) instead, which fail rather than skip under CI.
 */
export function corpusDir(format: string): string | null {
  const dir = corpusPath(format);
  if (existsSync(dir)) return dir;
  console.warn(`\n[levelkit] corpus rows for ${format} SKIPPED: ${dir} not found (put ../shared/corpus beside the repo or set LEVELKIT_CORPUS)\n`);
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
