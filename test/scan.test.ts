// levelkit scan (issue 13): the summary of fixtures/, zips read inside (nested, corrupt, unknown
// and empty members), hung and crashed decoders reported while the scan goes on, shards run as
// separate processes merging to the single run's report, and the library's scan()/reportOf().
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { reportOf, type ScanRecord, scan } from '../src/scan/index.js';
import { type BatchMessage, type BatchResult, noStageTimes, type ScanConfig } from '../src/scan/job.js';
import { CLI_ARGV, cli, completion, jsonLines, type ProcessResult } from './helpers/cli.js';
import { FIXTURES, ROOT, readBytes } from './helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-scan-'));
const MTIME = new Date(1980, 0, 1);

async function all(paths: string[], opts: Parameters<typeof scan>[1] = {}): Promise<ScanRecord[]> {
  const out: ScanRecord[] = [];
  for await (const r of scan(paths, { workers: 2, ...opts })) out.push(r);
  return out;
}

const withoutTiming = (r: object) => {
  const { timing: _t, ...rest } = r as { timing?: unknown };
  return rest;
};

/** What fixtures/ holds (generated levels, the bad-file sets and zip/levels.zip); change it with the fixtures. */
const FIXTURES_SUMMARY = {
  files: 109,
  bytes: 411833,
  formats: {
    graal: { files: 8, versions: { 'GR-V1.00': 1, 'GR-V1.01': 1, 'GR-V1.03': 2, 'GR-V1.04': 1, 'GR-V1.05': 1, 'Z3-V1.03': 1, 'Z3-V1.04': 1 } },
    'graal-gmap': { files: 2, versions: { GRMAP001: 2 } },
    'graal-nw': { files: 3, versions: { GLEVNW01: 3 } },
    gwc: { files: 6, versions: { '10': 6 } },
    gwz: { files: 1, versions: { '0': 1 } },
    teeworlds: { files: 17, versions: { '3': 1, '4': 16 } },
    // One generated file per main version, and EventBox versions 1–9 at main version 22.
    wdata: {
      files: 27,
      versions: {
        '1': 1,
        '2': 1,
        '7': 1,
        '8': 1,
        '9': 1,
        '10': 1,
        '11': 1,
        '12': 1,
        '13': 1,
        '14': 1,
        '15': 1,
        '16': 1,
        '17': 1,
        '18': 1,
        '19': 1,
        '20': 1,
        '21': 1,
        '22': 10,
      },
    },
    wwd: { files: 7, versions: { '1': 7 } },
  },
  unknown: 0,
  // gwc/bad adds 2 UNSUPPORTED_VERSION, 2 BAD_INDEX, 1 OUT_OF_RANGE, 1 BAD_MAGIC (the zip without
  // a root Lua file) and 1 UNKNOWN_FORMAT (the cartridge whose signature detect() cannot know).
  // wwd/bad's object-strings-truncated (TRUNCATED) and unknown-tile-type (CORRUPT) fail at the
  // cheap depth too since issue 19 (one verdict at every depth).
  errors: {
    BAD_INDEX: 2,
    BAD_MAGIC: 1,
    CORRUPT: 8,
    CORRUPT_COMPRESSED: 2,
    LIMIT_EXCEEDED: 3,
    OUT_OF_RANGE: 5,
    TRUNCATED: 9,
    UNKNOWN_FORMAT: 6,
    UNSUPPORTED_VERSION: 2,
  },
  // MEDIA_TYPE_MISMATCH (gwc/orphan-records.gwc) is checked at the cheap depth too since issue 28.
  // Issue 38's game quirks (teeworlds/{shared-layers,empty-image,short-image,speedup-4byte}.map):
  // SHARED_LAYERS, EMPTY_IMAGE with the empty block's ZERO_SIZE_DATA, SHORT_IMAGE_DATA, UNDERSIZED_TILES.
  warnings: {
    CHECKSUM_MISMATCH: 1,
    EMPTY_IMAGE: 1,
    HEADER_LENGTH: 1,
    HEADER_SIZE_BUG: 1,
    MEDIA_TYPE_MISMATCH: 1,
    ORPHAN_BYTES: 2,
    SHARED_LAYERS: 1,
    SHORT_IMAGE_DATA: 1,
    TRAILING_BYTES: 1,
    UNDERSIZED_TILES: 1,
    UNKNOWN_MEDIA_TYPE: 1,
    ZERO_SIZE_DATA: 1,
  },
  // The Teeworlds maps with v3 tile layers besides the game layer's, whose grids the cheap scan leaves deflated.
  unchecked: { NONZERO_TILE_SKIP: 8 },
  // The five zip members are copies of generated levels; the graal/nw pairs share their grid.
  duplicates: { contentDigest: { groups: 5, files: 10 }, gridDigest: { groups: 6, files: 24 } },
};

