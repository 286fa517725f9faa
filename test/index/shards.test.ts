// K shards are one index (issue 39 §6): three separate `levelkit scan --index <dir> --shard k/3`
// processes started at once into one folder, as a Kubernetes Indexed Job or a Slurm array runs
// them, read together give exactly the index one process writes over the same files: every table,
// every row and column, as multisets, with what differs from run to run mapped out (`id` by its
// file's path and member, `run`, `scanned_at`). Small flushes (LEVELKIT_TEST_FLUSH_BYTES) make each
// process commit many times, so the three interleave their parts and commits. The same three into
// a folder holding an older index written before commits (no `_commits`: all three adopt it at
// once) keep its rows once. The comparison itself is shown to catch a dropped and a doubled shard.
//
// Known difference: an archive rule (graal/link-target, `kind: 'archive'`) judges the files checked
// together, and a shard checks only its own: a link to a level another shard scanned is reported as
// leading nowhere. Those findings are compared apart below, pinned to exactly that difference.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITS, commitText, parseCommit } from '../../src/archive-index/commits.js';
import { IndexQuery } from '../../src/archive-index/query.js';
import { TABLES } from '../../src/archive-index/schema.js';
import { levelKey } from '../../src/check/graal.js';
import { RULES } from '../../src/check/registry.js';
import { shardOf } from '../../src/scan/scan.js';
import { runBin } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-shards-'));
const ONE = join(tmp, 'one');
const SHARDED = join(tmp, 'sharded');
const OLDER = join(tmp, 'older');
const COUNT = 3;
// --check: the findings table has rows too. A generous per-file time limit: a loaded machine must
// not turn a fixture into a TIMEOUT row in one run and not the other.
const scan = (dir: string, ...more: string[]) => ['scan', FIXTURES, '--index', dir, '--check', '--workers', '1', '--timeout', '60', '--quiet', ...more];
const SMALL = { env: { LEVELKIT_TEST_FLUSH_BYTES: '4096' } };

type Content = Record<string, string[]>;
let one: Content;
let olderBefore: Content;

/** Three shard processes at once into `dir`; each exits 2 (the fixtures hold malformed files on purpose). */
async function shards(dir: string): Promise<void> {
  const runs = await Promise.all(Array.from({ length: COUNT }, (_, k) => runBin(scan(dir, '--shard', `${k}/${COUNT}`), SMALL)));
  for (const r of runs) expect(r.code, r.stderr).toBe(2);
}

/**
 * Every row of every table as the query reads it (`levelkit query`'s views: the latest scan of each
 * file, or with `all` every run's rows), each as JSON, sorted: a multiset. A row names its file by
 * path and member instead of `id`; `run` and `scanned_at` are left out.
 */
async function content(dir: string, all: boolean): Promise<Content> {
  const view = (t: string) => (all ? `"${t}_all"` : `"${t}"`);
  const q = await IndexQuery.open(dir);
  try {
    const out: Content = {};
    for (const t of TABLES) {
      const sql =
        t.name === 'files'
          ? `SELECT * EXCLUDE (id, run, scanned_at) FROM ${view('files')}`
          : `SELECT f.path, f.member, t.* EXCLUDE (id) FROM ${view(t.name)} t LEFT JOIN ${view('files')} f USING (id)`;
      const { columns, rows } = await q.run(sql);
      out[t.name] = rows.map((r) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, r[i]])), jsonValue)).sort();
    }
    return out;
  } finally {
    q.close();
  }
}

/** BIGINTs and timestamps as JSON can hold them, exactly. */
function jsonValue(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return `${v}n`;
  return v;
}

/** The multiset union of two contents. */
function plus(a: Content, b: Content): Content {
  return Object.fromEntries(TABLES.map((t) => [t.name, [...a[t.name]!, ...b[t.name]!].sort()]));
}

/** The rules judged over every file checked together, whose findings a shard cannot give alone. */
const ARCHIVE_RULES = new Set(RULES.filter((r) => r.kind === 'archive').map((r) => r.id));
const ofArchiveRule = (row: string) => ARCHIVE_RULES.has(JSON.parse(row).rule);

/** `c` without the findings of archive rules. */
function perFile(c: Content): Content {
  return { ...c, findings: c.findings!.filter((r) => !ofArchiveRule(r)) };
}

/**
 * The archive rules' findings of `sharded` are those of one process and, besides, only links to a
 * level that IS in the index (scanned by another shard), each reported by the shard of its file.
 */
function expectArchiveFindings(sharded: Content, single: Content): void {
  const want = single.findings!.filter(ofArchiveRule);
  const got = sharded.findings!.filter(ofArchiveRule);
  expect(want.length).toBeGreaterThan(0);
  const extra = [...got];
  for (const row of want) {
    const i = extra.indexOf(row);
    expect(i, row).toBeGreaterThanOrEqual(0);
    extra.splice(i, 1);
  }
  const indexed = new Set(single.files!.map((r) => JSON.parse(r)).map((f) => levelKey(f.member ?? f.path)));
  for (const row of extra) {
    const { rule, message } = JSON.parse(row);
    expect(rule).toBe('graal/link-target');
    expect(indexed.has(levelKey(/leads to '(.*)', which/.exec(message)![1]!)), row).toBe(true);
  }
}

