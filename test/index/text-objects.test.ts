// Texts that belong to an object carry its number (texts.object = objects.object of the same
// file): a Graal sign's text joins to the sign at its coordinates, an NPC's script to the NPC, a
// baddy's verse to the baddy, a GWZ member's name to its media object, a GWC start's description
// to the start; every other text has none. Issue 40: pairing sign texts with sign objects by row
// order gave 33 wrong coordinates out of 77. Also runs the README's recipe for signs by word.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { txt, txts } from '../../fixtures/generators/graal.js';
import type { LevelRows } from '../../src/formats/define.js';
import * as graal from '../../src/formats/graal/index.js';
import type { GwcCartridge } from '../../src/formats/gwc/types.js';
import { type AnyDecoded, decode, indexRows } from '../../src/index.js';
import { jsonLines, runBin } from '../helpers/cli.js';
import { decodedFixtures, FIXTURE_FILES } from '../helpers/fixture-levels.js';
import { FIXTURES, ROOT, readBytes } from '../helpers/paths.js';

/** The kind of object each source of object-owned texts belongs to; texts of any other source belong to none. */
const OWNER: Record<string, string> = { sign: 'sign', npc: 'npc', 'baddy-verse': 'baddy', 'media-name': 'media', 'starting-location': 'start' };
/** Texts of a cartridge's Wherigo objects (#42) belong to an object of any Wherigo kind; which kinds is the model's business. */
const WHERIGO_OWNED = new Set(['object-name', 'object-description', 'object-text', 'choice', 'answer', 'message']);
const WHERIGO_KINDS = new Set(['cartridge', 'zone', 'item', 'character', 'task', 'timer', 'input', 'zmedia', 'command', 'other']);

const GRAAL = FIXTURE_FILES.filter((p) => /\.(graal|zelda|nw)$/.test(p));

/**
 * A level of 77 signs (the count of the issue's sample), each at its own place with its own text,
 * some naming a sword, among NPCs and baddies with verses: objects of other kinds come first in
 * the objects table, so a sign's text and its object are at different row numbers.
 */
function manySigns(format: 'graal' | 'graal-nw'): graal.GraalLevel {
  const level = graal.blankLevel(format);
  for (let i = 0; i < 77; i++) level.signs.push({ x: (i * 7) % 64, y: 3 + (i >> 3), text: `Sign ${i}${i % 5 === 0 ? ' the old sword rests here' : ''}` });
  for (let i = 0; i < 5; i++) level.npcs.push({ x: 60 - i, y: 50 + i, image: txt(''), script: txt(`message Hello ${i};`) });
  level.baddies.push({ x: 30, y: 40, type: 3, verses: txts('Halt!', '', 'You win.') }, { x: 31, y: 41, type: 9, verses: txts('Ouch!') });
  return level;
}

/** What each object-owned text of a decoded Graal level must join to: `source kind x,y text`, sorted. */
function graalOwned(v: graal.GraalLevel): string[] {
  return [
    ...v.signs.map((s) => `sign sign ${s.x},${s.y} ${s.text}`),
    ...v.npcs.filter((n) => n.script.text).map((n) => `npc npc ${n.x},${n.y} ${n.script.text}`),
    ...v.baddies.flatMap((b) => b.verses.filter((t) => t.text).map((t) => `baddy-verse baddy ${b.x},${b.y} ${t.text}`)),
  ].sort();
}

/** indexRows()' object-owned texts joined to their objects by number, as graalOwned() spells them. */
function joined(rows: LevelRows): string[] {
  const byNumber = new Map(rows.objects.map((o) => [o.index, o]));
  return rows.texts
    .filter((t) => t.object !== null)
    .map((t) => {
      const o = byNumber.get(t.object!);
      return `${t.source} ${o?.kind} ${o?.x},${o?.y} ${t.text}`;
    })
    .sort();
}

describe('indexRows(): a text names the object it belongs to', () => {
  it('in every fixture level of every format, a text of an object names one object of its kind, and no other text names one', () => {
    const seen = new Set<string>();
    for (const { path, value } of decodedFixtures()) {
      const rows = indexRows(value);
      const byNumber = new Map(rows.objects.map((o) => [o.index, o]));
      expect(byNumber.size, `${path}: object numbers are unique`).toBe(rows.objects.length);
      for (const t of rows.texts) {
        const kind = OWNER[t.source];
        // A message of a function set on no object is the cartridge's own text (object null).
        if (WHERIGO_OWNED.has(t.source) && t.object !== null) {
          expect(WHERIGO_KINDS.has(byNumber.get(t.object)?.kind ?? ''), `${path} ${t.source} ${t.text.slice(0, 40)}`).toBe(true);
          seen.add('a Wherigo object');
        } else if (kind === undefined) expect(t.object, `${path} ${t.source}`).toBeNull();
        else {
          expect(byNumber.get(t.object!)?.kind, `${path} ${t.source} ${t.text.slice(0, 40)}`).toBe(kind);
          seen.add(t.source);
        }
      }
    }
    expect([...seen].sort()).toEqual([...Object.keys(OWNER), 'a Wherigo object'].sort());
  });

  it('Graal: every sign, NPC script and baddy verse joins to the object at its own coordinates (fixtures, and 77 signs in both forms)', () => {
    const levels = [
      ...GRAAL.map((p) => ({ name: p, value: decode(readBytes(p)) as graal.GraalLevel })),
      ...(['graal', 'graal-nw'] as const).map((f) => ({ name: `77 signs, ${f}`, value: graal.decode(graal.encode(manySigns(f))) as graal.GraalLevel })),
    ];
    for (const { name, value } of levels) {
      expect(graalOwned(value).length, name).toBeGreaterThan(0);
      expect(joined(indexRows(value)), name).toEqual(graalOwned(value));
    }
  });

  it('Wherigo: a GWZ member name joins to its media object, a cartridge start description to the start at its longitude and latitude', () => {
    const gwz = decode(readFileSync(join(FIXTURES, 'gwc/sample.gwz')));
    expect(gwz.format).toBe('gwz');
    const members = (gwz as { media: { name: string }[] }).media.map((m) => `media-name media ${m.name}`).sort();
    const rows = indexRows(gwz);
    const byNumber = new Map(rows.objects.map((o) => [o.index, o]));
    expect(
      rows.texts
        .filter((t) => t.object !== null)
        .map((t) => `${t.source} ${byNumber.get(t.object!)?.kind} ${byNumber.get(t.object!)?.name}`)
        .sort(),
    ).toEqual(members);

    const gwc = decode(readFileSync(join(FIXTURES, 'gwc/basic.gwc'))) as GwcCartridge;
    expect(gwc.header.startingLocation.text).not.toBe('');
    expect(joined(indexRows(gwc))).toEqual([`starting-location start ${gwc.header.longitude},${gwc.header.latitude} ${gwc.header.startingLocation.text}`]);
  });
});