describe('levelkit scan fixtures/', () => {
  it('gives the known summary (--report), one valid JSON line per file, sorted with --sort, exit 2 for the bad files', () => {
    const report = join(tmp, 'fixtures.json');
    const r = cli('scan', 'fixtures', '--sort', '--workers', '2', '--report', report);
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(2);
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    expect(withoutTiming(summary)).toEqual(FIXTURES_SUMMARY);
    expect(summary.timing.seconds).toBeGreaterThan(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(109);
    const keys = lines.map((l) => `${l.path}!${l.member ?? ''}`);
    expect(keys).toEqual([...keys].sort());
    expect(lines.find((l) => l.member === 'more.zip/tw07-skip.map')).toMatchObject({ path: 'fixtures/zip/levels.zip', format: 'teeworlds', version: 4 });
    // The table on stderr carries the same counts.
    expect(r.stderr).toMatch(/^files\s+109 /m);
    expect(r.stderr).toMatch(/^errors\s+38: BAD_INDEX 2, /m);
    // The library's reportOf gives the same summary from the same records.
    expect(withoutTiming(reportOf(lines as ScanRecord[]))).toEqual(FIXTURES_SUMMARY);
  });

  it('bad usage is exit 1 with one line naming the option', () => {
    for (const args of [['--workers', '0'], ['--depth', 'deep'], ['--shard', '3/3'], ['--timeout', 'x'], []]) {
      const r = cli('scan', ...(args.length ? ['fixtures', ...args] : []));
      expect(r.status).toBe(1);
      expect(r.stderr.split('\n')[0]).toMatch(args.length ? new RegExp(`--${args[0]!.slice(2)}`) : /needs at least one/);
    }
  });
});

describe('zips', () => {
  const wwd = readBytes(join(FIXTURES, 'wwd', 'claw-compressed.wwd'));
  const map = readBytes(join(FIXTURES, 'teeworlds', 'ddrace-v2.map'));
  const nw = readBytes(join(FIXTURES, 'graal', 'crlf.nw'));
  // A member whose deflate data is garbage: zipped, then its compressed bytes overwritten.
  const corrupt = zipSync({ 'broken.map': map }, { level: 9, mtime: MTIME });
  const dataAt = 30 + 'broken.map'.length;
  corrupt.fill(0xff, dataAt, dataAt + 40);
  const innermost = zipSync({ 'deep.nw': nw }, { level: 6, mtime: MTIME });
  const inner = zipSync({ 'level.wwd': wwd, 'innermost.zip': innermost }, { level: 6, mtime: MTIME });
  const file = join(tmp, 'archive.zip');
  writeFileSync(
    file,
    zipSync(
      {
        'a/level.map': map,
        'inner.zip': inner,
        'notes.txt': new TextEncoder().encode('not a level\n'),
        'empty.wwd': new Uint8Array(0),
        'empty.bin': new Uint8Array(0),
        'corrupt.zip': corrupt,
      },
      { level: 6, mtime: MTIME },
    ),
  );

  it('reads members, nested zips at any depth, and reports corrupt, unknown and empty members without stopping', async () => {
    const recs = await all([file], { all: true, sort: true });
    const by = Object.fromEntries(recs.map((r) => [r.member, r.error ? `error ${r.error.code}` : (r.format ?? 'unknown')]));
    expect(by).toEqual({
      'a/level.map': 'teeworlds',
      'corrupt.zip/broken.map': 'error CORRUPT_ARCHIVE',
      'empty.bin': 'unknown',
      'empty.wwd': 'error UNKNOWN_FORMAT',
      'inner.zip/innermost.zip/deep.nw': 'graal-nw',
      'inner.zip/level.wwd': 'wwd',
      'notes.txt': 'unknown',
    });
    for (const r of recs) expect(r.path).toBe(file);
    expect(recs.find((r) => r.member === 'empty.bin')!.bytes).toBe(0);
    const report = reportOf(recs);
    expect(report).toMatchObject({ files: 7, unknown: 2, errors: { CORRUPT_ARCHIVE: 1, UNKNOWN_FORMAT: 1 } });
  });

  it('without --all, unknown members are left out; a zip member over --max-bytes is LIMIT_EXCEEDED and not inflated', async () => {
    const recs = await all([file], { sort: true, maxBytes: 3000 });
    expect(recs.map((r) => [r.member, r.error?.code ?? r.format])).toEqual([
      ['a/level.map', 'teeworlds'],
      ['corrupt.zip/broken.map', 'CORRUPT_ARCHIVE'],
      ['empty.wwd', 'UNKNOWN_FORMAT'],
      ['inner.zip/innermost.zip/deep.nw', 'LIMIT_EXCEEDED'],
      ['inner.zip/level.wwd', 'wwd'],
    ]);
  });

  // The walk and the lister stop at a high-water mark of tasks in flight (workers × 64 × 3; 192
  // with one worker). Zips waiting to be listed are in flight too, and only the lister ends them:
  // once they filled the mark, the lister waited for room to hand out its first member and the
  // scan stopped for good (seen as an unchanged --resume of 500,000 files idling after 75,788,
  // with 2,500 zips). 250 of them, on disk and nested, with one worker.
  const MANY = 250;
  const oneLevelZips = () => Object.fromEntries(Array.from({ length: MANY }, (_, i) => [`z${i}.zip`, zipSync({ [`l${i}.nw`]: nw }, { mtime: MTIME })]));
  it.each([
    [
      'a folder of more zips than the scan holds in flight',
      () => {
        const dir = join(tmp, 'many-zips');
        mkdirSync(dir);
        for (const [name, bytes] of Object.entries(oneLevelZips())) writeFileSync(join(dir, name), bytes);
        return dir;
      },
    ],
    [
      'a zip of more nested zips than that',
      () => {
        const outer = join(tmp, 'many-nested.zip');
        writeFileSync(outer, zipSync(oneLevelZips(), { mtime: MTIME }));
        return outer;
      },
    ],
  ])('%s is read to the end', { timeout: 60_000 }, async (_, make) => {
    const recs = await all([make()], { workers: 1 });
    expect(recs).toHaveLength(MANY);
    expect(new Set(recs.map((r) => r.format))).toEqual(new Set(['graal-nw']));
  });

  it('a file that only looks like a zip is a CORRUPT_ARCHIVE record', async () => {
    const fake = join(tmp, 'fake.zip');
    writeFileSync(fake, Buffer.from('PK\x03\x04 and nothing else of a zip'));
    const recs = await all([fake]);
    expect(recs).toEqual([expect.objectContaining({ path: fake, member: null, error: expect.objectContaining({ code: 'CORRUPT_ARCHIVE' }) })]);
  });
});

describe('hung and crashed decoders', () => {
  it('a decoder that hangs is a TIMEOUT record, one that crashes its worker is WORKER_CRASHED; both workers are replaced and every other file is scanned', async () => {
    const dir = join(FIXTURES, 'wwd');
    const normal = await all([dir], { sort: true });
    const t0 = performance.now();
    const recs = await all([dir], { sort: true, timeoutMs: 1000, inject: { hang: 'claw-compressed', crash: 'gruntz' } });
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(recs.map((r) => r.path)).toEqual(normal.map((r) => r.path));
    const code = (name: string) => recs.find((r) => r.path.endsWith(name))!.error?.code;
    expect(code('claw-compressed.wwd')).toBe('TIMEOUT');
    expect(code('gruntz-compressed.wwd')).toBe('WORKER_CRASHED');
    // The rest as without the faults (including the files decoded after the replacements).
    const rest = (rs: ScanRecord[]) => rs.filter((r) => !/claw-compressed|gruntz/.test(r.path));
    expect(rest(recs)).toEqual(rest(normal));
  });

  it('the CLI reports them and exits 2 (LEVELKIT_TEST_INJECT)', () => {
    const r = spawnSyncEnv(['scan', join(FIXTURES, 'wwd'), '--workers', '1', '--timeout', '1'], { LEVELKIT_TEST_INJECT: 'hang=claw-uncompressed' });
    return r.then(({ code, stdout, stderr }) => {
      expect(code).toBe(2);
      expect(jsonLines(stdout).find((l) => l.path.endsWith('claw-uncompressed.wwd'))!.error.code).toBe('TIMEOUT');
      expect(stderr).toMatch(/1 worker replaced/);
    });
  });
});

describe('answers that are not records', () => {
  it('a scan whose last answers are "excluded" (its own output met under another path) ends', async () => {
    // Every item is answered as one of the scan's own outputs: no record, and the consumer must
    // still learn that nothing is left (it waited for ever when the last answer was one of these).
    const excluding = (message: (r: BatchResult | 'ready') => void) => {
      setTimeout(() => message('ready'), 1);
      return {
        post(b: BatchMessage<ScanConfig>) {
          setTimeout(
            () =>
              message({
                batch: b.batch,
                from: 0,
                results: b.items.map(() => ({ excluded: true as const })),
                lines: '',
                done: true,
                stages: noStageTimes(),
                cpuMs: -1,
              }),
            1,
          );
        },
        terminate() {},
      };
    };
    const stats = { found: 0, walkDone: false, replacedWorkers: 0 };
    await expect(all([join(FIXTURES, 'wwd')], { spawn: excluding, stats })).resolves.toEqual([]);
    expect(stats.found).toBe(0);
  }, 20_000);

  it("a nested zip's listing that throws (here the caller's skip) rejects scan() with it, never an unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const boom = new Error('skip failed');
      const skip = (key: { member: string | null }) => {
        if (key.member?.startsWith('more.zip/')) throw boom;
        return false;
      };
      await expect(all([join(FIXTURES, 'zip', 'levels.zip')], { skip })).rejects.toBe(boom);
      // Give a stray rejection the turns it would need to surface.
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  }, 20_000);
});

