// Where fixtures and the shared corpus live, and file listing/reading helpers.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = join(ROOT, 'fixtures');
export const CORPUS = process.env.LEVELKIT_CORPUS ?? resolve(ROOT, '../shared/corpus');
/** Real files that once failed (../shared/regressions, beside the corpus), or LEVELKIT_REGRESSIONS. */
export const REGRESSIONS = process.env.LEVELKIT_REGRESSIONS ?? resolve(CORPUS, '../regressions');

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

/** Newest modification time (ms) of any file under `path`. */
function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((n) => newest(join(path, n))));
}

/**
 * Throws unless every one of `builds` (paths under the repository) exists and is newer than src/,
 * assembly/ and rollup.config.mjs: tests of dist/ fail rather than test old output.
 */
export function assertBuilt(builds: string[]): void {
  const built = Math.min(...builds.map((f) => statSync(join(ROOT, f), { throwIfNoEntry: false })?.mtimeMs ?? 0));
  const sources = Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'assembly')), newest(join(ROOT, 'rollup.config.mjs')));
  if (built < sources) throw new Error('dist/ is missing or older than src/, assembly/ or rollup.config.mjs: run `npm run build` (npm test does)');
}