/** Rows per table, for a failure message that says where two contents differ. */
const sizes = (c: Content) => Object.fromEntries(Object.entries(c).map(([t, rows]) => [t, rows.length]));

/** The commits in `dir` of shard `k` (`s<k>of<n>-<run>-<seq>.json`). */
const commitsOf = (dir: string, k: number) => readdirSync(join(dir, COMMITS)).filter((n) => n.startsWith(`s${k}of${COUNT}-`));

beforeAll(async () => {
  // The one process, and an older index of the same files written before commits (its _commits
  // removed: how a version before them left the folder), at the same time.
  const [single, older] = await Promise.all([runBin(scan(ONE)), runBin(scan(OLDER))]);
  expect(single.code, single.stderr).toBe(2);
  expect(older.code, older.stderr).toBe(2);
  rmSync(join(OLDER, COMMITS), { recursive: true });
  one = await content(ONE, true);
  olderBefore = await content(OLDER, true);
  expect(olderBefore).toEqual(one);
  // Every table has rows, or the comparison would pass over it.
  for (const t of TABLES) expect(one[t.name]!.length, t.name).toBeGreaterThan(0);
  // The six shard processes at once: three into a fresh folder, three into the older index.
  await Promise.all([shards(SHARDED), shards(OLDER)]);
}, 180_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('three shard processes writing into one folder at once', () => {
  it('read together, are the index of one process: every table, row and column', async () => {
    const sharded = await content(SHARDED, true);
    expect(sizes(perFile(sharded))).toEqual(sizes(perFile(one)));
    expect(perFile(sharded)).toEqual(perFile(one));
    expectArchiveFindings(sharded, one);
    // No file was scanned twice, so the latest view is every row.
    expect(await content(SHARDED, false)).toEqual(sharded);
  });

  it('each wrote the files of its share of the path hash (shardOf), and every shard had some', async () => {
    const q = await IndexQuery.open(SHARDED);
    const { rows } = await q.run('SELECT DISTINCT run, path FROM files_all');
    q.close();
    const runOf = new Map<string, number>();
    for (let k = 0; k < COUNT; k++) {
      const names = commitsOf(SHARDED, k);
      // Small flushes: each process committed several times, interleaved with the others.
      expect(names.length, `shard ${k}`).toBeGreaterThan(2);
      for (const n of names) runOf.set(n.slice(`s${k}of${COUNT}-`.length, -'-0000.json'.length), k);
    }
    expect(new Set(runOf.values()).size).toBe(COUNT);
    const shardPaths = Array.from({ length: COUNT }, () => new Set<string>());
    for (const [run, path] of rows as [string, string][]) {
      expect(runOf.get(run), run).toBeDefined();
      expect(shardOf(path, COUNT), path).toBe(runOf.get(run));
      shardPaths[runOf.get(run)!]!.add(path);
    }
    for (const paths of shardPaths) expect(paths.size).toBeGreaterThan(2);
  });

  it('into an older index written before commits: its rows kept once, the new ones the latest', async () => {
    // All three adopted the older parts at once; one commit lists them (or several, read once).
    expect(readdirSync(join(OLDER, COMMITS)).filter((n) => n.startsWith('legacy-')).length).toBeGreaterThan(0);
    const latest = await content(OLDER, false);
    expect(perFile(latest)).toEqual(perFile(one));
    expectArchiveFindings(latest, one);
    // Every run's rows: the older index's once (not once per shard that adopted it), and the shards'.
    const all = await content(OLDER, true);
    expect(sizes(all)).toEqual(sizes(plus(olderBefore, latest)));
    expect(all).toEqual(plus(olderBefore, latest));
  });
});

describe('the comparison catches a shard that went wrong', () => {
  it('a shard dropped (its commits lost): rows missing', async () => {
    const dropped = join(tmp, 'dropped');
    cpSync(SHARDED, dropped, { recursive: true });
    for (const n of commitsOf(dropped, 1)) rmSync(join(dropped, COMMITS, n));
    const c = await content(dropped, true);
    expect(c.files!.length).toBeLessThan(one.files!.length);
    expect(perFile(c)).not.toEqual(perFile(one));
  });

  it('a shard written twice (its parts committed again under another run): rows doubled', async () => {
    const doubled = join(tmp, 'doubled');
    cpSync(SHARDED, doubled, { recursive: true });
    for (const n of commitsOf(doubled, 2)) {
      const commit = parseCommit(readFileSync(join(doubled, COMMITS, n), 'utf8'));
      if (typeof commit === 'string') throw new Error(commit);
      const again = commit.parts.map((p) => ({ ...p, name: p.name.replace(/^part-s2of3-/, 'part-s2of3-again-') }));
      for (let i = 0; i < again.length; i++)
        cpSync(join(doubled, commit.parts[i]!.table, commit.parts[i]!.name), join(doubled, again[i]!.table, again[i]!.name));
      writeFileSync(join(doubled, COMMITS, n.replace(/^s2of3-/, 's2of3-again-')), commitText(again));
    }
    const c = await content(doubled, true);
    expect(c.files!.length).toBeGreaterThan(one.files!.length);
    expect(perFile(c)).not.toEqual(perFile(one));
  });
});