describe('workers that cannot start', () => {
  it('the scan throws after a few failed starts instead of replacing workers for ever', async () => {
    const dead = (_message: unknown, died: (reason: string) => void) => {
      setTimeout(() => died('worker exited with code 9'), 1);
      return { post() {}, terminate() {} };
    };
    await expect(all([join(FIXTURES, 'wwd')], { spawn: dead })).rejects.toThrow(/no worker could start: worker exited with code 9/);
  });
});

describe('named files', () => {
  it('a file named twice, or named and also in a named folder, is read once, as named', async () => {
    const dir = join(FIXTURES, 'graal');
    const file = join(dir, 'crlf.nw');
    const alone = await all([dir], { sort: true });
    const again = await all([dir, file, file], { sort: true });
    expect(again.map((r) => r.path)).toEqual(alone.map((r) => r.path));
    expect(again.filter((r) => r.path === file)).toHaveLength(1);
    // Named first: still once, still the named one.
    const first = await all([file, dir], { sort: true });
    expect(first.map((r) => r.path).sort()).toEqual(alone.map((r) => r.path).sort());
  });
});

describe('shards', () => {
  it("3 shards run as separate processes merge (levelkit report) to the single run's report", async () => {
    const args = ['scan', 'fixtures', '--all', '--quiet', '--workers', '1'];
    const single = join(tmp, 'single.json');
    const runs = [spawnSyncEnv([...args, '--report', single, '--out', join(tmp, 'single.jsonl')], {})];
    for (let k = 0; k < 3; k++) {
      // One shard through --shard k/3, one through auto and a Kubernetes index, one through Slurm's.
      const shard = k === 0 ? ['--shard', '0/3'] : ['--shard', 'auto/3'];
      const env: Record<string, string> = k === 1 ? { JOB_COMPLETION_INDEX: '1' } : k === 2 ? { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '1' } : {};
      runs.push(spawnSyncEnv([...args, ...shard, '--out', join(tmp, `shard${k}.jsonl`)], env));
    }
    const done = await Promise.all(runs);
    for (const d of done) expect(d.code).toBe(2);
    const shards = [0, 1, 2].map((k) => jsonLines(readFileSync(join(tmp, `shard${k}.jsonl`), 'utf8')));
    for (const s of shards) expect(s.length).toBeGreaterThan(0);
    const paths = shards.map((s) => new Set(s.map((l) => l.path)));
    // Disjoint by file, and members stay with their archive.
    expect(paths[0]!.size + paths[1]!.size + paths[2]!.size).toBe(new Set([...paths[0]!, ...paths[1]!, ...paths[2]!]).size);
    const merged = join(tmp, 'merged.json');
    const m = await spawnSyncEnv(['report', ...[0, 1, 2].map((k) => join(tmp, `shard${k}.jsonl`)), '--report', merged], {});
    expect(m.code).toBe(0);
    // With --all the 37 files of no known format (READMEs, manifests, the zip's text file, the Lua sources
    // and luac5.1 chunks of fixtures/gwc/lua/) count too.
    expect(m.stdout).toMatch(/^files\s+146 /m);
    const a = JSON.parse(readFileSync(single, 'utf8'));
    const b = JSON.parse(readFileSync(merged, 'utf8'));
    expect(b.timing).toBeUndefined();
    expect(b).toEqual(withoutTiming(a));
  });
});

describe('Ctrl-C', () => {
  it('stops the scan, prints the partial summary, exit 130, and every line written is whole JSON', async () => {
    const dir = join(tmp, 'many');
    mkdirSync(dir);
    const level = readBytes(join(FIXTURES, 'teeworlds', 'tw07-skip.map'));
    for (let i = 0; i < 4000; i++) writeFileSync(join(dir, `${i}.map`), level);
    const child = spawn(process.execPath, [...CLI_ARGV, 'scan', dir, '--workers', '1'], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!sent) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stdout.endsWith('\n')).toBe(true);
    const lines = jsonLines(stdout);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(4000);
    expect(stderr).toMatch(/interrupted: partial results/);
  });
});

/** Runs the CLI from source with extra environment variables; resolves with the exit code and output (30 s at most). */
function spawnSyncEnv(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  return completion(spawn(process.execPath, [...CLI_ARGV, ...args], { cwd: ROOT, env: { ...process.env, ...env } }), `levelkit ${args.join(' ')}`, 30_000);
}
