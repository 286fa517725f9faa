// Bad scan options are refused before anything starts. The CLI's --shard auto read an empty
// JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID as 0 (Number('') is 0), so a broken job template
// scanned shard 0 twice and another shard's files never; the library's scan() accepted shards
// past their count, NaN, depth 'bogus' and bad decode options (one INTERNAL record per file).
import * as nodeFs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs, UsageError } from '../src/cli/options.js';
import { SCAN_OPTIONS, scanSettings } from '../src/cli/scan-args.js';
import type { SpawnWorker } from '../src/scan/pool.js';
import { type ScanOptions, type ScanStats, scan } from '../src/scan/scan.js';
import { FIXTURES } from './helpers/paths.js';

const settings = (args: string[], env: NodeJS.ProcessEnv) => scanSettings(parseCommandArgs(['dir', ...args], SCAN_OPTIONS), env);

describe('--shard auto', () => {
  it('reads a whole number from Kubernetes or Slurm', () => {
    expect(settings(['--shard', 'auto/4'], { JOB_COMPLETION_INDEX: '3' }).shard).toEqual({ index: 3, count: 4 });
    expect(settings(['--shard', 'auto/4'], { SLURM_ARRAY_TASK_ID: '2' }).shard).toEqual({ index: 2, count: 4 });
  });

  it("takes Slurm's task id as k, whatever the array's minimum: a failed task submitted again alone (--array=2) is shard 2, not 0", () => {
    expect(settings(['--shard', 'auto/4'], { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '2' }).shard).toEqual({ index: 2, count: 4 });
    expect(settings(['--shard', 'auto/4'], { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '1' }).shard).toEqual({ index: 3, count: 4 });
  });

  it.each([
    [{ JOB_COMPLETION_INDEX: '' }, /JOB_COMPLETION_INDEX must be a whole number ≥ 0; got ''/],
    [{ JOB_COMPLETION_INDEX: ' ' }, /JOB_COMPLETION_INDEX/],
    [{ JOB_COMPLETION_INDEX: '-1' }, /JOB_COMPLETION_INDEX/],
    [{ JOB_COMPLETION_INDEX: '1.5' }, /JOB_COMPLETION_INDEX/],
    [{ JOB_COMPLETION_INDEX: 'x' }, /JOB_COMPLETION_INDEX/],
    [{ JOB_COMPLETION_INDEX: '', SLURM_ARRAY_TASK_ID: '1' }, /JOB_COMPLETION_INDEX/],
    [{ SLURM_ARRAY_TASK_ID: '' }, /SLURM_ARRAY_TASK_ID must be a whole number/],
    [{ SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1' }, /SLURM_ARRAY_TASK_ID is 4; shards are 0…3, so submit the array as --array=0-3/],
    [{ JOB_COMPLETION_INDEX: '4' }, /k must be 0…n-1 and n ≥ 1; got 4\/4/],
    [{}, /needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID/],
  ])('%j is a usage error, not shard 0', (env, message) => {
    expect(() => settings(['--shard', 'auto/4'], env)).toThrow(UsageError);
    expect(() => settings(['--shard', 'auto/4'], env)).toThrow(message);
  });

  it('k/n: past the count, or too large to count, is a usage error', () => {
    expect(() => settings(['--shard', '4/4'], {})).toThrow(/--shard/);
    expect(() => settings(['--shard', '0/0'], {})).toThrow(/--shard/);
    expect(() => settings(['--shard', '0/99999999999999999999'], {})).toThrow(/--shard/);
  });
});

describe('scan() options', () => {
  // Counts what a scan touches: workers spawned and fs calls.
  let spawned = 0;
  let fsCalls = 0;
  const spawn: SpawnWorker = () => {
    spawned++;
    return { post() {}, terminate() {} };
  };
  const fs = new Proxy(nodeFs, {
    get(target, key) {
      const v = Reflect.get(target, key);
      return typeof v === 'function'
        ? (...a: unknown[]) => {
            fsCalls++;
            return (v as (...a: unknown[]) => unknown)(...a);
          }
        : v;
    },
  }) as unknown as ScanOptions['fs'];

  it.each([
    [{ shard: { count: 0, index: 0 } }, RangeError, /'shard.count' must be a whole number ≥ 1; got 0/],
    [{ shard: { index: 5, count: 2 } }, RangeError, /'shard.index' must be a whole number from 0 to shard.count − 1 \(1\); got 5/],
    [{ shard: { index: Number.NaN, count: 2 } }, RangeError, /'shard.index'/],
    [{ shard: { index: -1, count: 2 } }, RangeError, /'shard.index'/],
    [{ shard: { count: 2 } }, RangeError, /'shard.index'/],
    [{ shard: 3 }, TypeError, /'shard' must be \{ index, count \}/],
    [{ depth: 'bogus' }, RangeError, /'depth' must be 'cheap' or 'full', got "bogus"/],
    [{ workers: Number.NaN }, RangeError, /'workers'/],
    [{ workers: 0 }, RangeError, /'workers'/],
    [{ maxBytes: 1.5 }, RangeError, /'maxBytes'/],
    [{ timeoutMs: Number.NaN }, RangeError, /'timeoutMs'/],
    [{ workerMemoryMb: 8 }, RangeError, /'workerMemoryMb'/],
    [{ sort: 'yes' }, TypeError, /'sort' must be true or false/],
    [{ signal: {} }, TypeError, /'signal'/],
    [{ exclude: [{ dev: 1, ino: 2 }] }, TypeError, /'exclude'/],
    [{ wrokers: 2 }, TypeError, /unknown scan option 'wrokers'/],
    [{ decode: { backend: 'gpu' } }, RangeError, /scan option 'decode': option 'backend' must be one of/],
    [{ decode: { encoding: 'no-such-code-page' } }, RangeError, /scan option 'decode': option 'encoding'/],
    [{ decode: { limits: { maxGridCells: -1 } } }, RangeError, /'limits.maxGridCells' must be a whole number ≥ 0/],
    [{ decode: { limits: { maxCells: 5 } } }, TypeError, /unknown option 'limits.maxCells'/],
    [{ decode: { onProgress: () => {} } }, TypeError, /unknown scan option 'decode.onProgress'/],
    // The options the index, check and --resume brought (issue 38): validated like the old ones.
    [{ depth: 'full', check: { rules: ['wwd/no-such-rule'] } }, RangeError, /scan option 'check.rules': unknown rule "wwd\/no-such-rule"/],
    [{ depth: 'full', check: { rules: ['wwd/unknown-logik'] } }, RangeError, /unknown rule "wwd\/unknown-logik" \(did you mean 'wwd\/unknown-logic'\?\)/],
    [{ depth: 'full', check: { rule: ['wwd/object-outside-plane'] } }, TypeError, /unknown scan option 'check.rule' \(known: rules\)/],
    [{ depth: 'full', index: { run: 'r', onRows: () => {}, onrows: () => {} } }, TypeError, /unknown scan option 'index.onrows'/],
    [{ stats: 5 }, TypeError, /scan option 'stats' must be an object/],
  ])('%j: thrown by scan() itself, before any worker starts or any file is touched', (bad, type, message) => {
    spawned = 0;
    fsCalls = 0;
    const call = () => scan([FIXTURES], { spawn, fs, ...(bad as ScanOptions) });
    expect(call).toThrow(type);
    expect(call).toThrow(message);
    expect(spawned).toBe(0);
    expect(fsCalls).toBe(0);
  });

  it('paths must be an array of strings or Buffers', () => {
    expect(() => scan(FIXTURES as unknown as string[])).toThrow(TypeError);
    expect(() => scan([42 as unknown as string])).toThrow(/array of paths/);
  });

  it('good options pass: a scan of one file with a shard that holds it gives its record', async () => {
    const recs = [];
    for await (const r of scan([`${FIXTURES}/wwd/claw-compressed.wwd`], {
      workers: 1,
      shard: { index: 0, count: 1 },
      depth: 'full',
      decode: { backend: 'js' },
    }))
      recs.push(r);
    expect(recs).toHaveLength(1);
    expect(recs[0]!.format).toBe('wwd');
  });
});

describe('callbacks the scan calls (issue 38): their mistakes end the scan as its rejection', () => {
  const WWD = `${FIXTURES}/wwd`;
  const collect = async (options: ScanOptions) => {
    const recs = [];
    for await (const r of scan([WWD], { workers: 1, ...options })) recs.push(r);
    return recs;
  };

  it('index.onRows that throws: scan() rejects with that error (not an uncaught exception and a scan that never settles)', async () => {
    const failure = new Error('the index writer ran out of room');
    let calls = 0;
    const onRows = () => {
      calls++;
      throw failure;
    };
    await expect(collect({ depth: 'full', index: { run: 'run-1', onRows } })).rejects.toBe(failure);
    expect(calls).toBe(1);
  }, 30_000);

  it('index.onRows that returns a Promise: a TypeError naming it', async () => {
    await expect(collect({ depth: 'full', index: { run: 'run-1', onRows: async () => {} } })).rejects.toThrow(
      new TypeError("levelkit: scan option 'index.onRows' must take the rows synchronously; it returned a Promise"),
    );
  }, 30_000);

  it('a skip that returns a Promise: a TypeError naming skip, not every file silently skipped', async () => {
    const stats: ScanStats = { found: 0, walkDone: false, replacedWorkers: 0 };
    // What a JavaScript caller can pass, whatever the types say.
    const skip = (async () => false) as unknown as ScanOptions['skip'];
    await expect(collect({ skip, stats })).rejects.toThrow(
      new TypeError("levelkit: scan option 'skip' must return true or false, got a Promise (it is called synchronously, once per file)"),
    );
    expect(stats.skipped ?? 0).toBe(0);
  }, 30_000);

  it('a skip that answers true or false still skips what it names', async () => {
    const stats: ScanStats = { found: 0, walkDone: false, replacedWorkers: 0 };
    const recs = await collect({ skip: (k) => k.path.endsWith('claw-compressed.wwd'), stats });
    expect(stats.skipped).toBe(1);
    expect(recs.some((r) => r.path.endsWith('claw-compressed.wwd'))).toBe(false);
    expect(recs.length).toBeGreaterThan(3);
  }, 30_000);
});
