// The index writer streams (issue 39 §2): each table's rows go out as row groups appended to one
// open part, committed every so many bytes, so a run is a few parts of many row groups; and a
// writer slower than the scan makes the scan wait (addRecord returns a promise, the feed awaits
// it, the Schedule stops its producers), so the rows held stay bounded instead of piling up.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMITS, parseCommit } from '../../src/archive-index/commits.js';
import { WORKER_TABLES } from '../../src/archive-index/level-rows.js';
import { partsOf } from '../../src/archive-index/parts.js';
import { type IndexFs, IndexWriter } from '../../src/archive-index/writer.js';
import type { ScanRecord } from '../../src/scan/job.js';
import { BATCH_FILES } from '../../src/scan/pool.js';
import { scan } from '../../src/scan/scan.js';
import { IndexSink } from '../../src/scan/sinks/archive-index.js';
import { feed } from '../../src/scan/sinks/sink.js';
import { writesThrough } from '../helpers/index-fs.js';
import { ROOT } from '../helpers/paths.js';

const tmp = fs.mkdtempSync(join(tmpdir(), 'levelkit-writer-stream-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A files record as scan() yields it, with a warning so two tables get rows. */
function record(i: number): ScanRecord {
  return {
    path: `/archive/level-${i}.wwd`,
    member: null,
    bytes: 100 + i,
    format: 'wwd',
    version: '1',
    warnings: [{ code: 'W', message: `warning of level ${i}`, offset: i }],
  } as unknown as ScanRecord;
}

/** A disk that takes no write until it is opened. */
interface Gate {
  closed: boolean;
  writes: number;
  waiters: (() => void)[];
}
const closedGate = (): Gate => ({ closed: true, writes: 0, waiters: [] });

function openGate(gate: Gate): void {
  gate.closed = false;
  for (const w of gate.waiters.splice(0)) w();
}

async function passGate(gate: Gate): Promise<void> {
  while (gate.closed) await new Promise<void>((r) => gate.waiters.push(r));
}

/** node:fs/promises whose file writes wait while the gate is closed (a disk far slower than the scan); `writes` counts them. */
function gatedFs(gate: Gate): IndexFs {
  return writesThrough(async (buffers, writev) => {
    await passGate(gate);
    gate.writes++;
    return writev(buffers);
  });
}

async function rowGroupsOf(part: string): Promise<number> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  try {
    const rows = (await db.runAndReadAll(`SELECT count(DISTINCT row_group_id)::INTEGER AS n FROM parquet_metadata('${part}')`)).getRowObjectsJson();
    return rows[0]!.n as number;
  } finally {
    db.closeSync();
  }
}

describe('the index writer streams row groups into one part per table per commit', () => {
  it('many commits of one run: each lists one part per table, each part holds several row groups', async () => {
    const dir = join(tmp, 'commits');
    const writer = await IndexWriter.open(dir, { hash, rowGroupBytes: 2048, commitBytes: 20_000 });
    for (let i = 0; i < 600; i++) await writer.addRecord(record(i), i);
    await writer.close();
    const commits = fs.readdirSync(join(dir, COMMITS)).filter((n) => n.endsWith('.json'));
    expect(commits.length).toBeGreaterThan(3);
    // The last commit also gives every table with no rows its part of none (issue 40).
    const empty = WORKER_TABLES.filter((t) => t !== 'warnings');
    for (const c of commits.sort()) {
      const commit = parseCommit(fs.readFileSync(join(dir, COMMITS, c), 'utf8'));
      if (typeof commit === 'string') throw new Error(commit);
      const last = c === commits[commits.length - 1];
      expect(commit.parts.map((p) => p.table).sort(), c).toEqual([...(last ? [...empty, 'findings'] : []), 'files', 'warnings'].sort());
    }
    const parts = partsOf(dir, 'files');
    expect(parts).toHaveLength(commits.length);
    // Every part but the last commit's is several groups of ~2 KiB of rows.
    for (const p of parts.slice(0, -1)) expect(await rowGroupsOf(p), p).toBeGreaterThan(3);
    expect(writer.rows.get('files')).toBe(600);
    expect(writer.rows.get('warnings')).toBe(600);
    // Nothing left behind: every file in a table folder is a committed part.
    for (const t of ['files', 'warnings'] as const) {
      const onDisk = fs.readdirSync(join(dir, t)).map((n) => join(dir, t, n));
      expect(onDisk.sort()).toEqual(partsOf(dir, t).sort());
    }
  });

  it('a disk slower than the rows: addRecord makes the caller wait, and what is held stays under the bound', async () => {
    const dir = join(tmp, 'slow');
    const gate = closedGate();
    const group = 2048;
    const writer = await IndexWriter.open(dir, { hash, rowGroupBytes: group, fs: gatedFs(gate) });
    let taken = 0;
    let waited: Promise<void> | undefined;
    for (; taken < 2000; ) {
      waited = writer.addRecord(record(taken), taken);
      taken++;
      if (waited) break;
    }
    // The writer pushed back long before the 2,000 records, with a few groups' rows held.
    expect(waited).toBeInstanceOf(Promise);
    expect(taken).toBeLessThan(200);
    expect(writer.bytesHeld).toBeLessThan(6 * group);
    let resolved = false;
    waited!.then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(resolved, 'room while nothing was written').toBe(false);
    openGate(gate);
    await waited;
    expect(gate.writes).toBeGreaterThan(0);
    for (; taken < 2000; taken++) {
      await writer.addRecord(record(taken), taken);
      expect(writer.bytesHeld).toBeLessThan(6 * group);
    }
    await writer.close();
    expect(writer.rows.get('files')).toBe(2000);
  });

  it('a write that fails while the caller waits for room: the wait rejects with it, and nothing uncommitted is left', async () => {
    const dir = join(tmp, 'fails');
    const gate = closedGate();
    const io = gatedFs(gate);
    const failing: IndexFs = {
      ...io,
      open: (async (...a: Parameters<typeof fs.promises.open>) => {
        const fh = await io.open(...a);
        fh.writev = (async () => {
          await passGate(gate);
          throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO', syscall: 'write', errno: -5 });
        }) as typeof fh.writev;
        return fh;
      }) as IndexFs['open'],
    };
    const writer = await IndexWriter.open(dir, { hash, rowGroupBytes: 2048, fs: failing });
    let waited: Promise<void> | undefined;
    for (let i = 0; !waited && i < 2000; i++) waited = writer.addRecord(record(i), i);
    expect(waited).toBeInstanceOf(Promise);
    openGate(gate);
    await expect(waited).rejects.toThrow(/cannot write .*(files|warnings)\/part-.*: i\/o error \(EIO\)/);
    expect(() => writer.addRecord(record(9999), 0)).toThrow(/i\/o error/);
    await expect(writer.close()).rejects.toThrow(/i\/o error/);
    for (const t of ['files', 'warnings', COMMITS]) expect(fs.readdirSync(join(dir, t)), t).toEqual([]);
  });
});

describe('a scan whose index writer is slow', () => {
  const archive = join(tmp, 'archive');
  const FILES = 600;

  it('waits: records stop being taken, and the workers stop once the files in flight are done', async () => {
    const level = fs.readFileSync(join(ROOT, 'fixtures', 'graal', 'gr-v103.graal'));
    fs.mkdirSync(archive);
    for (let i = 0; i < FILES; i++) fs.writeFileSync(join(archive, `level-${String(i).padStart(4, '0')}.graal`), level);
    const gate = closedGate();
    const writer = await IndexWriter.open(join(tmp, 'slow-scan'), { hash, rowGroupBytes: 4096, fs: gatedFs(gate) });
    const sink = new IndexSink(writer);
    let records = 0;
    let levelRows = 0;
    const counting = {
      add: (r: ScanRecord, m: number | null) => {
        records++;
        return sink.add(r, m);
      },
      close: () => sink.close(),
    };
    const { run, onRows } = sink.scanOption;
    const levels = WORKER_TABLES.indexOf('levels');
    const scanning = () =>
      scan([archive], {
        depth: 'full',
        workers: 1,
        timeoutMs: 60_000,
        index: {
          run,
          onRows: (batch) => {
            levelRows += batch[levels]?.rows ?? 0;
            onRows(batch);
          },
        },
      });
    const done = feed(scanning, [counting]);
    // Until records have come and then nothing moves for a second: the scan is waiting on the writer.
    for (let i = 0, last = -1; i < 120; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      if (records > 0 && levelRows + records === last) break;
      last = levelRows + records;
    }
    expect(records).toBeLessThan(FILES / 4);
    // The workers' rows that still came are those of the files in flight: at most the Schedule's high-water mark.
    expect(levelRows).toBeLessThanOrEqual(records + BATCH_FILES * 3);
    expect(levelRows).toBeLessThan(FILES);
    openGate(gate);
    await done;
    expect(writer.rows.get('files')).toBe(FILES);
    expect(writer.rows.get('levels')).toBe(FILES);
  }, 120_000);
});
