// `levelkit query` and the families view: a small archive of Graal levels (a level, an edit of it,
// an exact re-save with other objects, a level of the same tiles that is not a version, and a blank
// one) scanned with --index; the view holds the family and the README's recipe finds its versions.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as graal from '../../src/formats/graal/index.js';
import { jsonLines, runBin } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';

/** A level of rooms: floor (tile 0) with walls and furniture of a few tiles painted as rectangles. */
function rooms(seed: number): graal.GraalLevel {
  const rng = new Prng(seed);
  const level = graal.blankLevel('graal');
  const tiles = level.layers[0]!.tiles;
  for (let r = 0; r < 70; r++) {
    const w = 1 + rng.int(10),
      h = 1 + rng.int(4),
      x = rng.int(64 - w),
      y = rng.int(64 - h),
      v = 1 + rng.int(6);
    for (let dy = 0; dy < h; dy++) tiles.fill(v, (y + dy) * 64 + x, (y + dy) * 64 + x + w);
  }
  return level;
}

describe('levelkit query: the families view', () => {
  let tmp: string;
  let index: string;
  let levels: string;

  async function query(sql: string): Promise<Record<string, unknown>[]> {
    const file = join(tmp, 'q.sql');
    writeFileSync(file, sql);
    const r = await runBin(['query', index, '--file', file, '--json']);
    expect([r.code, r.stderr], sql).toEqual([0, '']);
    return jsonLines(r.stdout);
  }

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'levelkit-families-')));
    levels = join(tmp, 'levels');
    mkdirSync(levels);
    const base = rooms(1);
    const edit = rooms(1);
    // A room redone: 6 × 5 tiles changed (0.7 % of the level).
    for (let y = 20; y < 25; y++) edit.layers[0]!.tiles.fill(9, y * 64 + 30, y * 64 + 36);
    const resave = rooms(1);
    resave.signs.push({ x: 3, y: 3, text: 'Welcome back' });
    const write = (name: string, level: graal.GraalLevel, year: number) => {
      writeFileSync(join(levels, name), graal.encode(level));
      utimesSync(join(levels, name), new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year, 0, 1)));
    };
    write('castle.graal', base, 2001);
    write('castle-v2.graal', edit, 2003);
    write('castle-copy.graal', resave, 2002);
    write('dungeon.graal', rooms(2), 2001);
    write('blank.graal', graal.blankLevel('graal'), 2001);
    write('blank2.graal', graal.blankLevel('graal'), 2002);
    index = join(tmp, 'index');
    const r = await runBin(['scan', levels, '--index', index, '--workers', '2', '--timeout', '60', '--quiet', '--out', join(tmp, 'records.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('holds the family of the level, its edit and its re-save; not the unrelated level, nor the blank ones', async () => {
    const rows = await query(
      `SELECT regexp_extract(f.path, '[^/]+$') AS name, x.family = min(f.grid_digest) OVER () AS keyed_by_smallest, x.exact, x.members, x.similarity
       FROM families x JOIN files f USING (id) ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(['castle-copy.graal', 'castle-v2.graal', 'castle.graal']);
    for (const r of rows) expect(r).toMatchObject({ keyed_by_smallest: true, exact: false, members: 3 });
    const sim = Object.fromEntries(rows.map((r) => [r.name, r.similarity as number]));
    // The copy and the original share a grid: one of them is the key grid (1), the other equal to it.
    expect(sim['castle-copy.graal']).toBe(sim['castle.graal']);
    expect(Math.min(sim['castle.graal']!, sim['castle-v2.graal']!)).toBeGreaterThanOrEqual(0.7);
    expect(Math.max(sim['castle.graal']!, sim['castle-v2.graal']!)).toBe(1);
  });

  it('keeps a family key from one index to another (the smallest grid digest, not a run-local id)', async () => {
    const [a] = await query('SELECT DISTINCT family FROM families');
    const [b] = await query(
      `SELECT min(grid_digest) AS d FROM files WHERE regexp_extract(path, '[^/]+$') IN ('castle.graal', 'castle-v2.graal', 'castle-copy.graal')`,
    );
    expect(a!.family).toBe(b!.d);
  });

  it('levels.grid_signature is base64 of 128 bytes, null for the blank levels', async () => {
    const rows = await query(`SELECT regexp_extract(f.path, '[^/]+$') AS name, l.grid_signature AS s FROM levels l JOIN files f USING (id) ORDER BY name`);
    for (const r of rows) {
      if ((r.name as string).startsWith('blank')) expect(r.s, r.name as string).toBeNull();
      else expect(r.s, r.name as string).toMatch(/^[A-Za-z0-9+/]{171}=$/);
    }
  });

  it("the README's recipe lists the versions of a level, oldest first, with their similarity", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const at = readme.indexOf('-- The versions of a level');
    expect(at, 'the recipe is in the README').toBeGreaterThan(0);
    const recipe = readme.slice(at, readme.indexOf(';', at) + 1);
    expect(recipe).toContain("'%/ctf5.map'");
    const rows = await query(recipe.replace("'%/ctf5.map'", "'%/castle-v2.graal'"));
    expect(rows.map((r) => (r.path as string).split('/').pop())).toEqual(['castle.graal', 'castle-copy.graal', 'castle-v2.graal']);
    expect(rows.every((r) => typeof r.similarity === 'number' && r.mtime !== null)).toBe(true);
  });

  it('the families view joins like a table (a self-join over family)', async () => {
    expect(await query('SELECT count(*) AS n FROM files')).toEqual([{ n: 6 }]);
    expect(await query('SELECT count(*) AS n FROM families f1 JOIN families f2 USING (family)')).toEqual([{ n: 9 }]);
  });
});
