// The archive index (scan --index, query) against the library: the maps a query names are the
// ones whose decoded levels hold what was asked; shards read together answer as one run; DuckDB
// reading the parts directly agrees; the query is read-only; a broken part is named; --resume
// decodes exactly the changed files. Fixtures only (the corpus floors are in bench/index.bench.ts).
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import type { WwdLevel } from '../../src/formats/wwd/types.js';
import { decode, wwd } from '../../src/index.js';
import { runBin } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

const FIXTURES = join(ROOT, 'fixtures');
let tmp: string;
let index: string;
let records: Record<string, unknown>[];

async function query(dir: string, sql: string): Promise<Record<string, unknown>[]> {
  const r = await runBin(['query', dir, sql, '--json']);
  expect(r.stderr, sql).toBe('');
  expect(r.code, sql).toBe(0);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'levelkit-index-'));
  index = join(tmp, 'index');
  const out = join(tmp, 'records.jsonl');
  // Generous per-file time limit: a loaded CI machine must not turn a fixture into a TIMEOUT row.
  const r = await runBin(['scan', FIXTURES, '--index', index, '--out', out, '--workers', '2', '--timeout', '60', '--quiet']);
  expect(r.code, r.stderr).toBe(2); // the fixtures hold malformed files on purpose
  records = readFileSync(out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Plain fixture files (not zip members) of a format that decoded, by path. */
function decodedFiles(format: string): string[] {
  return records.filter((r) => r.format === format && !r.error && r.member === null).map((r) => r.path as string);
}

describe('levelkit scan --index', () => {
  it('writes one files row per record, with its digest, and a levels row per decoded level', async () => {
    const files = await query(index, 'SELECT path, member, sha256, format, error_code FROM files');
    expect(files.length).toBe(records.length);
    const byKey = new Map(files.map((f) => [`${f.path}\0${f.member}`, f]));
    for (const r of records) {
      const f = byKey.get(`${r.path}\0${r.member}`);
      expect(f, String(r.path)).toBeDefined();
      expect(f!.sha256).toBe(r.contentDigest ?? null);
      expect(f!.error_code).toBe((r.error as { code?: string } | undefined)?.code ?? null);
    }
    const [levels] = await query(index, 'SELECT count(*) AS n FROM levels');
    expect(levels!.n).toBe(records.filter((r) => !r.error && r.format !== null).length);
  });

  it('gives each embedded image the SHA-256 of its RGBA pixels, the cached digests included', async () => {
    const rows = await query(
      index,
      'SELECT f.path, i.image, i.pixels_sha256 FROM images i JOIN files f USING (id) WHERE i.pixels_sha256 IS NOT NULL AND f.member IS NULL ORDER BY 1, 2',
    );
    expect(rows.length).toBeGreaterThan(2);
    for (const r of rows) {
      const map = decode(readFileSync(r.path as string)) as TeeworldsMap;
      const img = map.images[r.image as number]!;
      let px = img.pixels!;
      if (px.length === img.width * img.height * 3)
        px = Uint8Array.from({ length: img.width * img.height * 4 }, (_, k) => (k % 4 === 3 ? 255 : px[(k >> 2) * 3 + (k % 4)]!));
      expect(r.pixels_sha256, `${r.path} image ${r.image}`).toBe(createHash('sha256').update(px).digest('hex'));
    }
  });

  it('names exactly the maps whose decoded game layer holds a tile value', async () => {
    const maps = decodedFiles('teeworlds').map((p) => ({ p, map: decode(readFileSync(p)) as TeeworldsMap }));
    expect(maps.length).toBeGreaterThan(3);
    for (const tile of [0, 1, 2, 3, 9, 192, 255]) {
      const expected = maps
        .filter(({ map }) => map.groups.some((g) => g.layers.some((l) => l.kind === 'game' && l.tiles?.index.includes(tile))))
        .map(({ p }) => p)
        .sort();
      const rows = await query(
        index,
        `SELECT DISTINCT f.path FROM tiles t JOIN files f USING (id) WHERE t.kind = 'game' AND t.tile = ${tile} AND f.member IS NULL AND f.format = 'teeworlds' ORDER BY 1`,
      );
      expect(
        rows.map((r) => r.path),
        `tile ${tile}`,
      ).toEqual(expected);
    }
  });

  it('names exactly the WWD levels that use a logic', async () => {
    const levels = decodedFiles('wwd').map((p) => ({ p, level: wwd.decode(readFileSync(p)) as WwdLevel }));
    const logics = new Set(levels.flatMap(({ level }) => level.planes.flatMap((pl) => pl.objects.logic.map((t) => t.text))));
    expect(logics.size).toBeGreaterThan(1);
    for (const logic of [...logics].slice(0, 5)) {
      const expected = levels
        .filter(({ level }) => level.planes.some((pl) => pl.objects.logic.some((t) => t.text === logic)))
        .map(({ p }) => p)
        .sort();
      const rows = await query(
        index,
        `SELECT DISTINCT f.path FROM objects o JOIN files f USING (id) WHERE o.logic = '${logic.replaceAll("'", "''")}' AND f.member IS NULL ORDER BY 1`,
      );
      expect(
        rows.map((r) => r.path),
        logic,
      ).toEqual(expected);
    }
  });

  it('three shards written into one folder answer as one run', async () => {
    const sharded = join(tmp, 'sharded');
    for (let k = 0; k < 3; k++) {
      const r = await runBin(['scan', FIXTURES, '--index', sharded, '--shard', `${k}/3`, '--workers', '1', '--timeout', '60', '--quiet']);
      expect([0, 2], r.stderr).toContain(r.code);
    }
    expect(new Set(readdirSync(join(sharded, 'files')).map((n) => n.split('-')[1])).size).toBe(3);
    for (const sql of [
      'SELECT path, member, sha256, format, version, error_code, grid_digest FROM files ORDER BY ALL',
      'SELECT f.path, f.member, t.layer, t.kind, t.tile, t.count FROM tiles t JOIN files f USING (id) ORDER BY ALL',
      'SELECT f.path, f.member, o.kind, o.object, o.name, o.logic, o.x, o.y, o.fields FROM objects o JOIN files f USING (id) ORDER BY ALL',
      'SELECT f.path, f.member, x.source, x.text FROM texts x JOIN files f USING (id) ORDER BY ALL',
    ])
      expect(await query(sharded, sql), sql).toEqual(await query(index, sql));
  }, 120_000);

  it('DuckDB reading the Parquet parts directly gives the rows levelkit query gives', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    const reader = await db.runAndReadAll(`SELECT id, layer, kind, tile, count FROM read_parquet('${join(index, 'tiles')}/*.parquet') ORDER BY ALL`);
    const direct = reader.getRowObjectsJson();
    db.closeSync();
    const viaQuery = await query(index, 'SELECT id, layer, kind, tile, count FROM tiles_all ORDER BY ALL');
    expect(direct.length).toBeGreaterThan(100);
    expect(viaQuery.map((r) => ({ ...r, tile: String(r.tile), count: String(r.count) }))).toEqual(direct);
  });
});

