// A headless Chromium for the browser suites (Debian's chromium driven by playwright-core), and
// the page server. Missing or broken, a suite is skipped locally and fails under CI (needs.ts).
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { Need } from './needs.js';
import { ROOT } from './paths.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A started Chromium, or what kept it from starting; `needs` lists built files the suite loads. */
export async function startChromium(needs: readonly string[]): Promise<Need<Browser>> {
  if (!existsSync(CHROMIUM)) return { ok: false, missing: `${CHROMIUM} not found (.ci/run installs Debian's chromium; CHROMIUM_PATH names another)` };
  for (const f of needs) if (!existsSync(`${ROOT}/${f}`)) return { ok: false, missing: `${f} not found (npm run build)` };
  try {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    return { ok: true, value: browser };
  } catch (e) {
    return { ok: false, missing: `${CHROMIUM} did not start: ${String((e as Error)?.message ?? e).split('\n')[0]}` };
  }
}

/**
 * Waits until the inspector's detail view has finished showing the file called `name` (a file of a
 * zip is headed `archive.zip/path/name`). The state and the heading are read together: a text match
 * anywhere in the view is not enough, because the file shown before may name this one (a .nw linking
 * to world.gmap matched at once and the test read the .nw's format).
 */
export async function waitForDetail(page: Page, name: string, timeout: number): Promise<void> {
  const shows = (n: string): boolean => {
    const heading = document.getElementById('name')?.textContent ?? '';
    return document.getElementById('detail')?.dataset.state === 'done' && (heading === n || heading.endsWith(`/${n}`));
  };
  await page.waitForFunction(shows, name, { timeout });
}
