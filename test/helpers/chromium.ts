// A headless Chromium for the browser suites (Debian's chromium driven by playwright-core), and
// the page server. Missing or broken, a suite is skipped locally and fails under CI (needs.ts).
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
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
