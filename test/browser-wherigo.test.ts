// The cartridge panel (#42) in a real headless Chromium: the panel of a hand-built model (its
// module bundled here, put in a blank page) lists every object, marks unknowns, keeps a name that
// looks like markup as text, and draws the zones.
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WherigoModel } from '../src/formats/gwc/analysis/types.js';
import { serve } from '../web/serve.js';
import { startChromium } from './helpers/chromium.js';
import { describeWith } from './helpers/needs.js';
import { ROOT } from './helpers/paths.js';
import { sampleModel, txt } from './helpers/wherigo-model-web.js';

const SHOTS = `${ROOT}/test-output/browser`;
/** A name that runs script if it is ever set as HTML. */
const HOSTILE = '<img src=x onerror="document.title=`pwned`">';

/** web/panels/wherigo.ts as one script defining `window.wherigoPanelModule`. */
async function panelScript(): Promise<string> {
  const out = await build({
    entryPoints: [join(ROOT, 'web/panels/wherigo.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'wherigoPanelModule',
    platform: 'browser',
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

describeWith(await startChromium(['dist/web/index.html', 'dist/web/app.js', 'dist/web/worker.js']), 'the cartridge panel in headless Chromium', (browser) => {
  let page: Page;
  let server: Awaited<ReturnType<typeof serve>>;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await serve(0);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (e: Error) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
  });

  afterAll(async () => {
    await browser.close();
    await server?.close();
  });

  it('lists a hand-built model, marks its unknowns, keeps markup as text and draws its zones', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
    await page.addScriptTag({ content: await panelScript() });
    const model = sampleModel();
    model.objects[2]!.name = txt(HOSTILE);
    const seen = await page.evaluate(
      (m) => {
        const { wherigoPanel } = (window as unknown as { wherigoPanelModule: typeof import('../web/panels/wherigo.js') }).wherigoPanelModule;
        const box = wherigoPanel({ model: m as WherigoModel });
        box.id = 'panel-under-test';
        document.body.append(box);
        const canvas = box.querySelector('canvas')!;
        const d = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let green = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3]! > 0 && d[i + 1]! > d[i]! + 30) green++;
        const rows = [...box.querySelectorAll('tbody tr')] as HTMLElement[];
        return {
          kinds: rows.map((r) => r.dataset.kind),
          names: rows.map((r) => r.children[2]!.textContent),
          imgs: box.querySelectorAll('img').length,
          unknown: [...box.querySelectorAll('.unknown')].map((u) => u.textContent),
          zones: canvas.dataset.zones,
          dots: canvas.dataset.dots,
          green,
          timer: rows[7]!.children[7]!.textContent,
          input: rows[8]!.children[7]!.textContent,
        };
      },
      JSON.parse(JSON.stringify(model)),
    );
    expect(seen.kinds).toEqual(['cartridge', 'media', 'zone', 'zone', 'item', 'character', 'task', 'timer', 'input', 'command']);
    expect(seen.names[2]).toBe(HOSTILE);
    expect(seen.imgs).toBe(0);
    expect(seen.unknown).toEqual(['unknown (1 message not pinned down)', 'unknown (set by a branch)', 'unknown (computed)', 'unknown (a call)']);
    expect([seen.zones, seen.dots]).toEqual(['2', '1']);
    expect(seen.green, 'the zones are drawn').toBeGreaterThan(1000);
    expect(seen.timer).toContain('90 s');
    expect(seen.input).toContain('What is the code?');
    expect(seen.input).toContain('answers4321');
    await page.waitForTimeout(100);
    expect(await page.title()).not.toBe('pwned');
    await page.screenshot({ path: `${SHOTS}/wherigo-panel-hand-built.png`, fullPage: true });
    expect(errors).toEqual([]);
  });
});
