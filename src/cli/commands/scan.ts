// `levelkit scan`: the bulk scan (src/scan/scan.ts) as a command: JSON lines to stdout or --out,
// progress and the summary table on stderr, --report as JSON. Ctrl-C, SIGTERM (Kubernetes, Slurm,
// `timeout`) and SIGHUP stop the walk and the workers; every line written is whole, so the output
// stays valid JSONL, and the summary and --report cover what was done.
import * as fs from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Inject } from '../../scan/job.js';
import { jsonText } from '../../scan/json-text.js';
import { recordLine } from '../../scan/line.js';
import { pathBytes, printable } from '../../scan/names.js';
import type { FileIdentity } from '../../scan/read.js';
import { MIN_WORKER_MEMORY_MB, type ScanOptions, type ScanStats, scan } from '../../scan/scan.js';
import { ReportBuilder, reportTable } from '../../scan/summary.js';
import { ioError } from '../../scan/write.js';
import type { Command } from '../command.js';
import { decodeOptions, UsageError } from '../options.js';
import { tuneTieringForScan } from '../tiering.js';

const LIVE_MS = 250;
const PLAIN_MS = 5000;
/** Signals that stop a scan the way Ctrl-C does, with the shell's exit code for each (128 + number). */
const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof STOP_SIGNALS;