describe('scan --index: texts.object joins in the written parts', () => {
  let tmp: string;
  let index: string;
  const files = new Map<string, AnyDecoded>();

  /** The rows of `sql` (from a file, as a recipe with its comment is run: `query idx --file q.sql`). */
  async function query(sql: string): Promise<Record<string, unknown>[]> {
    const file = join(tmp, 'q.sql');
    writeFileSync(file, sql);
    const r = await runBin(['query', index, '--file', file, '--json']);
    expect([r.code, r.stderr], sql).toEqual([0, '']);
    return jsonLines(r.stdout);
  }

  beforeAll(async () => {
    // Its real path: the index names files by theirs (a temp folder may be a link, as on macOS).
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'levelkit-text-objects-')));
    const levels = join(tmp, 'levels');
    mkdirSync(levels);
    for (const p of [...GRAAL, join(FIXTURES, 'gwc/sample.gwz'), join(FIXTURES, 'gwc/basic.gwc')]) copyFileSync(p, join(levels, p.split('/').pop()!));
    writeFileSync(join(levels, 'many-signs.graal'), graal.encode(manySigns('graal')));
    writeFileSync(join(levels, 'many-signs.nw'), graal.encode(manySigns('graal-nw')));
    for (const name of readdirSync(levels)) files.set(join(levels, name), decode(readFileSync(join(levels, name))));
    index = join(tmp, 'index');
    // Two workers, so levels' rows come back in an order of their own; a generous per-file time limit for a loaded machine.
    const r = await runBin(['scan', levels, '--index', index, '--workers', '2', '--timeout', '60', '--quiet', '--out', join(tmp, 'records.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('every sign, NPC script and baddy verse joins to exactly one object of its kind at the coordinates its level has', async () => {
    const rows = await query(
      `SELECT f.path, x.source, o.kind, o.x, o.y, x.text FROM texts x LEFT JOIN objects o USING (id, object) JOIN files f USING (id)
       WHERE f.format LIKE 'graal%' AND (x.object IS NOT NULL OR x.source IN ('sign', 'npc', 'baddy-verse'))`,
    );
    const got = new Map<string, string[]>();
    for (const r of rows) got.set(r.path as string, [...(got.get(r.path as string) ?? []), `${r.source} ${r.kind} ${r.x},${r.y} ${r.text}`]);
    let signs = 0;
    for (const [path, value] of files) {
      if (value.format !== 'graal' && value.format !== 'graal-nw') continue;
      const want = graalOwned(value);
      signs += value.signs.length;
      expect((got.get(path) ?? []).sort(), path).toEqual(want);
    }
    expect(signs).toBeGreaterThanOrEqual(2 * 77);
  });

  it('the texts of no object have none, and Wherigo media names and start descriptions join to theirs', async () => {
    const stray = await query(
      `SELECT x.source, count(*) AS n FROM texts x LEFT JOIN objects o USING (id, object) WHERE x.object IS NOT NULL AND o.kind IS NULL GROUP BY 1`,
    );
    expect(stray).toEqual([]);
    const owned = await query(`SELECT DISTINCT x.source, o.kind FROM texts x JOIN objects o USING (id, object) ORDER BY 1`);
    expect(owned.map((r) => `${r.source} ${r.kind}`)).toEqual(
      Object.entries(OWNER)
        .map(([s, k]) => `${s} ${k}`)
        .sort(),
    );
    const unowned = await query(
      `SELECT DISTINCT source FROM texts WHERE object IS NULL AND source IN (${Object.keys(OWNER)
        .map((s) => `'${s}'`)
        .join(', ')})`,
    );
    expect(unowned).toEqual([]);
  });

  it("the README's recipe finds every sign containing a word, with its file and coordinates", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const at = readme.indexOf('-- Every sign containing a word');
    expect(at, 'the recipe is in the README').toBeGreaterThan(0);
    const recipe = readme.slice(at, readme.indexOf(';', at) + 1);
    expect(recipe).toContain("'%sword%'");
    const rows = await query(recipe);
    const want: string[] = [];
    for (const [path, value] of files)
      if (value.format === 'graal' || value.format === 'graal-nw')
        for (const s of value.signs) if (/sword/i.test(s.text)) want.push(`${path} ${s.x},${s.y} ${s.text}`);
    expect(want.length).toBeGreaterThanOrEqual(2 * 16);
    expect(rows.map((r) => `${r.path} ${r.x},${r.y} ${r.text}`).sort()).toEqual(want.sort());
  });
});
