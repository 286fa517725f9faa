// Runs the `levelkit` command from source as a user would (node + tsx), with a timeout so a
// CLI that hangs on a FIFO or a link loop fails the test instead of blocking the suite.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './paths.js';

export const CLI_ARGV = ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];

/** Runs `levelkit …args` to completion (30 s at most) in the repo root. */
export function cli(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...CLI_ARGV, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
}

/**
 * Runs the built command (`dist/cli.mjs`, what `npx levelkit` runs; `npm run build` makes it) in
 * `cwd`, 30 s at most: for tests of what the shipped binary does to the files around it.
 */
export function bin(cwd: string, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [join(ROOT, 'dist/cli.mjs'), ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
}

/** Starts `levelkit …args` and leaves the streams to the caller. */
export function cliChild(...args: string[]) {
  return spawn(process.execPath, [...CLI_ARGV, ...args], { cwd: ROOT });
}

/** stdout of a --json run as one parsed object per line. */
// biome-ignore lint/suspicious/noExplicitAny: records of every shape are read field by field in tests; a union type would only add casts
export function jsonLines(stdout: string): Record<string, any>[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