describe('levelkit query', () => {
  it('is read-only: no file written, no database attached, no extension installed, nothing read outside the index', async () => {
    const outside = join(tmp, 'outside.csv');
    writeFileSync(outside, 'a,b\n1,2\n');
    for (const sql of [
      `COPY (SELECT 1) TO '${join(index, 'x.csv')}'`,
      `COPY files TO '${join(tmp, 'y.parquet')}'`,
      `ATTACH '${join(tmp, 'z.db')}' AS z`,
      'INSTALL httpfs',
      'LOAD httpfs',
      'SET enable_external_access = true',
      'CREATE TABLE t AS SELECT 1',
      `SELECT * FROM read_csv('${outside}')`,
      `SELECT * FROM read_parquet('${join(index, '..', 'sharded', 'files')}/*.parquet')`,
      "SELECT * FROM read_text('/etc/passwd')",
    ]) {
      const r = await runBin(['query', index, sql]);
      expect(r.code, sql).toBe(1);
      expect(r.stderr.trim().split('\n'), sql).toHaveLength(1);
      expect(r.stdout, sql).toBe('');
    }
    expect(readdirSync(index).sort()).toEqual(['_commits', 'files', 'findings', 'images', 'layers', 'levels', 'objects', 'texts', 'tiles', 'warnings']);
    expect(readdirSync(tmp).filter((n) => /^[yz]\./.test(n))).toEqual([]);
  });

  it('prints an aligned table by default, and --csv', async () => {
    const t = await runBin(['query', index, 'SELECT format, count(*) AS n FROM files GROUP BY 1 ORDER BY 1']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^format\s+n\n─+\s+─+\n/);
    expect(t.stdout).toMatch(/\(\d+ rows\)\n$/);
    const c = await runBin(['query', index, 'SELECT format, count(*) AS n FROM files GROUP BY 1 ORDER BY 1', '--csv']);
    expect(c.stdout.split('\r\n')[0]).toBe('format,n');
  });

  it('a truncated part is one line naming the file, exit 1', async () => {
    const broken = join(tmp, 'broken');
    cpSync(index, broken, { recursive: true });
    const part = join(broken, 'objects', readdirSync(join(broken, 'objects'))[0]!);
    truncateSync(part, 100);
    const r = await runBin(['query', broken, 'SELECT count(*) FROM files']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(part);
  });

  // Footers are read only for the tables a query names (their views are made then): a part
  // damaged inside, at its own size, is named by the queries that read its table, and only by them.
  it('a part damaged inside is named by a query of its table; a query of other tables answers', async () => {
    const damaged = join(tmp, 'damaged');
    cpSync(index, damaged, { recursive: true });
    const part = join(damaged, 'objects', readdirSync(join(damaged, 'objects'))[0]!);
    const bytes = readFileSync(part);
    bytes.fill(0xee, bytes.length - 40, bytes.length - 8);
    writeFileSync(part, bytes);
    const files = await query(damaged, 'SELECT count(*) AS n FROM files');
    expect(files[0]!.n).toBe(records.length);
    for (const sql of [
      'SELECT count(*) FROM objects',
      'SELECT count(*) FROM files JOIN objects_all USING (id)',
      'SELECT count(*) FROM information_schema.tables',
    ]) {
      const r = await runBin(['query', damaged, sql]);
      expect(r.code, sql).toBe(1);
      expect(r.stderr.trim().split('\n'), sql).toHaveLength(1);
      expect(r.stderr, sql).toContain(part);
    }
  });

  it('the catalog lists every table, whatever the query names', async () => {
    const views = await query(index, "SELECT table_name AS t FROM information_schema.tables WHERE table_name NOT LIKE '%\\_all' ESCAPE '\\' ORDER BY 1");
    expect(views.map((v) => v.t)).toEqual(['files', 'findings', 'images', 'layers', 'levels', 'objects', 'texts', 'tiles', 'warnings']);
    const listed = await query(index, 'SELECT count(*) AS n FROM duckdb_views() WHERE NOT internal');
    expect(listed[0]!.n).toBe(18);
  });
});

describe('levelkit scan --index --resume', () => {
  it('decodes exactly the files that changed', async () => {
    const archive = join(tmp, 'archive');
    cpSync(join(FIXTURES, 'teeworlds'), archive, { recursive: true });
    const dir = join(tmp, 'resumed');
    const first = await runBin(['scan', archive, '--index', dir, '--workers', '1', '--timeout', '60', '--quiet']);
    expect([0, 2]).toContain(first.code);
    const changed = join(archive, 'ddrace-v2.map');
    const later = new Date(Date.now() + 60_000);
    utimesSync(changed, later, later);
    const again = await runBin(['scan', archive, '--index', dir, '--resume', '--workers', '1', '--timeout', '60']);
    expect([0, 2]).toContain(again.code);
    expect(again.stderr).toMatch(/\d+ unchanged files skipped \(--resume\)/);
    const runs = await query(dir, 'SELECT run, count(*) AS n, list(path) AS paths FROM files_all GROUP BY run ORDER BY min(scanned_at)');
    expect(runs).toHaveLength(2);
    expect(runs[1]!.paths).toEqual([changed]);
    // The latest row per path: the changed file's new one, every other file's first.
    const latest = await query(dir, 'SELECT count(*) AS n, count(DISTINCT run) AS runs FROM files');
    expect(latest[0]).toEqual({ n: runs[0]!.n, runs: 2 });
    const nothing = await runBin(['scan', archive, '--index', dir, '--resume', '--workers', '1', '--quiet']);
    expect(nothing.code).toBe(0);
    expect((await query(dir, 'SELECT count(DISTINCT run) AS n FROM files_all'))[0]!.n).toBe(2);
  }, 120_000);
});
