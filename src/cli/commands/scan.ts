// `levelkit scan`: the bulk scan (src/scan/scan.ts) as a command: JSON lines to stdout or --out,
// progress and the summary table on stderr, --report as JSON. Ctrl-C stops the walk and the
// workers; every line written is whole, so the output stays valid JSONL.
import * as fs from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Inject } from '../../scan/job.js';
import { printable } from '../../scan/names.js';
import { type ScanOptions, type ScanStats, scan } from '../../scan/scan.js';
import { ReportBuilder, reportTable } from '../../scan/summary.js';
import type { Command } from '../command.js';
import { decodeOptions, UsageError } from '../options.js';

const LIVE_MS = 250;
const PLAIN_MS = 5000;

export const scanCommand: Command = {
  usage: 'levelkit scan <file|folder|zip…> [options]',
  summary: 'Scans folders and zips in parallel: one JSON line per level file, a summary table at the end.',
  options: [
    'out',
    'report',
    'depth',
    'workers',
    'max-bytes',
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
  optionHelp: {
    out: 'write the JSON lines to this file instead of stdout (an existing file is kept unless --force)',
    force: 'overwrite --out and --report files that exist',
  },
  async run({ options, positionals, raw }, reporter) {
    if (positionals.length === 0) throw new UsageError('scan needs at least one file, folder or zip');
    const workers = raw.workers === undefined ? availableParallelism() : wholeNumber('workers', raw.workers as string, 1, 1024);
    const timeout = raw.timeout === undefined ? 5 : positiveNumber('timeout', raw.timeout as string);
    const depth = (raw.depth ?? 'cheap') as string;
    if (depth !== 'cheap' && depth !== 'full') throw new UsageError(`--depth must be cheap or full; got '${depth}'`);
    const shard = raw.shard === undefined ? undefined : parseShard(raw.shard as string);
    const quiet = raw.quiet === true;
    const reportFile = raw.report as string | undefined;
    // Outputs are opened before the scan starts, so a refusal costs nothing.
    const flags = options.force ? 'w' : 'wx';
    let outFd: number | undefined;
    try {
      if (options.out) outFd = fs.openSync(options.out, flags);
      if (reportFile && !options.force && fs.existsSync(reportFile)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'EEXIST'
          ? `${options.out && outFd === undefined ? options.out : reportFile} exists (--force overwrites it)`
          : `cannot open output: ${(e as Error).message}`,
      );
    }

    const abort = new AbortController();
    let interrupted = false;
    const onSigint = () => {
      // The second Ctrl-C does not wait for the workers.
      if (interrupted) process.exit(130);
      interrupted = true;
      abort.abort();
    };
    process.on('SIGINT', onSigint);
    const stats: ScanStats = { found: 0, walkDone: false, replacedWorkers: 0 };
    const opts: ScanOptions = {
      depth,
      workers,
      timeoutMs: timeout * 1000,
      maxBytes: options.maxBytes,
      follow: options.follow,
      all: raw.all === true,
      sort: raw.sort === true,
      signal: abort.signal,
      stats,
      decode: decodeOptions(options),
      ...(shard ? { shard } : {}),
      ...testInjection(),
    };
    const progress = new Progress(quiet, stats);
    const report = new ReportBuilder();
    const started = performance.now();
    try {
      for await (const rec of scan(positionals, opts)) {
        report.add(rec);
        progress.add(rec.bytes ?? 0, rec.error !== undefined);
        const line = `${JSON.stringify(rec)}\n`;
        if (outFd !== undefined) fs.writeSync(outFd, line);
        else if (!process.stdout.write(line)) await new Promise((r) => process.stdout.once('drain', r));
      }
    } finally {
      process.off('SIGINT', onSigint);
      progress.clear();
      if (outFd !== undefined) fs.closeSync(outFd);
    }
    const summary = report.build((performance.now() - started) / 1000);
    if (reportFile) fs.writeFileSync(reportFile, `${JSON.stringify(summary, null, 2)}\n`);
    if (!quiet) {
      process.stderr.write(`levelkit scan${interrupted ? ' (interrupted: partial results)' : ''}\n${reportTable(summary)}`);
      if (stats.replacedWorkers)
        process.stderr.write(`${stats.replacedWorkers} worker${stats.replacedWorkers === 1 ? '' : 's'} replaced after a hang or crash\n`);
    }
    void reporter;
    if (interrupted) return 130;
    return Object.keys(summary.errors).length ? 2 : 0;
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

function wholeNumber(name: string, s: string, min: number, max: number): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got '${printable(s)}'`);
  return n;
}

function positiveNumber(name: string, s: string): number {
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
