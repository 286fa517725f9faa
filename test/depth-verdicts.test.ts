// One verdict at every depth (issue 19 §3): a file the cheap decode (`sections: 'summary'`, what
// `info` and the default scan do) calls fine must not fail the full decode (`render`, `--depth
// full`, `decode()`), and a file it fails must fail the same way. Run over every fixture (the
// malformed ones included, zip members too) and over the whole shared corpus, every format.
import { expect, it } from 'vitest';
import { type ScanRecord, scan } from '../src/scan/index.js';
import { corpus, describeWith, type Need } from './helpers/needs.js';
import { CORPUS, FIXTURES } from './helpers/paths.js';

type Verdicts = Map<string, string>;

/** path (and zip member) → 'ok' or the error code, for one scan depth. */
async function verdicts(root: string, depth: 'cheap' | 'full'): Promise<Verdicts> {
  const out: Verdicts = new Map();
  for await (const r of scan([root], { depth, workers: 2, all: true }) as AsyncIterable<ScanRecord>) {
    if (r.format === null && !r.error) continue; // not a level
    out.set(`${r.path}${r.member === null ? '' : ` :: ${r.member}`}`, r.error?.code ?? 'ok');
  }
  return out;
}

/** Files whose verdicts differ, as `file: cheap → full`. */
function disagreements(cheap: Verdicts, full: Verdicts): string[] {
  const keys = new Set([...cheap.keys(), ...full.keys()]);
  return [...keys].filter((k) => cheap.get(k) !== full.get(k)).map((k) => `${k}: ${cheap.get(k) ?? 'absent'} → ${full.get(k) ?? 'absent'}`);
}

it('fixtures (good and bad, every format): the cheap and the full decode give the same verdict', async () => {
  const cheap = await verdicts(FIXTURES, 'cheap');
  const full = await verdicts(FIXTURES, 'full');
  expect(disagreements(cheap, full)).toEqual([]);
  // The suite covers both kinds of verdict: it would pass vacuously on an empty or all-ok folder.
  const codes = new Set(cheap.values());
  expect(cheap.size).toBeGreaterThan(80);
  expect(codes.has('ok') && codes.size).toBeGreaterThan(5);
}, 300_000);

const FOLDERS = ['graal', 'gwc', 'teeworlds', 'wwd'];
function wholeCorpus(): Need<string> {
  for (const f of FOLDERS) {
    const n = corpus(f);
    if (!n.ok) return n;
  }
  return { ok: true, value: CORPUS };
}

describeWith(wholeCorpus(), 'shared corpus at both depths', (root) => {
  it('every file: the cheap and the full decode give the same verdict', async () => {
    const cheap = await verdicts(root, 'cheap');
    const full = await verdicts(root, 'full');
    expect(cheap.size).toBeGreaterThan(5000);
    expect(disagreements(cheap, full)).toEqual([]);
  }, 900_000);
});
