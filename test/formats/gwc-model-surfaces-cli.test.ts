// The object model's surfaces as a user meets them (`levelkit info`, `extract`, `check`), on a
// fixture cartridge whose Lua chunk is damaged past its header: the file decodes, its analysis
// cannot, and every command still gives the rest of the file with a warning or finding saying why.
// And the same commands on the analysis fixture (fixtures/gwc/lua/analysis.lua), whose objects are known.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DecodeError, gwc } from '../../src/index.js';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-gwc-objects-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** basic.gwc with its main function's instruction count set past the chunk's end: the cartridge decodes, its chunk does not. */
function damagedChunk(): string {
  const bytes = readBytes(join(FIXTURES, 'gwc', 'basic.gwc')).slice();
  const c = gwc.decode(bytes) as gwc.GwcCartridge;
  const chunk = c.lua.offset + 4;
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const sourceLength = view.getUint32(chunk + 12, true);
  view.setInt32(chunk + 12 + 4 + sourceLength + 8 + 4, 0x7fff_fff0, true);
  expect(() => gwc.decodeLua(gwc.decode(bytes) as gwc.GwcCartridge)).toThrow(DecodeError);
  const path = join(tmp, 'damaged-chunk.gwc');
  writeFileSync(path, bytes);
  return path;
}
const DAMAGED = damagedChunk();

describe('a cartridge whose objects cannot be analysed', () => {
  it('info: the summary as ever, objectModel unknown and an OBJECT_MODEL warning saying why', () => {
    const r = cli('info', '--json', DAMAGED);
    expect(r.status).toBe(0);
    const [rec] = jsonLines(r.stdout);
    expect(rec!.summary.name).toBe('Schatzsuche in Köln – Größe ✓');
    expect(rec!.summary.objectModel).toEqual({
      unknown: expect.stringMatching(/^the cartridge's objects could not be analysed: gwc: lua.proto\[0\].code at 0x[0-9a-f]+: input ends too early/),
    });
    expect(rec!.warnings).toEqual([{ code: 'OBJECT_MODEL', message: rec!.summary.objectModel.unknown, offset: null }]);
    const text = cli('info', DAMAGED);
    expect(text.stdout).toMatch(/\n {2}wherigo objects +not known: /);
    expect(text.stdout).toMatch(/\n {2}warning +OBJECT_MODEL: /);
  });

  it('extract: every other file written, objects.json and messages.txt saying why, no map files', () => {
    const out = join(tmp, 'extract');
    const r = cli('extract', DAMAGED, '-o', out);
    expect(r.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['cartridge.json', 'cartridge.luac', 'lua.txt', 'media', 'messages.txt', 'objects.json']);
    const why = JSON.parse(readFileSync(join(out, 'objects.json'), 'utf8'));
    expect(why).toEqual({ unknown: expect.any(String) });
    expect(readFileSync(join(out, 'messages.txt'), 'utf8')).toBe(`${why.unknown}\n`);
    expect(existsSync(join(out, 'zones.geojson'))).toBe(false);
    // The extract machinery's rules hold for the new files: nothing is overwritten without --force.
    const again = cli('extract', DAMAGED, '-o', out);
    expect(again.status).toBe(2);
    expect(again.stdout + again.stderr).toMatch(/objects\.json.*already exist/);
  });

  it('extract: a full device where objects.json goes fails loudly (IO naming it), as for every extracted file', () => {
    const out = join(tmp, 'extract-full');
    cli('extract', join(FIXTURES, 'gwc', 'basic.gwc'), '-o', out);
    const target = join(out, 'objects.json');
    rmSync(target);
    if (spawnSync('mknod', ['-m', '666', target, 'c', '1', '7']).status !== 0)
      return void console.warn('[levelkit] full-device case SKIPPED: mknod needs root');
    const r = cli('extract', join(FIXTURES, 'gwc', 'basic.gwc'), '-o', out, '--force');
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/IO.*objects\.json/);
  });

  it('check: one gwc/analysis-failed finding saying why, the other rules still run, no internal error', () => {
    const r = cli('check', '--json', '--quiet', DAMAGED);
    const findings = jsonLines(r.stdout);
    expect(findings.filter((f) => f.rule === 'gwc/analysis-failed')).toHaveLength(1);
    expect(findings.find((f) => f.rule === 'gwc/analysis-failed')!.severity).toBe('warning');
    expect(findings.some((f) => f.rule === 'check/internal' || f.rule === 'decode')).toBe(false);
    expect(r.status).toBe(0);
  });
});

describe('the analysis fixture', () => {
  const FIXTURE = join(FIXTURES, 'gwc', 'analysis.gwc');

  it('info: objects by kind, the zone with its centre (the mean of its 3 points), no string decoder, no warning', () => {
    const [rec] = jsonLines(cli('info', '--json', FIXTURE).stdout);
    expect(rec!.warnings).toEqual([]);
    expect(rec!.summary.objectModel).toEqual({
      byKind: { zone: 1, item: 2, character: 1, task: 1, timer: 1, input: 1, media: 3, command: 1, cartridge: 1, other: 0 },
      zones: [{ n: 4, name: 'Harbour', centre: { lat: 47.5, lon: expect.closeTo(-122.416667, 5) } }],
      stringDecoders: [],
    });
  });

  it('extract: the four object files beside the others, the zone a closed polygon', () => {
    const out = join(tmp, 'fixture');
    expect(cli('extract', FIXTURE, '-o', out).status).toBe(0);
    for (const f of ['objects.json', 'zones.geojson', 'zones.gpx', 'messages.txt', 'cartridge.json', 'lua.txt']) expect(existsSync(join(out, f)), f).toBe(true);
    const ring = JSON.parse(readFileSync(join(out, 'zones.geojson'), 'utf8')).features[0].geometry.coordinates[0];
    expect(ring).toHaveLength(4);
    expect(ring[3]).toEqual(ring[0]);
    expect(readFileSync(join(out, 'messages.txt'), 'utf8')).toContain('zone 4 "Harbour" OnEnter:\n  Welcome to the harbour\n');
  });
});
