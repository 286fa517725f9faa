// One verdict at every depth (issue 19 §3): a file the cheap decode (`sections: 'summary'`, what
// `info` and the default scan do) calls fine must not fail the full decode (`render`, `--depth
// full`, `decode()`), and a file it fails must fail the same way. And one set of warnings (issue
// 28 §2): the cheap record's warnings are the full record's, except for the codes it names in
// `unchecked` (checks that need data the cheap decode leaves deflated), so no table counts a
// warning as absent that was never looked for. Run over every fixture (the malformed ones
// included, zip members too), maps built to warn while their tiles are read, and the whole shared
// corpus, every format.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { reportOf, reportTable, type ScanRecord, scan } from '../src/scan/index.js';
import { tileWarningMap } from './formats/teeworlds-warning-maps.js';
import { corpus, describeWith, type Need } from './helpers/needs.js';
import { CORPUS, FIXTURES } from './helpers/paths.js';

/** path (and zip member) → record, for one scan depth. */
type Records = Map<string, ScanRecord>;

async function records(root: string, depth: 'cheap' | 'full'): Promise<Records> {
  const out: Records = new Map();
  for await (const r of scan([root], { depth, workers: 2, all: true }) as AsyncIterable<ScanRecord>) {
    if (r.format === null && !r.error) continue; // not a level
    out.set(`${r.path}${r.member === null ? '' : ` :: ${r.member}`}`, r);
  }
  return out;
}

type Verdicts = Map<string, string>;

/** path (and zip member) → 'ok' or the error code. */
function verdicts(rs: Records): Verdicts {
  return new Map([...rs].map(([k, r]) => [k, r.error?.code ?? 'ok']));
}

/** Files whose verdicts differ, as `file: cheap → full`. */
function disagreements(cheap: Verdicts, full: Verdicts): string[] {
  const keys = new Set([...cheap.keys(), ...full.keys()]);
  return [...keys].filter((k) => cheap.get(k) !== full.get(k)).map((k) => `${k}: ${cheap.get(k) ?? 'absent'} → ${full.get(k) ?? 'absent'}`);
}

/**
 * Files decoded at both depths whose warnings differ beyond what the cheap record says it did not
 * check: the warnings of every other code must be the same (code, offset, message, in order); those
 * of an unchecked code the cheap decode did find must be among the full decode's. A full record
 * names nothing unchecked.
 */
function warningDisagreements(cheap: Records, full: Records): string[] {
  const out: string[] = [];
  const line = (w: { code: string; offset: number | null; message: string }) => `${w.code}@${w.offset}: ${w.message}`;
  for (const [k, c] of cheap) {
    const f = full.get(k);
    if (!c.warnings || !f?.warnings) continue;
    if (f.unchecked) out.push(`${k}: the full record has unchecked ${f.unchecked}`);
    const unchecked = new Set(c.unchecked ?? []);
    const checked = (ws: typeof c.warnings) => ws!.filter((w) => !unchecked.has(w.code)).map(line);
    if (JSON.stringify(checked(c.warnings)) !== JSON.stringify(checked(f.warnings))) out.push(`${k}: ${checked(c.warnings)} ≠ ${checked(f.warnings)}`);
    const fullLines = new Set(f.warnings.map(line));
    for (const w of c.warnings) if (unchecked.has(w.code) && !fullLines.has(line(w))) out.push(`${k}: ${line(w)} not in the full record`);
  }
  return out;
}

it('fixtures (good and bad, every format): the cheap and the full decode give the same verdict and warnings', async () => {
  const cheap = await records(FIXTURES, 'cheap');
  const full = await records(FIXTURES, 'full');
  expect(disagreements(verdicts(cheap), verdicts(full))).toEqual([]);
  expect(warningDisagreements(cheap, full)).toEqual([]);
  // The suite covers both kinds of verdict: it would pass vacuously on an empty or all-ok folder.
  const codes = new Set(verdicts(cheap).values());
  expect(cheap.size).toBeGreaterThan(80);
  expect(codes.has('ok') && codes.size).toBeGreaterThan(5);
}, 300_000);

it('maps that warn while their tiles are read: UNDERSIZED_TILES at both depths; NONZERO_TILE_SKIP found, or named unchecked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-depth-warnings-'));
  for (const f of ['ddnet', 'teeworlds07'] as const) writeFileSync(join(dir, `${f}.map`), tileWarningMap(f));
  const cheap = await records(dir, 'cheap');
  const full = await records(dir, 'full');
  expect(warningDisagreements(cheap, full)).toEqual([]);
  const codes = (rs: Records, name: string) => rs.get(join(dir, name))!.warnings!.map((w) => w.code);
  expect(codes(full, 'ddnet.map')).toEqual(['NONZERO_TILE_SKIP', 'NONZERO_TILE_SKIP', 'NONZERO_TILE_SKIP', 'UNDERSIZED_TILES']);
  // The game grid is read at every depth (for gridDigest); the tiles and front grids are not.
  expect(codes(cheap, 'ddnet.map')).toEqual(['NONZERO_TILE_SKIP', 'UNDERSIZED_TILES']);
  expect(codes(cheap, 'teeworlds07.map')).toEqual([]);
  for (const r of cheap.values()) expect(r.unchecked).toEqual(['NONZERO_TILE_SKIP']);
  for (const r of full.values()) expect(r.unchecked).toBeUndefined();
  // The summary says so: not a count of warnings checked for and not found.
  const cheapReport = reportOf(cheap.values());
  expect(cheapReport.unchecked).toEqual({ NONZERO_TILE_SKIP: 2 });
  expect(reportTable(cheapReport)).toMatch(/^not checked\s+NONZERO_TILE_SKIP in 2 files /m);
  expect(reportOf(full.values()).unchecked).toEqual({});
  expect(reportTable(reportOf(full.values()))).not.toMatch(/not checked/);
}, 120_000);

const FOLDERS = ['graal', 'gwc', 'teeworlds', 'wwd'];
function wholeCorpus(): Need<string> {
  for (const f of FOLDERS) {
    const n = corpus(f);
    if (!n.ok) return n;
  }
  return { ok: true, value: CORPUS };
}

describeWith(wholeCorpus(), 'shared corpus at both depths', (root) => {
  it('every file: the cheap and the full decode give the same verdict and warnings', async () => {
    const cheap = await records(root, 'cheap');
    const full = await records(root, 'full');
    expect(cheap.size).toBeGreaterThan(5000);
    expect(disagreements(verdicts(cheap), verdicts(full))).toEqual([]);
    expect(warningDisagreements(cheap, full)).toEqual([]);
  }, 900_000);
});
