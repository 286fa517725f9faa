// Runs the `levelkit` command from source as a user would (node + tsx), with a timeout so a
// CLI that hangs on a FIFO or a link loop fails the test instead of blocking the suite.
import { type ChildProcessWithoutNullStreams, type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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

/** The built command (`npm run build`), as `npx levelkit` runs it once installed. */
export const BIN = join(ROOT, 'dist/cli.mjs');

export interface BinOptions {
  /** Node's own flags, before the script (`--max-old-space-size=4096`). */
  nodeFlags?: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/** Starts the built `levelkit …args` (dist/cli.mjs) under `node …nodeFlags`; the caller handles the streams. */
export function binChild(args: string[], opts: BinOptions = {}) {
  assertBuilt();
  return spawn(process.execPath, [...(opts.nodeFlags ?? []), BIN, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env } });
}

/** Runs the built `levelkit …args` to completion (60 s at most); resolves with exit code, signal and output. */
export function runBin(args: string[], opts: BinOptions = {}): Promise<ProcessResult> {
  return completion(binChild(args, opts), `levelkit ${args.join(' ')}`, 60_000);
}

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's output until it closes; rejects (and kills it) past `ms`. */
export function completion(child: ChildProcessWithoutNullStreams, what: string, ms: number): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    // Decoded as a stream: a chunk may end inside a multi-byte character (a query's output of
    // 'objGrüße2' once read as 'objGrü\ufffd\ufffde2' when decoded chunk by chunk).
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} took over ${ms / 1000} s`));
    }, ms);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Fails (instead of testing an old build) when dist/cli.mjs is missing or older than a source file under src/ (READMEs do not count). */
function assertBuilt(): void {
  const built = statSync(BIN, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce(
      (m, e) => Math.max(m, e.isDirectory() ? newest(join(dir, e.name)) : e.name.endsWith('.ts') ? statSync(join(dir, e.name)).mtimeMs : 0),
      0,
    );
  if (built < newest(join(ROOT, 'src'))) throw new Error('dist/cli.mjs is missing or older than src/: run `npm run build`');
}
