// The browser build in a real (headless) Chromium: the demo page decodes every fixture with the
// pako inflater and the WASM kernels, and must report exactly what Node reports with native zlib.
// Needs Debian's chromium (.ci/run installs it) and dist/: without them, or when Chromium does not
// start, the suite is skipped with a notice, or fails under CI (test/helpers/needs.ts decides).
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decode, summarize } from '../src/index.js';
import { describeWith, type Need } from './helpers/needs.js';
import { FIXTURES, listFiles, ROOT, readBytes } from './helpers/paths.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FIXTURE_FILES = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|wdata)$/i).filter((p) => !p.includes('/bad/'));

/** A headless Chromium, or what kept it from starting (launched here, so a broken install counts as missing). */
async function startChromium(): Promise<Need<Browser>> {
  if (!existsSync(CHROMIUM)) return { ok: false, missing: `${CHROMIUM} not found (.ci/run installs Debian's chromium; CHROMIUM_PATH names another)` };
  if (!existsSync(`${ROOT}/dist/levelkit.browser.mjs`)) return { ok: false, missing: 'dist/levelkit.browser.mjs not found (npm run build)' };
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

describeWith(await startChromium(), 'demo page in headless Chromium', (browser) => {
  let page: Page, server: { url: string; close(): Promise<void> } | undefined;

  beforeAll(async () => {
    const { serve } = await import('./browser/serve.js');
    server = await serve(0);
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`${server.url}/test/browser/demo.html`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await browser.close();
    await server?.close();
  });

  it('has fixtures to decode', () => {
    expect(FIXTURE_FILES.length).toBeGreaterThan(0);
  });

  it('decodes every fixture exactly as Node does', async () => {
    for (const path of FIXTURE_FILES) {
      const rel = relative(ROOT, path);
      const inBrowser = await page.evaluate(async (url: string) => {
        const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
        return (window as unknown as { levelkitInspect(n: string, b: Uint8Array): unknown }).levelkitInspect(url, bytes);
      }, `/${rel}`);
      const value = decode(readBytes(path));
      const { version, summary } = summarize(value);
      expect(inBrowser, rel).toEqual(JSON.parse(JSON.stringify({ file: `/${rel}`, format: value.format, version, summary, warnings: value.warnings })));
    }
    // The page shows a WASM-vs-TS timing table only when the WASM kernels instantiated.
    expect(await page.textContent('#env')).toContain('WebAssembly kernels available');
  });
});