export const scanCommand: Command = {
  usage: 'levelkit scan <file|folder|zip…> [options]',
  summary: 'Scans folders and zips in parallel: one JSON line per level file, a summary table at the end.',
  options: [
    'out',
    'report',
    'depth',
    'workers',
    'worker-memory',
    'max-bytes',
    'max-zip-ratio',
    'max-cells',
    'max-inflated',
    'limit',
    'timeout',
    'all',
    'sort',
    'shard',
    'quiet',
    'follow',
    'force',
    'strict',
    'backend',
    'inflate',
    'encoding',
  ],
  optionValue: { out: 'file' },
  optionHelp: {
    out: 'write the JSON lines to this file instead of stdout (an existing file is kept unless --force)',
    force: 'overwrite --out and --report files that exist',
  },
  async run({ options, positionals, raw }, reporter) {
    if (positionals.length === 0) throw new UsageError('scan needs at least one file, folder or zip');
    const workers = raw.workers === undefined ? availableParallelism() : wholeNumber('workers', raw.workers as string, 1, 1024);
    const timeout = raw.timeout === undefined ? 5 : positiveNumber('timeout', raw.timeout as string);
    const workerMemory =
      raw['worker-memory'] === undefined ? undefined : wholeNumber('worker-memory', raw['worker-memory'] as string, MIN_WORKER_MEMORY_MB, 2 ** 20);
    const depth = (raw.depth ?? 'cheap') as string;
    if (depth !== 'cheap' && depth !== 'full') throw new UsageError(`--depth must be cheap or full; got '${depth}'`);
    const shard = raw.shard === undefined ? undefined : parseShard(raw.shard as string);
    const quiet = raw.quiet === true;
    const reportFile = raw.report as string | undefined;
    // Outputs are opened before the scan starts, so a refusal costs nothing.
    const flags = options.force ? 'w' : 'wx';
    let outFd: number | undefined;
    // The scan's own outputs, skipped if the walk meets them (by identity: any path to them).
    const exclude: FileIdentity[] = [];
    try {
      if (options.out) {
        outFd = fs.openSync(options.out, flags);
        exclude.push(identity(fs.fstatSync(outFd, { bigint: true })));
      }
      if (reportFile && !options.force && fs.existsSync(reportFile)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
      // An old report being replaced (--force) is written to at the end; it is no input either.
      const oldReport = reportFile ? statIfAny(reportFile) : undefined;
      if (oldReport) exclude.push(identity(oldReport));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'EEXIST'
          ? `${options.out && outFd === undefined ? options.out : reportFile} exists (--force overwrites it)`
          : `cannot open output: ${(e as Error).message}`,
      );
    }

    tuneTieringForScan();
    const abort = new AbortController();
    let stoppedBy: StopSignal | undefined;
    const onSignal = (signal: StopSignal) => {
      // A second signal does not wait for the workers.
      if (stoppedBy) process.exit(STOP_SIGNALS[signal]);
      stoppedBy = signal;
      abort.abort();
    };
    // Held until the report is written, so a stop during the last writes cannot cut them.
    for (const s of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(s, onSignal);
    const stats: ScanStats = { found: 0, walkDone: false, replacedWorkers: 0 };
    const opts: ScanOptions = {
      depth,
      workers,
      timeoutMs: timeout * 1000,
      maxBytes: options.maxBytes,
      ...(options.maxZipRatio !== undefined ? { maxZipRatio: options.maxZipRatio } : {}),
      follow: options.follow,
      all: raw.all === true,
      sort: raw.sort === true,
      signal: abort.signal,
      stats,
      exclude,
      ...(workerMemory === undefined ? {} : { workerMemoryMb: workerMemory }),
      decode: decodeOptions(options),
      ...(shard ? { shard } : {}),
      ...testInjection(),
    };
    const progress = new Progress(quiet, stats);
    const report = new ReportBuilder();
    const started = performance.now();
    try {
      try {
        for await (const rec of scan(positionals, opts)) {
          report.add(rec);
          progress.add(rec.bytes ?? 0, rec.error !== undefined);
          const line = `${recordLine(rec)}\n`;
          if (outFd !== undefined) writeOrFail(options.out!, () => fs.writeSync(outFd, line));
          else if (!process.stdout.write(line)) await new Promise((r) => process.stdout.once('drain', r));
        }
      } finally {
        progress.clear();
        if (outFd !== undefined) fs.closeSync(outFd);
      }
      const summary = report.build((performance.now() - started) / 1000);
      if (reportFile) writeOrFail(reportFile, () => fs.writeFileSync(reportFile, `${jsonText(summary, 2)}\n`));
      if (!quiet) {
        process.stderr.write(`levelkit scan${stoppedBy ? ` (interrupted: partial results; ${stoppedBy})` : ''}\n${reportTable(summary, report.examples())}`);
        if (stats.replacedWorkers)
          process.stderr.write(
            `${stats.replacedWorkers} worker${stats.replacedWorkers === 1 ? '' : 's'} replaced after a hang, a crash or running out of memory\n`,
          );
      }
      void reporter;
      if (stoppedBy) return STOP_SIGNALS[stoppedBy];
      return Object.keys(summary.errors).length ? 2 : 0;
    } finally {
      for (const s of Object.keys(STOP_SIGNALS) as StopSignal[]) process.off(s, onSignal);
    }
  },
};

/** Progress on stderr: a live line on a terminal, a plain line every few seconds otherwise, nothing with --quiet. */
class Progress {
  private files = 0;
  private bytes = 0;
  private errors = 0;
  private last = performance.now();
  private readonly started = performance.now();
  private drawn = false;
  private readonly live = process.stderr.isTTY === true;

  constructor(
    private readonly quiet: boolean,
    private readonly stats: ScanStats,
  ) {}

  add(bytes: number, failed: boolean): void {
    this.files++;
    this.bytes += bytes;
    if (failed) this.errors++;
    if (this.quiet) return;
    const now = performance.now();
    if (now - this.last < (this.live ? LIVE_MS : PLAIN_MS)) return;
    this.last = now;
    const s = (now - this.started) / 1000;
    const rate = this.files / s;
    let line = `scan: ${this.files} files, ${(this.bytes / 2 ** 20).toFixed(1)} MB, ${rate.toFixed(0)} files/s, ${(this.bytes / 2 ** 20 / s).toFixed(1)} MB/s, ${this.errors} errors`;
    // The total is known only once the walk has ended; members of zips are not in it.
    if (this.stats.walkDone && this.stats.found > this.files) line += `, ETA ${Math.ceil((this.stats.found - this.files) / Math.max(rate, 1e-9))} s`;
    if (this.live) {
      process.stderr.write(`\r\x1b[K${line}`);
      this.drawn = true;
    } else process.stderr.write(`${line}\n`);
  }

  clear(): void {
    if (this.drawn) process.stderr.write('\r\x1b[K');
    this.drawn = false;
  }
}

/** The file at `path` if there is one; a path that cannot name a file (a parent that is a file) has none, and writing it fails later as IO. */
function statIfAny(path: string): fs.BigIntStats | undefined {
  try {
    return fs.statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function identity(st: fs.BigIntStats): FileIdentity {
  return { dev: st.dev, ino: st.ino };
}

/** Runs a write to the named output; a failure (a full disk) is an IO error naming that file, not an internal error. */
function writeOrFail(name: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    throw ioError(pathBytes(name), e);
  }
}

function parseShard(s: string): { index: number; count: number } {
  const m = /^(\d+|auto)\/(\d+)$/.exec(s);
  if (!m) throw new UsageError(`--shard must be k/n or auto/n; got '${s}'`);
  const count = Number(m[2]);
  let k: string | undefined = m[1];
  if (k === 'auto') {
    // Kubernetes Indexed Jobs count from 0; Slurm arrays from whatever --array says, so subtract its minimum.
    const slurm = process.env.SLURM_ARRAY_TASK_ID;
    k = process.env.JOB_COMPLETION_INDEX ?? (slurm === undefined ? undefined : String(Number(slurm) - Number(process.env.SLURM_ARRAY_TASK_MIN ?? 0)));
    if (k === undefined) throw new UsageError('--shard auto/n needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID in the environment');
  }
  const index = Number(k);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 0 || index >= count) {
    throw new UsageError(`--shard: k must be 0…n-1 and n ≥ 1; got ${index}/${count}`);
  }
  return { index, count };
}

export function wholeNumber(name: string, s: string, min: number, max: number): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got '${printable(s)}'`);
  return n;
}

export function positiveNumber(name: string, s: string): number {
  const n = Number(s);
  if (!/^\d+(\.\d+)?$/.test(s) || !(n > 0)) throw new UsageError(`--${name} must be a positive number; got '${printable(s)}'`);
  return n;
}

/** LEVELKIT_TEST_INJECT=hang=<text>,crash=<text>: the test-only fault injection of scan() (see src/scan/job.ts). */
function testInjection(): { inject?: Inject } {
  const v = process.env.LEVELKIT_TEST_INJECT;
  if (!v) return {};
  const inject: Inject = {};
  for (const part of v.split(',')) {
    const [k, text] = part.split('=');
    if ((k === 'hang' || k === 'crash') && text) inject[k] = text;
  }
  return { inject };
}
