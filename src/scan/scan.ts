// The bulk scan as a pipeline of stages, each in a module of its own: validate the options
// (scan-options.ts), walk the paths and turn files into tasks (visit.ts over walk.ts), list the
// zips found (archives.ts), schedule tasks over the worker pool with back-pressure (schedule.ts,
// pool.ts), decode in the workers (job.ts), and yield the records, in completion order or sorted
// at the end. Where they go is the caller's: the CLI feeds them to sinks (sinks/). See
// src/scan/README.md.
import { newDigestBuffer } from '../archive-index/digest-cache.js';
import { compileWasm, type DecodeOptions } from '../index.js';
import { Archives } from './archives.js';
import type { ScanConfig, ScanRecord } from './job.js';
import { noStageTimes } from './job.js';
import type { SpawnWorker } from './pool.js';
import { nodeWorkers } from './pool-node.js';
import { type CheckedScanOptions, checkScanOptions, type ScanOptions, type ScanStats } from './scan-options.js';
import { Schedule } from './schedule.js';
import { unchangedFilter } from './task.js';
import { walkFiles } from './visit.js';

export type { ScanRecord } from './job.js';
export type { ResumeKey, ScanOptions, ScanStats } from './scan-options.js';
export { recordMtimeMs } from './schedule.js';
export { shardOf } from './visit.js';
export { MIN_WORKER_MEMORY_MB } from './workers.js';

/**
 * Scans files, folders and the zips in them; yields one record per file in completion order.
 * Never throws for a bad file: every failure is that file's record. Bad options throw here, at
 * the call (TypeError or RangeError naming the option), before any worker starts or file is read.
 */
export function scan(paths: readonly (string | Buffer)[], options: ScanOptions = {}): AsyncGenerator<ScanRecord> {
  return scanChecked(paths, options, checkScanOptions(paths, options));
}

async function* scanChecked(paths: readonly (string | Buffer)[], options: ScanOptions, checked: CheckedScanOptions): AsyncGenerator<ScanRecord> {
  const stats = statsOf(options);
  const spawn = options.spawn ?? (await nodeSpawn(options, checked));
  const config = workerConfig(options, checked);
  const schedule = new Schedule(spawn, config, checked, options, stats);
  const unchanged = unchangedFilter(options, stats);
  const archives = new Archives(schedule, checked, options, unchanged);
  schedule.listZipsWith(archives);
  const walk = schedule.followWalk(walkFiles(paths, { options, config, schedule, stats, unchanged }));
  const sorted: ScanRecord[] = [];
  try {
    for (;;) {
      for (let r = schedule.take(); r; r = schedule.take()) {
        if (options.sort) sorted.push(r);
        else yield r;
      }
      if (schedule.finished()) break;
      await schedule.next();
    }
    await schedule.walkEnded(walk);
    if (options.sort) yield* sorted.sort(compareRecords);
  } finally {
    schedule.close();
    archives.close();
  }
}

function statsOf(options: ScanOptions): ScanStats {
  const stats = options.stats ?? { found: 0, walkDone: false, replacedWorkers: 0 };
  stats.workerStages ??= noStageTimes();
  stats.walkMs ??= 0;
  return stats;
}

/** Node's worker threads, sharing one compile of the kernels; a host without WASM leaves the workers on the JS kernels. */
async function nodeSpawn(options: ScanOptions, checked: CheckedScanOptions): Promise<SpawnWorker> {
  let wasm: WebAssembly.Module | null = null;
  if (options.decode?.backend !== 'js') wasm = await compileWasm().catch(() => null);
  return nodeWorkers(wasm, { memoryMb: checked.memoryMb });
}

/** What every batch carries to the workers. */
function workerConfig(options: ScanOptions, checked: CheckedScanOptions): ScanConfig {
  // A GWZ member is a zip too: its decode keeps to the same ratio.
  const decode: DecodeOptions = { ...options.decode, limits: { ...options.decode?.limits, maxZipRatio: checked.maxZipRatio } };
  const exclude = options.exclude?.length ? options.exclude : undefined;
  return {
    depth: checked.depth,
    decode,
    maxBytes: checked.maxBytes,
    all: options.all === true,
    ...(exclude ? { exclude } : {}),
    // One table of pixel digests for every worker (archive-index/digest-cache.ts).
    ...(options.index ? { index: { run: options.index.run, digests: newDigestBuffer() } } : {}),
    ...(options.check ? { check: options.check } : {}),
  };
}

/** Order of `sort`: by path bytes, then member (a plain file before its... it has none). */
export function compareRecords(a: ScanRecord, b: ScanRecord): number {
  const pa = a.pathBytes ?? a.path;
  const pb = b.pathBytes ?? b.path;
  if (pa !== pb) return pa < pb ? -1 : 1;
  const ma = a.member ?? '';
  const mb = b.member ?? '';
  return ma < mb ? -1 : ma > mb ? 1 : 0;
}
