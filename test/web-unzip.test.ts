// The page lists a dropped zip as `levelkit scan` lists it: the same members under the same names
// (nested zips opened, their members named through them), the same refusals with the same codes
// (overlapping members, the per-archive inflate budget, nested budgets charging the zip around
// them, members that inflate past their declared size). Compared here member by member against
// scan() itself, in Node: web/unzip.ts has no DOM dependency.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { type ScanRecord, scan } from '../src/scan/index.js';
import { ZipError } from '../src/scan/zip.js';
import { levelFilesIn } from '../web/unzip.js';
import { FIXTURES, readBytes } from './helpers/paths.js';
import { craftZip } from './helpers/zips.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-web-unzip-'));
const MiB = 1 << 20;
const zeros = (n: number) => new Uint8Array(n);
const fixture = (...p: string[]) => readBytes(join(FIXTURES, ...p));

/** What the scan says of each member of `zip`: name → error code (null for a member it reads). */
async function scanned(name: string, zip: Uint8Array): Promise<[string, string | null][]> {
  const p = join(tmp, name);
  writeFileSync(p, zip);
  const out: ScanRecord[] = [];
  for await (const r of scan([p], { workers: 1, sort: true })) out.push(r);
  // Decode errors of members that were read belong to the decoder, which the page runs later.
  return out.map((r) => [r.member!, r.error && ['CORRUPT_ARCHIVE', 'LIMIT_EXCEEDED'].includes(r.error.code) && r.format === null ? r.error.code : null]);
}

async function listed(zip: Uint8Array): Promise<[string, string | null][]> {
  return (await levelFilesIn(zip)).map((m) => [m.name, m.refused?.code ?? null]);
}

const sortByName = (rows: [string, string | null][]) => [...rows].sort((a, b) => (a[0] < b[0] ? -1 : 1));

/** `zip` with its single member's declared size set to `size` (local header and directory). */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
  const z = zip.slice();
  const v = new DataView(z.buffer);
  v.setUint32(22, size, true);
  for (let i = z.length - 22; i >= 0; i--)
    if (v.getUint32(i, true) === 0x02014b50) {
      v.setUint32(i + 24, size, true);
      break;
    }
  return z;
}

const levels = {
  'a.wwd': fixture('wwd', 'claw-compressed.wwd'),
  'b.map': fixture('teeworlds', 'ddrace-v2.map'),
  'c.nw': fixture('graal', 'crlf.nw'),
  'notes.txt': new TextEncoder().encode('not a level'),
};
const overlapping = craftZip([{ name: 'bomb.bin', data: zeros(MiB) }], {
  directory: Array.from({ length: 50 }, (_, i) => ({ name: `copy${i}.map`, member: 0 })),
});

const cases: [string, Uint8Array][] = [
  ['the fixture zip', fixture('zip', 'levels.zip')],
  ['levels, one not a level', zipSync(levels, { level: 6 })],
  [
    'levels nested two deep',
    zipSync({ 'x.wwd': levels['a.wwd'], 'in.zip': zipSync({ 'y.map': levels['b.map'], 'deeper.zip': zipSync({ 'z.nw': levels['c.nw'] }) }) }, { level: 0 }),
  ],
  ['a dense zip over the ratio', zipSync({ 'a.map': zeros(2 * MiB), 'b.map': zeros(2 * MiB) }, { level: 9 })],
  [
    'nested zips charging the zip around them',
    zipSync(
      { 'one.zip': zipSync({ 'one.map': zeros(700 * 1024) }, { level: 9 }), 'two.zip': zipSync({ 'two.map': zeros(700 * 1024) }, { level: 9 }) },
      { level: 0 },
    ),
  ],
  ['a nested zip whose members overlap', zipSync({ 'ok.nw': levels['c.nw'], 'bomb.zip': overlapping }, { level: 0 })],
  ['a member inflating past its declared size', declareSize(zipSync({ 'a.map': levels['b.map'] }, { level: 6 }), 100)],
];

describe('the page lists a zip as the scan does', () => {
  for (const [what, zip] of cases)
    it(what, async () => {
      const page = sortByName(await listed(zip));
      expect(page.length).toBeGreaterThan(0);
      expect(page).toEqual(sortByName(await scanned(`${what.replace(/\W+/g, '-')}.zip`, zip)));
    });

  it('refusals carry the reason, and the nested zips are really opened', async () => {
    const dense = await levelFilesIn(cases[3]![1]);
    expect(dense[0]!.refused!.message).toMatch(/over 100 × its size/);
    const nested = await levelFilesIn(cases[2]![1]);
    expect(nested.map((m) => m.name)).toEqual(['in.zip/deeper.zip/z.nw', 'in.zip/y.map', 'x.wwd']);
    expect(nested[0]!.bytes).toEqual(levels['c.nw']);
    const lying = await levelFilesIn(cases[6]![1]);
    expect(lying[0]!.refused).toMatchObject({ code: 'CORRUPT_ARCHIVE', message: expect.stringMatching(/past the 100 bytes/) });
  });

  it('a dropped zip whose members overlap is refused whole, before anything is inflated', async () => {
    await expect(levelFilesIn(overlapping)).rejects.toThrow(ZipError);
    await expect(levelFilesIn(overlapping)).rejects.toMatchObject({ code: 'CORRUPT_ARCHIVE' });
  });

  it('the dropped bytes are not changed', async () => {
    const zip = cases[2]![1];
    const copy = zip.slice();
    await levelFilesIn(zip);
    expect(zip).toEqual(copy);
  });
});
