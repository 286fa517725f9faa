// The cartridge panel (#42) in a real headless Chromium: the panel of a hand-built model (its
// module bundled here, put in a blank page) lists every object, marks unknowns, keeps a name that
// looks like markup as text, and draws the zones; with the corpus, a cartridge with zones opened
// through the page's file input shows the same objects and zones the library's model has, and a
// cartridge whose zone name is markup shows it as text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { objectModel } from '../src/formats/gwc/analysis/index.js';
import type { WherigoModel } from '../src/formats/gwc/analysis/types.js';
import { decode } from '../src/index.js';
import { serve } from '../web/serve.js';
import { startChromium, waitForDetail } from './helpers/chromium.js';
import { corpus, describeWith, itWith } from './helpers/needs.js';
import { ROOT, readBytes } from './helpers/paths.js';
import { sampleModel, txt } from './helpers/wherigo-model.js';

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

    // The wheel zooms about the pointer (the zones fill more of the canvas), a double click fits again.
    const canvas = page.locator('#panel-under-test canvas.wherigo-map');
    const green = () =>
      canvas.evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3]! > 0 && d[i + 1]! > d[i]! + 30) n++;
        return n;
      });
    expect(await canvas.getAttribute('data-zoom')).toBe('1.00');
    const fitted = await green();
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -100);
    await page.waitForFunction(() => document.querySelector('#panel-under-test canvas')?.getAttribute('data-zoom') === '1.95');
    expect(await green(), 'zoomed in, the zones cover more pixels').toBeGreaterThan(fitted * 1.5);
    await canvas.dblclick();
    expect(await canvas.getAttribute('data-zoom')).toBe('1.00');
    expect(await green()).toBe(fitted);
    expect(errors).toEqual([]);
  });

  const gwcCorpus = corpus('gwc');
  /** The corpus cartridge with the most zones the library can draw, with its model. */
  const withZones = (dir: string): { path: string; model: WherigoModel; zones: number } => {
    let best: { path: string; model: WherigoModel; zones: number } | undefined;
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.gwc'))) {
      const path = join(dir, name);
      const model = objectModel(decode(readBytes(path)) as Parameters<typeof objectModel>[0]);
      const zones = model.objects.filter((o) => o.kind === 'zone' && Array.isArray(o.points) && o.points.length >= 3).length;
      if (!best || zones > best.zones) best = { path, model, zones };
    }
    return best!;
  };

  itWith(
    gwcCorpus,
    'shows a corpus cartridge with zones opened through the file input: its objects and its zones drawn',
    async (dir) => {
      const { path, model, zones } = withZones(dir);
      expect(zones, 'a corpus cartridge with zones').toBeGreaterThan(0);
      await page.goto(`${server.url}/`);
      await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
      await page.setInputFiles('#file', path);
      await waitForDetail(page, path.split('/').pop()!, 30_000);
      expect(await page.isVisible('#wherigo')).toBe(true);
      const seen = await page.evaluate(() => {
        const canvas = document.querySelector('#wherigo canvas') as HTMLCanvasElement;
        return {
          rows: document.querySelectorAll('#wherigo tbody tr').length,
          zones: canvas?.dataset.zones,
          names: [...document.querySelectorAll('#wherigo tbody tr[data-kind="zone"] td:nth-child(3)')].map((t) => t.textContent),
        };
      });
      expect(seen.rows).toBe(model.objects.length);
      expect(seen.zones).toBe(String(zones));
      const zoneNames = model.objects.filter((o) => o.kind === 'zone').map((o) => (o.name && 'text' in o.name ? o.name.text : null));
      expect(seen.names.filter((n) => !n!.startsWith('unknown') && n !== '—')).toEqual(zoneNames.filter((n) => n !== null));
      await page.screenshot({ path: `${SHOTS}/wherigo-panel-corpus.png`, fullPage: true });
      expect(errors).toEqual([]);
    },
    120_000,
  );

  itWith(
    gwcCorpus,
    "sets a zone's name from the file as text, even when it is markup",
    async (dir) => {
      const { path, model } = withZones(dir);
      // The first zone name, overwritten in place by markup of the same length (a Lua string keeps its length prefix).
      const zone = model.objects.find((o) => o.kind === 'zone' && o.name && 'text' in o.name && o.name.text.length >= 12 && !o.name.raw.some((b) => b > 127))!;
      const name = 'text' in zone.name! ? zone.name : null;
      const bytes = new Uint8Array(readFileSync(path));
      const at = Buffer.from(bytes).indexOf(Buffer.from(name!.raw));
      expect(at, 'the name is stored as it reads').toBeGreaterThan(0);
      const markup = '<img src=x onerror=document.title=1>'.padEnd(name!.raw.length, ' ').slice(0, name!.raw.length);
      bytes.set(Buffer.from(markup, 'latin1'), at);
      await page.goto(`${server.url}/`);
      await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
      await page.setInputFiles('#file', { name: 'markup.gwc', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
      await waitForDetail(page, 'markup.gwc', 30_000);
      const names = await page.$$eval('#wherigo tbody tr[data-kind="zone"] td:nth-child(3)', (t) => t.map((x) => x.textContent));
      expect(names).toContain(markup);
      expect(await page.$$eval('#wherigo img', (i) => i.length)).toBe(0);
      expect(await page.title()).not.toBe('1');
      expect(errors).toEqual([]);
    },
    120_000,
  );
});
