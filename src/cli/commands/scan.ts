// `levelkit scan`: the bulk scan (src/scan/scan.ts) as a command. Its outputs are sinks
// (src/scan/sinks/) built from the options and fed every record: JSON lines to stdout or --out,
// the archive index (--index), progress on stderr, the summary (the table on stderr, --report as JSON). Ctrl-C, SIGTERM (Kubernetes, Slurm,
// `timeout`) and SIGHUP stop the walk and the workers; every line written is whole, so the output
// stays valid JSONL, and the summary and --report cover what was done.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { availableParallelism } from 'node:os';
import { EngineMissing } from '../../archive-index/engine.js';
import { BrokenPart } from '../../archive-index/parts.js';
import { indexedFiles, indexedPath, resumeSkip, rowOptions } from '../../archive-index/resume.js';
import { type IndexFs, IndexWriter } from '../../archive-index/writer.js';
import { RULE_IDS } from '../../check/registry.js';
import type { Inject } from '../../scan/job.js';
import { jsonText } from '../../scan/json-text.js';
import { LineFile } from '../../scan/line-file.js';
import { pathBytes, printable } from '../../scan/names.js';
import type { FileIdentity } from '../../scan/read.js';
import { type ScanOptions, type ScanStats, scan } from '../../scan/scan.js';
import { IndexSink } from '../../scan/sinks/archive-index.js';
import { JsonLinesSink } from '../../scan/sinks/json-lines.js';
import { ReportSink } from '../../scan/sinks/report.js';
import { feed, type Sink } from '../../scan/sinks/sink.js';
import { reportTable } from '../../scan/summary.js';
import { WORKERS_PER_CORE } from '../../scan/workers.js';
import { ioError, namedOutput, writeNew } from '../../scan/write.js';
import type { Command } from '../command.js';
import { decodeOptions, UsageError } from '../options.js';
import { checkNewFile, refuseSharedOutputs, STDOUT } from '../outputs.js';
import { SCAN_OPTIONS, scanSettings } from '../scan-args.js';
import { Progress } from '../scan-progress.js';
import { stdoutGone, stdoutReady, writeStdout } from '../stdout.js';
import { tuneTieringForScan } from '../tiering.js';

/** Signals that stop a scan the way Ctrl-C does, with the shell's exit code for each (128 + number). */
const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof STOP_SIGNALS;

