// `levelkit scan` through the built entry (dist/cli.mjs), which starts the scan's workers before
// the CLI loads (cli/bin.ts, scan/pool-node.ts prestartScanWorkers): the pool adopts them and the
// records are those of a scan that started its own; one that never adopts them (a usage error)
// still exits at once. A broken hand-over (the module never posted) would hang: the runs' 30 s
// timeout turns that into a failure.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanWorkersAsked } from '../src/cli/scan-args.js';
import { bin, cli, jsonLines, runBin } from './helpers/cli.js';
import { FIXTURES } from './helpers/paths.js';

describe('workers started before the CLI loads', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'levelkit-prestart-'));
  const sorted = (stdout: string) => jsonLines(stdout).sort((a, b) => `${a.path}!${a.member}`.localeCompare(`${b.path}!${b.member}`));

  it('how many: only for a plain scan, with --workers read as the CLI reads it', () => {
    expect(scanWorkersAsked(['scan', 'dir'])).toBe(availableParallelism());
    expect(scanWorkersAsked(['scan', '--workers', '3', 'dir'])).toBe(3);
    expect(scanWorkersAsked(['scan', 'dir', '--workers=2'])).toBe(2);
    // Not plain: the CLI decides (and reports any mistake); nothing starts early.
    expect(scanWorkersAsked(['info', 'dir'])).toBeUndefined();
    expect(scanWorkersAsked(['scan', '--help'])).toBeUndefined();
    expect(scanWorkersAsked(['scan', '--workers', 'lots', 'dir'])).toBeUndefined();
    expect(scanWorkersAsked(['scan', '--workers', '0', 'dir'])).toBeUndefined();
    expect(scanWorkersAsked(['scan', '--worker-memory', '64', 'dir'])).toBeUndefined();
    // After `--` everything is a path.
    expect(scanWorkersAsked(['scan', '--', '--workers', '9'])).toBe(availableParallelism());
  });

  // Counts the worker threads the process makes: started early and adopted, a scan makes exactly
  // as many as it runs; had the pool started its own, there would be twice as many.
  const counter = join(tmp, 'count-workers.mjs');
  writeFileSync(
    counter,
    `import wt from 'node:worker_threads'; import { syncBuiltinESMExports } from 'node:module';
     if (wt.isMainThread) { const Made = wt.Worker; let made = 0;
       wt.Worker = class extends Made { constructor(...a) { super(...a); made++; } };
       syncBuiltinESMExports(); process.on('exit', () => process.stderr.write('workers made: ' + made + '\\n')); }`,
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

  it('never adopted: a usage error after the workers started exits 1 at once, one line', () => {
    const r = bin(tmp, 'scan', '--depth', 'deep', FIXTURES);
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe("levelkit scan: --depth must be cheap or full; got 'deep'");
  });

  it('not started early (--worker-memory): the scan starts its own', () => {
    const r = bin(tmp, 'scan', '--all', '--quiet', '--worker-memory', '64', join(FIXTURES, 'wwd'));
    expect(r.error).toBeUndefined();
    expect(jsonLines(r.stdout).filter((l) => l.format === 'wwd').length).toBeGreaterThan(0);
  });
});
