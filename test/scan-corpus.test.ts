// A scan of the whole shared corpus (issue 13): every format folder, ~5,300 files, with two
// workers as in CI. It must end without a crash, a hang or an internal error, with one record per
// file of each MANIFEST.tsv, and the decoded counts per format the corpus is known to hold.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { reportOf, type ScanRecord, scan } from '../src/scan/index.js';
import { corpus, describeWith, type Need } from './helpers/needs.js';
import { CORPUS } from './helpers/paths.js';

// gwc/gwz has a MANIFEST.tsv of its own.
const FOLDERS = ['graal', 'gwc', 'gwc/gwz', 'teeworlds', 'wwd'];

/** Every format folder of the corpus, or what is missing. */
function wholeCorpus(): Need<string> {
  for (const f of FOLDERS) {
    const n = corpus(f);
    if (!n.ok) return n;
  }
  return { ok: true, value: CORPUS };
}

describeWith(wholeCorpus(), 'scan of the whole shared corpus', (root) => {
  const recs: ScanRecord[] = [];
  let seconds = 0;

  it('finishes: no INTERNAL, TIMEOUT or WORKER_CRASHED record', async () => {
    const t0 = performance.now();
    for await (const r of scan([root], { workers: 2, all: true })) recs.push(r);
    seconds = (performance.now() - t0) / 1000;
    console.log(`[levelkit] corpus scan: ${recs.length} records in ${seconds.toFixed(1)} s`);
    expect(recs.filter((r) => ['INTERNAL', 'TIMEOUT', 'WORKER_CRASHED'].includes(r.error?.code ?? ''))).toEqual([]);
  }, 300_000);

  it.each(FOLDERS)('%s: one record per file of MANIFEST.tsv', (folder) => {
    const manifest = readFileSync(join(root, folder, 'MANIFEST.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split('\t')[0]!);
    const prefix = `${join(root, folder)}/`;
    const listed = new Set(manifest);
    const nested = FOLDERS.filter((f) => f.startsWith(`${folder}/`)).map((f) => `${f.slice(folder.length + 1)}/`);
    const files = recs
      .filter((r) => r.member === null && r.path.startsWith(prefix))
      .map((r) => r.path.slice(prefix.length))
      .filter((f) => !nested.some((n) => f.startsWith(n)));
    // Everything on disk is in the manifest, except the manifest itself and READMEs.
    const scanned = files.filter((f) => !/(^|\/)(MANIFEST\.tsv|README\.md)$/.test(f));
    expect(new Set(scanned)).toEqual(listed);
    expect(scanned.length).toBe(manifest.length);
  });

  it('decoded counts per format are those of the corpus', () => {
    const report = reportOf(recs);
    const files = Object.fromEntries(Object.entries(report.formats).map(([f, v]) => [f, v.files]));
    // graal: 4,918 files = 2,930 binary levels + 1,979 .nw + 8 .gmap + 1 GIF named .graal (UNKNOWN_FORMAT).
    // wwd: 61 = 60 + 1 with a bad signature. teeworlds: 287. gwc: 27 cartridges and 14 GWZ.
    expect(files).toEqual({ graal: 2930, 'graal-gmap': 8, 'graal-nw': 1979, gwc: 27, gwz: 14, teeworlds: 287, wwd: 60 });
    expect(report.errors).toEqual({ UNKNOWN_FORMAT: 2 });
  });
});
