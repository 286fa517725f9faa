// Issue 41's floors for the site's index page: a 50,000-level catalogue (synthetic, named and
// mixed like a community archive: test/helpers/site-folder.ts) opened from file:// in headless
// Chromium with the built pages (dist/site/). Measured in the page, so Chromium's start and the
// harness are not counted:
//   load    navigation start → the first rows of the table in the DOM (body data-ready-ms), fresh tab each run
//   filter  one control changed → the list rebuilt and laid out (performance.now() around the event and a layout)
//   sort    the same for a sort order, first time (the order computed) and again (kept)
// Medians of SITE_RUNS runs (default 5); floors: load ≤ 3 s, filter ≤ 200 ms. Not a test:
// `npm run bench:site` (builds first). Writes only a temporary folder, removed at the end.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { startChromium } from '../test/helpers/chromium.js';
import { copyAssets, syntheticCatalogue, writeCatalogue } from '../test/helpers/site-folder.js';
import { printTable } from './lib.js';

const LEVELS = Number(process.env.SITE_LEVELS ?? 50_000);
const RUNS = Math.max(1, Number(process.env.SITE_RUNS ?? 5));
const LOAD_FLOOR_MS = 3000;
const FILTER_FLOOR_MS = 200;

const uptime = () => readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** A change to the index page's controls, made in the page and timed there. */
interface Step {
  label: string;
  kind: 'filter' | 'sort';
  /** CSS selector of the control and the value set (checkboxes: 'on' / 'off'). */
  control: string;
  value: string;
  event: 'change' | 'input';
}

/** Sets the control, fires its event and forces layout: ms from the event to the list laid out. */
function timeStep(page: Page, step: Step): Promise<{ ms: number; shown: number }> {
  return page.evaluate((s) => {
    const c = document.querySelector(s.control) as HTMLInputElement | HTMLSelectElement;
    if (c instanceof HTMLInputElement && c.type === 'checkbox') c.checked = s.value === 'on';
    else c.value = s.value;
    const t0 = performance.now();
    c.dispatchEvent(new Event(s.event, { bubbles: true }));
    void document.getElementById('list')!.getBoundingClientRect().height; // layout of the new rows
    return { ms: performance.now() - t0, shown: Number(document.body.dataset.shown) };
  }, step);
}

/** Every control back to the default view (the whole list by name), not timed. */
function reset(page: Page): Promise<void> {
  return page.evaluate(() => {
    for (const id of ['filter-format', 'filter-author', 'filter-tile', 'filter-logic', 'filter-image', 'filter-text'])
      (document.getElementById(id) as HTMLInputElement).value = '';
    for (const id of ['filter-findings', 'sort-desc']) (document.getElementById(id) as HTMLInputElement).checked = false;
    const sort = document.getElementById('sort') as HTMLSelectElement;
    sort.value = 'name';
    sort.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

async function main(): Promise<void> {
  const loadBefore = uptime();
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-site-bench-'));
  const chromium = await startChromium(['dist/site/site.js', 'dist/site/site.css']);
  if (!chromium.ok) throw new Error(`Chromium: ${chromium.missing}`);
  const browser = chromium.value;
  try {
    const catalogue = syntheticCatalogue(LEVELS);
    copyAssets(dir);
    writeCatalogue(dir, catalogue);
    const size = statSync(join(dir, 'data', 'catalogue.js')).size;
    const url = `${pathToFileURL(dir).href}/index.html`;
    const author = catalogue.strings[catalogue.levels.author.find((a) => a >= 0)!]!;
    const steps: Step[] = [
      { label: 'format = teeworlds', kind: 'filter', control: '#filter-format', value: 'teeworlds', event: 'change' },
      { label: 'text "castle"', kind: 'filter', control: '#filter-text', value: 'castle', event: 'input' },
      { label: 'text "castle tower"', kind: 'filter', control: '#filter-text', value: 'castle tower', event: 'input' },
      { label: `author ${author}`, kind: 'filter', control: '#filter-author', value: author, event: 'change' },
      { label: 'uses logic:Officer', kind: 'filter', control: '#filter-logic', value: 'Officer', event: 'change' },
      { label: 'has findings', kind: 'filter', control: '#filter-findings', value: 'on', event: 'change' },
      { label: 'sort by path (first)', kind: 'sort', control: '#sort', value: 'path', event: 'change' },
      { label: 'sort by author (first)', kind: 'sort', control: '#sort', value: 'author', event: 'change' },
      { label: 'sort by bytes (first)', kind: 'sort', control: '#sort', value: 'bytes', event: 'change' },
      { label: 'sort by bytes (kept)', kind: 'sort', control: '#sort', value: 'bytes', event: 'change' },
    ];
    const loads: number[] = [];
    const walls: number[] = [];
    const times = new Map<string, number[]>(steps.map((s) => [s.label, []]));
    const shown = new Map<string, number>();
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
      const t0 = performance.now();
      await page.goto(url);
      await page.waitForSelector('body[data-ready="1"]', { timeout: 60_000 });
      walls.push(performance.now() - t0);
      loads.push(Number(await page.getAttribute('body', 'data-ready-ms')));
      for (const step of steps) {
        // Each step from the whole list sorted by name; "kept" sorts by an order computed before.
        await reset(page);
        const r = await timeStep(page, step);
        times.get(step.label)!.push(r.ms);
        shown.set(step.label, r.shown);
      }
      await page.close();
    }
    const loadAfter = uptime();
    console.log(`\n${LEVELS} levels, catalogue.js ${(size / 1048576).toFixed(1)} MB, ${RUNS} runs, load (uptime) ${loadBefore} → ${loadAfter}`);
    const ok = (ms: number, floor: number) => `${ms.toFixed(0)} ms ${ms <= floor ? '✔' : '✘'} (≤ ${floor})`;
    printTable(
      'Index page, medians',
      ['what', 'median', 'runs (ms)', 'rows shown'],
      [
        ['load: navigation → first rows in the DOM', ok(median(loads), LOAD_FLOOR_MS), loads.map((x) => x.toFixed(0)).join(' '), String(LEVELS)],
        ['load, seen from the harness (goto → ready)', `${median(walls).toFixed(0)} ms`, walls.map((x) => x.toFixed(0)).join(' '), ''],
        ...steps.map((s) => {
          const t = times.get(s.label)!;
          return [s.label, ok(median(t), FILTER_FLOOR_MS), t.map((x) => x.toFixed(0)).join(' '), String(shown.get(s.label))];
        }),
      ],
    );
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
