// The scan worker under Node (worker_threads), on the pool workers' loop (worker-loop.ts): each
// item is read (item-node.ts) and scanned (job.ts), and its record sent back as a JSON line.
// dist/scan-worker.mjs is built from this file.
import { createHash } from 'node:crypto';
import { DigestCache } from '../archive-index/digest-cache.js';
import { LevelRowsBuilder } from '../archive-index/level-rows.js';
import { garbageBound } from './garbage-bound.js';
import { baseOf, type ReadOutcome, readFileItem, readMemberItem } from './item-node.js';
import { type ItemResult, type ScanConfig, type ScanItem, type StageTimes, scanBytes } from './job.js';
import { jsonText } from './json-text.js';
import { serveBatches } from './worker-loop.js';

const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
/** Made on the first indexed file (garbage-bound.ts). */
let boundGarbage: (() => void) | undefined;
const exit = () => process.exit(70);

function scanItem(item: ScanItem, config: ScanConfig, stages: StageTimes, index: LevelRowsBuilder | undefined): ItemResult {
  const t0 = performance.now();
  const base = baseOf(item.path, item.kind === 'file' ? null : item.member);
  let read: ReadOutcome | { opened: Uint8Array };
  if (item.kind === 'file') read = readFileItem(item.path, item.named, config, base, undefined, item);
  else if (item.kind === 'bytes') read = { bytes: item.bytes, levelName: item.levelName };
  else read = readMemberItem(item, item.member, base);
  stages.read += performance.now() - t0;
  if ('bytes' in read) {
    const record = scanBytes(base, read.bytes, read.levelName, config, item.fault, hash, exit, stages, index);
    // Only an index's scan: it holds rows and parts besides the decode, under a memory floor; a
    // plain scan keeps V8's own pacing (a bound there cost it 5-10 % CPU).
    if (config.index) {
      boundGarbage ??= garbageBound();
      boundGarbage();
    }
    return { record };
  }
  if ('opened' in read) {
    // A nested zip the scan will list: shared, so each of its members' items can point into it.
    const shared = new SharedArrayBuffer(read.opened.length);
    new Uint8Array(shared).set(read.opened);
    return { opened: shared, size: read.opened.length };
  }
  return read;
}

/** The scan's row builder, kept from batch to batch (each batch's last message takes its rows, leaving it empty). */
let rows: { run: string; builder: LevelRowsBuilder } | undefined;

function rowsBuilder(config: ScanConfig): LevelRowsBuilder | undefined {
  const index = config.index;
  if (!index) return undefined;
  if (rows?.run !== index.run) rows = { run: index.run, builder: new LevelRowsBuilder(hash, index.digests ? new DigestCache(index.digests) : undefined) };
  return rows.builder;
}

serveBatches(scanItem, (r) => ('record' in r ? jsonText(r.record) : undefined), rowsBuilder);
