// `levelkit scan` through the built entry (dist/cli.mjs), which starts the scan's workers before
// the CLI loads (cli/bin.ts, scan/pool-node.ts prestartScanWorkers): the pool adopts them and the
// records are those of a scan that started its own; one that never adopts them (a usage error)
// still exits at once. A broken hand-over (the module never posted) would hang: the runs' 30 s
// timeout turns that into a failure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanPrestart } from '../src/cli/scan-args.js';
import { nodeWorkers } from '../src/scan/pool-node.js';
import { bin, CLI_ARGV, cli, jsonLines, runBin } from './helpers/cli.js';
import { FIXTURES } from './helpers/paths.js';

describe('workers started before the CLI loads', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'levelkit-prestart-'));
  const sorted = (stdout: string) => jsonLines(stdout).sort((a, b) => `${a.path}!${a.member}`.localeCompare(`${b.path}!${b.member}`));

  it('how many: only for a valid scan command line, never more than the cores, with the heap limit the scan gives', () => {
    const cores = availableParallelism();
    const count = (args: string[], env: NodeJS.ProcessEnv = {}) => scanPrestart(args, env)?.count;
    expect(count(['scan', 'dir'])).toBe(cores);
    expect(count(['scan', '--workers', '1', 'dir'])).toBe(1);
    expect(count(['scan', 'dir', '--workers=1'])).toBe(1);
    // More than the cores: the walk has not counted the files yet, so no more than the cores start early.
    expect(count(['scan', '--workers', '256', 'dir'])).toBe(cores);
    expect(scanPrestart(['scan', '--worker-memory', '64', 'dir'], {})?.memoryMb).toBe(64);
    // Not a valid scan: the CLI reports the mistake, and nothing starts before it does.
    expect(count(['info', 'dir'])).toBeUndefined();
    expect(count(['scan', '--help'])).toBeUndefined();
    expect(count(['scan', '--workers', 'lots', 'dir'])).toBeUndefined();
    expect(count(['scan', '--workers', '0', 'dir'])).toBeUndefined();
    expect(count(['scan', '--workers', '1024', '--depth', 'bogus', 'dir'])).toBeUndefined();
    expect(count(['scan', '--workers', '4', '--limit', 'maxBogus=1', 'dir'])).toBeUndefined();
    expect(count(['scan', '--workers', '4', '--nonsense', 'dir'])).toBeUndefined();
    expect(count(['scan', '--workers', '4'])).toBeUndefined();
    expect(count(['scan', '--shard', 'auto/4', 'dir'], { JOB_COMPLETION_INDEX: '' })).toBeUndefined();
    // After `--` everything is a path.
    expect(count(['scan', '--', '--workers', '9'])).toBe(cores);
  });

  // Counts the worker threads the process makes: started early and adopted, a scan makes exactly
  // as many as it runs; had the pool started its own, there would be twice as many.
  const counter = join(tmp, 'count-workers.mjs');
  writeFileSync(
    counter,
    `import wt from 'node:worker_threads'; import { syncBuiltinESMExports } from 'node:module';
     if (wt.isMainThread) { const Made = wt.Worker; let made = 0;
       const heaps = [];
       wt.Worker = class extends Made { constructor(...a) { super(...a); made++; heaps.push(a[1]?.resourceLimits?.maxOldGenerationSizeMb); } };
       syncBuiltinESMExports(); process.on('exit', () => process.stderr.write('workers made: ' + made + '\\nworker heaps: ' + heaps.join(' ') + '\\n')); }`,
  );

  it('adopted: as many workers as asked are made, and the records are those the source CLI gives, with 1 and 2 workers', async () => {
    const want = cli('scan', '--all', '--quiet', join(FIXTURES, 'graal'), join(FIXTURES, 'zip'));
    for (const workers of ['1', '2']) {
      const r = await runBin(['scan', '--all', '--quiet', '--workers', workers, join(FIXTURES, 'graal'), join(FIXTURES, 'zip')], {
        cwd: tmp,
        nodeFlags: ['--import', pathToFileURL(counter).href],
      });
      expect(r.code).toBe(want.status);
      expect(r.stderr).toContain(`workers made: ${workers}\n`);
      expect(sorted(r.stdout)).toEqual(sorted(want.stdout));
    }
  });

  it('every worker has a heap limit by default: half the memory shared by the workers, 256 MiB to 4 GiB; --worker-memory sets it', async () => {
    const one = join(FIXTURES, 'wwd', 'claw-compressed.wwd');
    const share = (workers: number) => Math.min(4096, Math.max(256, Math.floor(totalmem() / 2 ** 20 / 2 / workers)));
    for (const workers of [1, 2]) {
      const r = await runBin(['scan', '--quiet', '--workers', String(workers), FIXTURES], { cwd: tmp, nodeFlags: ['--import', pathToFileURL(counter).href] });
      expect(r.stderr).toContain(`worker heaps: ${Array(workers).fill(share(workers)).join(' ')}\n`);
    }
    const given = await runBin(['scan', '--quiet', '--workers', '1', '--worker-memory', '300', one], {
      cwd: tmp,
      nodeFlags: ['--import', pathToFileURL(counter).href],
    });
    expect(given.stderr).toContain('worker heaps: 300\n');
    // Node's own --max-old-space-size is the workers' limit too, as before.
    const flag = await runBin(['scan', '--quiet', '--workers', '1', one], {
      cwd: tmp,
      nodeFlags: ['--max-old-space-size=700', '--import', pathToFileURL(counter).href],
    });
    expect(flag.stderr).toContain('worker heaps: 700\n');
  });

  it('a usage error starts no worker: scan --workers 1024 --depth bogus makes none and exits 1 at once, one line', async () => {
    const r = await runBin(['scan', '--workers', '1024', '--depth', 'bogus', FIXTURES], { cwd: tmp, nodeFlags: ['--import', pathToFileURL(counter).href] });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe("levelkit scan: --depth must be cheap or full; got 'bogus'");
    expect(r.stderr).toContain('workers made: 0\n');
  });

  it('never more workers than files: --workers 256 on one file makes one worker and says the request was capped', async () => {
    const one = join(FIXTURES, 'wwd', 'claw-compressed.wwd');
    const r = await runBin(['scan', '--workers', '256', one], { cwd: tmp, nodeFlags: ['--import', pathToFileURL(counter).href] });
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout).length).toBe(1);
    // Started early: at most the cores; the pool adopts only what one file needs.
    const made = Number(/workers made: (\d+)/.exec(r.stderr)![1]);
    expect(made).toBeLessThanOrEqual(availableParallelism());
    expect(r.stderr).toMatch(
      new RegExp(
        `^levelkit scan: --workers 256 is more than 4 per core \\(${availableParallelism()} cores\\); running ${Math.min(256, 4 * availableParallelism())}$`,
        'm',
      ),
    );
    const quiet = await runBin(['scan', '--quiet', '--workers', '256', one], { cwd: tmp });
    expect(quiet.stderr).toBe('');
  });

  it('from source too: one file makes one worker whatever --workers says', async () => {
    const one = join(FIXTURES, 'wwd', 'claw-compressed.wwd');
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(counter).href, ...CLI_ARGV, 'scan', '--quiet', '--workers', '8', one], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('workers made: 1\n');
  });

  it('no listener per worker on stdout or stderr (from 11 workers Node warned MaxListenersExceededWarning on every scan)', () => {
    const listeners = () => ['error', 'drain', 'close', 'finish', 'unpipe'].map((e) => process.stdout.listenerCount(e) + process.stderr.listenerCount(e));
    const before = listeners();
    const spawn = nodeWorkers(null, { memoryMb: 64 });
    const workers = Array.from({ length: 12 }, () =>
      spawn(
        () => {},
        () => {},
      ),
    );
    expect(listeners()).toEqual(before);
    for (const w of workers) w.terminate();
  });

  it('an output that exists, found after the workers started: exits 1 at once, one line', () => {
    writeFileSync(join(tmp, 'taken.jsonl'), '');
    const r = bin(tmp, 'scan', '--out', 'taken.jsonl', FIXTURES);
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('levelkit scan: taken.jsonl exists (--force overwrites it)');
  });
});
