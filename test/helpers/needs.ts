// Suites that need something from outside the repo (the shared corpus, a Chromium that starts).
// This file alone decides what happens when it is missing: locally the suite is skipped with a
// notice on stderr; with CI set, it fails, because a CI run that skipped its corpus or browser
// suites would look as green as one that ran them.
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import { corpusPath, REGRESSIONS } from './paths.js';

/** What a suite needs: the value, or a sentence saying what is missing and how to provide it. */
export type Need<T> = { ok: true; value: T } | { ok: false; missing: string };

/** True under CI (GitHub and most CI services set CI=true; CI=1 counts too, CI=false or 0 does not). */
export const IN_CI = !!process.env.CI && !/^(false|0)$/i.test(process.env.CI);

/** The shared corpus folder of `format` (../shared/corpus/<format>, or under LEVELKIT_CORPUS). */
export function corpus(format: string): Need<string> {
  const dir = corpusPath(format);
  if (existsSync(dir)) return { ok: true, value: dir };
  return { ok: false, missing: `${dir} not found (put ../shared/corpus beside the repo or set LEVELKIT_CORPUS)` };
}

/** The shared folder of real files that once failed (../shared/regressions, or LEVELKIT_REGRESSIONS). */
export function regressions(): Need<string> {
  if (existsSync(REGRESSIONS)) return { ok: true, value: REGRESSIONS };
  return { ok: false, missing: `${REGRESSIONS} not found (put ../shared/regressions beside the repo or set LEVELKIT_REGRESSIONS)` };
}

/** `describe(name, body)` when the need is met; otherwise skipped with a notice, or failing under CI. */
export function describeWith<T>(need: Need<T>, name: string, body: (value: T) => void): void {
  if (need.ok) describe(name, () => body(need.value));
  else cannotRun(name, need.missing);
}

/** `it(name, fn)` when the need is met; otherwise skipped with a notice, or failing under CI. */
export function itWith<T>(need: Need<T>, name: string, fn: (value: T) => unknown, timeout?: number): void {
  if (need.ok) it(name, () => fn(need.value), timeout);
  else cannotRun(name, need.missing);
}

/** A suite over the shared corpus of `format`, given its folder. */
export function describeCorpus(format: string, name: string, body: (dir: string) => void): void {
  describeWith(corpus(format), name, body);
}

/** One test over the shared corpus of `format`, given its folder. */
export function itCorpus(format: string, name: string, fn: (dir: string) => unknown, timeout?: number): void {
  itWith(corpus(format), name, fn, timeout);
}

function cannotRun(name: string, missing: string): void {
  if (IN_CI) {
    // A failing test rather than a throw at collection, so the rest of the file still runs and reports.
    it(`${name} [cannot run]`, () => {
      throw new Error(`${name} cannot run: ${missing}. CI is set, so this fails instead of skipping.`);
    });
    return;
  }
  // Local runs without ../shared or Chromium (a contributor's laptop): the suite shows up as skipped,
  // named with what is missing, and the notice above says how to provide it. CI never gets here.
  console.warn(`\n[levelkit] ${name} SKIPPED: ${missing}\n`);
  it.skip(`${name} [skipped: ${missing}]`, () => {});
}
