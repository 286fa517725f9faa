// What the browser suites need to open big things in the page and time it: the corpus's largest
// Teeworlds map, a zip of N corpus files, panning the view as a person drags it, and the longest
// pause of the page's main thread (PerformanceObserver 'longtask', ≥ 50 ms, and a 5-ms heartbeat
// that sees shorter ones). Shared by test/e2e.test.ts (reports) and the browser bench (times).
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { listFiles, readBytes } from './paths.js';

/** The largest .map under `dir`, or undefined when there is none. */
export function largestCorpusMap(dir: string): string | undefined {
  return listFiles(dir, /\.map$/i).sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

/**
 * A zip of `n` level files of the corpus at `root`, taken in turn from each format's folder (sorted
 * by path, so the same files every run), at most 1 MiB each so the zip stays a few tens of MB.
 */
export function corpusZip(root: string, n: number): { zip: Uint8Array; count: number; path: string } {
  const formats = ['teeworlds', 'wwd', 'graal', 'gwc', 'wdata'].flatMap((f) => {
    try {
      return [listFiles(`${root}/${f}`, /\.(map|wwd|graal|zelda|nw|gmap|gwc|wdata)$/i).filter((p) => statSync(p).size <= 1 << 20)];
    } catch {
      return [];
    }
  });
  const picked: string[] = [];
  for (let i = 0; picked.length < n && formats.some((l) => i < l.length); i++)
    for (const l of formats) if (i < l.length && picked.length < n) picked.push(l[i]!);
  const zip = zipSync(Object.fromEntries(picked.map((p) => [relative(root, p), readBytes(p)])), { level: 1 });
  // Picked from disk, as a person would: handing the page tens of MB as a buffer makes Playwright
  // build the file in the page's own thread, a pause that is the harness's, not the page's.
  const path = join(mkdtempSync(join(tmpdir(), 'levelkit-corpus-zip-')), `corpus-${n}.zip`);
  writeFileSync(path, zip);
  return { zip, count: picked.length, path };
}

/** Starts watching the page's main thread; maxLongTask() reads what was seen since. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { pauses: { longTask: number; heartbeat: number; stop(): void } };
    w.pauses?.stop();
    const pauses = { longTask: 0, heartbeat: 0, stop: () => {} };
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) pauses.longTask = Math.max(pauses.longTask, e.duration);
    });
    observer.observe({ type: 'longtask' });
    let last = performance.now();
    const beat = setInterval(() => {
      const now = performance.now();
      pauses.heartbeat = Math.max(pauses.heartbeat, now - last - 5);
      last = now;
    }, 5);
    pauses.stop = () => {
      observer.disconnect();
      clearInterval(beat);
    };
    w.pauses = pauses;
  });
}

/** The longest main-thread pause since watchLongTasks(), in ms: the longest 'longtask' entry, or the heartbeat's longest gap when no task reached 50 ms. */
export async function maxLongTask(page: Page): Promise<{ longTask: number; heartbeat: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { pauses: { longTask: number; heartbeat: number; stop(): void } };
    w.pauses.stop();
    return { longTask: w.pauses.longTask, heartbeat: w.pauses.heartbeat };
  });
}

/** Drags the element's contents about in `steps` strokes (a zig-zag), as a person pans a map. */
export async function pan(page: Page, selector: string, steps: number): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  for (let i = 0; i < steps; i++) {
    const dx = (i % 2 ? -1 : 1) * box.width * 0.35;
    const dy = (i % 4 < 2 ? 1 : -1) * box.height * 0.2;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + dx, cy + dy, { steps: 12 });
    await page.mouse.up();
  }
}