export const scanCommand: Command = {
  usage: 'levelkit scan <file|folder|zip…> [options]',
  summary: 'Scans folders and zips in parallel: one JSON line per level file, a summary table at the end.',
  options: SCAN_OPTIONS,
  optionValue: { out: 'file' },
  optionHelp: {
    out: 'write the JSON lines to this file instead of stdout (an existing file is kept unless --force; - is stdout); with --index they are written only when --out is given',
    report: 'write the summary as JSON to this file (- is stdout, when --out names a file)',
    force: 'overwrite --out and --report files that exist',
  },
  async run(parsed, reporter) {
    const { options, positionals, raw } = parsed;
    const settings = scanSettings(parsed);
    const { workers, timeoutSeconds: timeout, workerMemoryMb: workerMemory, depth, shard, quiet, index: indexDir } = settings;
    if (settings.cappedFrom !== undefined && !quiet)
      process.stderr.write(
        `levelkit scan: --workers ${settings.cappedFrom} is more than ${WORKERS_PER_CORE} per core (${availableParallelism()} cores); running ${workers}\n`,
      );
    const reportArg = raw.report as string | undefined;
    // `-` is standard output, where the records go when --out names no file.
    const outFile = options.out === STDOUT ? undefined : options.out;
    // With --index, JSON lines are written only when --out asks for them.
    const recordsToStdout = options.out === STDOUT || (options.out === undefined && indexDir === undefined);
    const reportFile = reportArg === STDOUT ? undefined : reportArg;
    // Every output is checked before any is created, so a refused run leaves nothing behind.
    refuseSharedOutputs([
      { option: outFile === undefined ? 'the records' : '--out', path: outFile ?? (recordsToStdout ? STDOUT : undefined) },
      { option: '--report', path: reportArg },
    ]);
    if (outFile !== undefined) checkNewFile('--out', outFile, options.force);
    if (reportFile !== undefined) checkNewFile('--report', reportFile, options.force);

    // What shapes each file's rows: stored with them in the index, and what --resume compares.
    const shaping: ScanOptions = {
      depth,
      maxBytes: options.maxBytes,
      ...(options.maxZipRatio !== undefined ? { maxZipRatio: options.maxZipRatio } : {}),
      decode: decodeOptions(options),
      ...(settings.check ? { check: {} } : {}),
    };
    let index: IndexSink | undefined;
    let resume: ReturnType<typeof resumeSkip> | undefined;
    if (indexDir !== undefined) {
      const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
      const shape = rowOptions(shaping, RULE_IDS);
      try {
        resume = settings.resume ? resumeSkip(await indexedFiles(indexDir, shape)) : undefined;
        const writer = await IndexWriter.open(indexDir, { hash, rowOptions: shape, ...(shard ? { shard } : {}), ...testIndexOptions() });
        index = new IndexSink(writer, settings.check ? { rules: RULE_IDS } : undefined);
      } catch (e) {
        if (e instanceof EngineMissing) throw new UsageError(e.message);
        // A part or folder of the index that cannot be trusted: named in one line, nothing written.
        if (e instanceof BrokenPart) {
          process.stderr.write(`levelkit scan: broken index: ${printable(e.message)}\n`);
          return 2;
        }
        throw e;
      }
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
    // The scan's own outputs, skipped if the walk meets them (by identity: any path to them).
    const exclude: FileIdentity[] = [];
    // An old report being replaced (--force) is written to at the end; it is no input either.
    const oldReport = reportFile ? statIfAny(reportFile) : undefined;
    if (oldReport) exclude.push(identity(oldReport));
    const stats: ScanStats = { found: 0, walkDone: false, replacedWorkers: 0 };
    const opts: ScanOptions = {
      ...shaping,
      workers,
      timeoutMs: timeout * 1000,
      follow: options.follow,
      all: raw.all === true,
      sort: raw.sort === true,
      // Stopped by a signal, or when the reader of the records on stdout has gone (`| head`).
      signal: AbortSignal.any([abort.signal, stdoutGone]),
      stats,
      exclude,
      ...(workerMemory === undefined ? {} : { workerMemoryMb: workerMemory }),
      ...(shard ? { shard } : {}),
      ...(index ? { index: index.scanOption } : {}),
      ...(resume ? { skip: resume.skip } : {}),
      ...testInjection(),
    };
    // Opened last, once nothing else can refuse the run: no empty --out is left by a usage error.
    const records = outFile === undefined ? undefined : openRecords(outFile, options.force);
    if (records) exclude.push(identity(fs.fstatSync(records.fd, { bigint: true })));
    // Held until the report is written, so a stop during the last writes cannot cut them.
    for (const s of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(s, onSignal);
    // Fed in this order; the summary counts a record before any output can fail on it.
    const report = new ReportSink();
    const sinks: Sink[] = [report, new Progress(quiet, stats)];
    if (index) sinks.push(index);
    if (records) sinks.push(JsonLinesSink.toFile(records));
    else if (recordsToStdout) sinks.push(new JsonLinesSink({ write: writeStdout, ready: stdoutReady, gone: stdoutGone }));
    let reportKept = false;
    try {
      // The index names every file absolute (resume.ts indexedPath): one file is one row however its folder is typed.
      await feed(() => scan(indexDir === undefined ? positionals : positionals.map(indexedPath), opts), sinks);
      // The reader of the records left: stop as quietly as it did.
      if (stdoutGone.aborted) return 0;
      const summary = report.report();
      const summaryJson = `${jsonText(summary, 2)}\n`;
      if (reportArg === STDOUT) writeStdout(summaryJson);
      else if (reportFile && !writeNew(namedOutput(pathBytes(reportFile)), Buffer.from(summaryJson), options.force)) {
        // Someone saved a file there while the scan ran: theirs is kept, the summary is still printed below.
        process.stderr.write(`levelkit scan: --report: OUTPUT_EXISTS: ${printable(reportFile)} appeared during the scan; it was kept\n`);
        reportKept = true;
      }
      if (!quiet) {
        process.stderr.write(
          `levelkit scan${stoppedBy ? ` (interrupted: partial results; ${stoppedBy})` : ''}\n${reportTable(summary, report.builder.examples())}`,
        );
        if (index)
          process.stderr.write(
            `index        ${indexDir} (run ${index.writer.run}): ${[...index.writer.rows].map(([t, n]) => `${t} ${n}`).join(', ') || 'no rows'}` +
              `${stats.skipped ? `; ${stats.skipped} unchanged files skipped (--resume)` : ''}` +
              `${resume?.otherOptions ? `; ${resume.otherOptions} unchanged files decoded again: indexed with other options (--resume)` : ''}\n`,
          );
        if (stats.replacedWorkers)
          process.stderr.write(
            `${stats.replacedWorkers} worker${stats.replacedWorkers === 1 ? '' : 's'} replaced after a hang, a crash or running out of memory\n`,
          );
      }
      void reporter;
      if (stoppedBy) return STOP_SIGNALS[stoppedBy];
      return Object.keys(summary.errors).length || reportKept ? 2 : 0;
    } finally {
      for (const s of Object.keys(STOP_SIGNALS) as StopSignal[]) process.off(s, onSignal);
    }
  },
};

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

/**
 * Opens --out for the records (checked by checkNewFile already): created new, never through a
 * link (O_EXCL), unless --force, which truncates what is there (following a link, as a path to
 * /dev/stdout needs). Throws UsageError when a file appeared since the check, OutputError IO
 * when the system refuses.
 */
function openRecords(path: string, force: boolean): LineFile {
  const { O_WRONLY, O_CREAT, O_EXCL, O_TRUNC } = fs.constants;
  try {
    return new LineFile(fs.openSync(path, force ? O_WRONLY | O_CREAT | O_TRUNC : O_WRONLY | O_CREAT | O_EXCL, 0o666), pathBytes(path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${printable(path)} exists (--force overwrites it)`);
    throw ioError(pathBytes(path), e);
  }
}

/**
 * The index writer's test-only knobs: LEVELKIT_TEST_FLUSH_BYTES=<n> commits every n bytes of rows
 * (not every 256 MiB), so a small scan commits many times; LEVELKIT_TEST_ROW_GROUP_BYTES=<n> makes
 * a row group of n bytes of a table's rows (not 4 MiB), so a part grows by many groups between
 * commits; LEVELKIT_TEST_INDEX_KILL=<k> kills the process (SIGKILL, as a power cut stops it)
 * before the writer's k-th file operation, so a test stops it between any two of a commit's steps.
 */
function testIndexOptions(): { commitBytes?: number; rowGroupBytes?: number; fs?: IndexFs } {
  const knob = (v: string | undefined) => (Number.isSafeInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);
  const commitBytes = knob(process.env.LEVELKIT_TEST_FLUSH_BYTES);
  const rowGroupBytes = knob(process.env.LEVELKIT_TEST_ROW_GROUP_BYTES);
  const sizes = { ...(commitBytes ? { commitBytes } : {}), ...(rowGroupBytes ? { rowGroupBytes } : {}) };
  const kill = knob(process.env.LEVELKIT_TEST_INDEX_KILL);
  if (!kill) return sizes;
  let ops = 0;
  const before =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      if (++ops >= kill) process.kill(process.pid, 'SIGKILL');
      return f(...a);
    };
  const p = fs.promises;
  const io: IndexFs = {
    open: before(p.open),
    rename: before(p.rename),
    unlink: before(p.unlink),
    mkdir: before(p.mkdir) as IndexFs['mkdir'],
    rm: before(p.rm),
  };
  return { ...sizes, fs: io };
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
