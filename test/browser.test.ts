// The browser build in a real (headless) Chromium: every fixture decodes as Node decodes it, and
// decodeAsync (DecompressionStream for every zlib block) gives exactly decode()'s result, value
// for value; then decodeAsync is timed against decode with pako on Teeworlds maps (the ratio is
// printed and written to .bench-out/browser-inflate.json; bench/README.md keeps the numbers).
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decode, summarize } from '../src/index.js';
import { serve } from '../web/serve.js';
import { startChromium } from './helpers/chromium.js';
import { describeWith } from './helpers/needs.js';
import { CORPUS, FIXTURES, listFiles, ROOT, readBytes } from './helpers/paths.js';

const FIXTURE_FILES = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|wdata)$/i).filter((p) => !p.includes('/bad/'));

type Lib = typeof import('../src/index.js');
declare global {
  interface Window {
    lk: Lib;
    fetchBytes(url: string): Promise<Uint8Array>;
  }
}

describeWith(await startChromium(['dist/levelkit.browser.mjs']), 'library in headless Chromium', (browser) => {
  let page: Page;
  let server: Awaited<ReturnType<typeof serve>>;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await serve(0);
    page = await browser.newPage();
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`${server.url}/examples/index.json`);
    // A module script, not import() inside evaluate (vitest would rewrite that import).
    await page.addScriptTag({
      type: 'module',
      content: `import * as lk from '/dist/levelkit.browser.mjs';
        window.fetchBytes = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
        window.lk = lk;`,
    });
    await page.waitForFunction(() => window.lk !== undefined);
  });

  afterAll(async () => {
    await browser.close();
    await server?.close();
  });

  it('has fixtures, DecompressionStream and WASM', async () => {
    expect(FIXTURE_FILES.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => [window.lk.asyncInflater({ inflate: 'pako' }), window.lk.asyncInflater(), window.lk.wasmAvailable()])).toEqual([
      'stream',
      'wasm',
      true,
    ]);
  });

  it('decodes every fixture with pako exactly as Node does with native zlib', async () => {
    for (const path of FIXTURE_FILES) {
      const rel = relative(ROOT, path);
      const inBrowser = await page.evaluate(async (url) => {
        const value = window.lk.decode(await window.fetchBytes(url), { inflate: 'pako' });
        const { version, summary } = window.lk.summarize(value);
        return JSON.parse(JSON.stringify({ format: value.format, version, summary, warnings: value.warnings }));
      }, `/${rel}`);
      const value = decode(readBytes(path));
      const { version, summary } = summarize(value);
      expect(inBrowser, rel).toEqual(JSON.parse(JSON.stringify({ format: value.format, version, summary, warnings: value.warnings })));
    }
    expect(errors).toEqual([]);
  });

  it('decodeAsync gives what decode gives (every block streamed, and with the default threshold), value for value, on every fixture (and the same errors on bad ones)', async () => {
    const all = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap)$/i);
    for (const path of all) {
      const rel = relative(ROOT, path);
      const [sync, everyBlock, async, wasmInflate] = await page.evaluate(async (url) => {
        const bytes = await window.fetchBytes(url);
        // Typed arrays as tagged arrays, so a difference in kind or content shows.
        const canon = (v: unknown) =>
          JSON.stringify(v, (_k, x) =>
            ArrayBuffer.isView(x) && !(x instanceof DataView) ? { [x.constructor.name]: Array.from(x as unknown as ArrayLike<number>) } : x,
          );
        const run = async (f: () => unknown) => {
          try {
            return canon(await f());
          } catch (e) {
            return `threw ${canon(e)} ${(e as Error).message}`;
          }
        };
        return [
          await run(() => window.lk.decode(bytes, { inflate: 'pako' })),
          // Streams replace pako only (with WASM, decodeAsync is decode with the WASM inflater).
          await run(() => window.lk.decodeAsyncWith(window.lk.decode, bytes, { inflate: 'pako' }, { minStreamBytes: 0 })),
          await run(() => window.lk.decodeAsync(bytes, { inflate: 'pako' })),
          await run(() => window.lk.decode(bytes, { inflate: 'wasm' })),
        ];
      }, `/${rel}`);
      // Every block through the stream (fixtures are below the default 64 KiB threshold), then the default.
      expect(everyBlock, rel).toBe(sync);
      expect(async, rel).toBe(sync);
      expect(wasmInflate, rel).toBe(sync);
    }
    expect(errors).toEqual([]);
  });

  // A benchmark, not a test: speed is measured by `npm run bench:browser` (which sets
  // LEVELKIT_BROWSER_BENCH), never by the test suite; the suite checks decodeAsync's results above.
  const benchIt = process.env.LEVELKIT_BROWSER_BENCH ? it : () => undefined;
  benchIt(
    'times decodeAsync (native inflate) against decode with pako on Teeworlds maps',
    async () => {
      const maps = [
        ...listFiles(`${FIXTURES}/teeworlds`, /\.map$/).filter((p) => !p.includes('/bad/')),
        // The corpus's largest maps, when it is there: fixtures are a few KiB, where zlib's share is small.
        ...listFilesIfAny(`${CORPUS}/teeworlds`, /\.map$/)
          .sort((a, b) => statSync(b).size - statSync(a).size)
          .slice(0, 4),
      ];
      await page.route('**/bench/**', (route) => route.fulfill({ body: Buffer.from(readBytes(maps[Number(route.request().url().split('/').pop())]!)) }));
      const rows: { file: string; bytes: number; pakoMs: number; asyncMs: number; wasmMs: number; jsPakoMs: number; ratio: number; wasmRatio: number }[] = [];
      for (let i = 0; i < maps.length; i++) {
        const r = await page.evaluate(async (url) => {
          const bytes = await window.fetchBytes(url);
          const time = async (f: () => unknown) => {
            await f();
            const t0 = performance.now();
            let n = 0;
            while (n < 3 || performance.now() - t0 < 300) {
              await f();
              n++;
            }
            return (performance.now() - t0) / n;
          };
          // Both paths must give the same map before either is timed.
          const facts = (v: unknown) => JSON.stringify(window.lk.summarize(v as Parameters<typeof window.lk.summarize>[0]));
          const viaPako = window.lk.decode(bytes, { inflate: 'pako' });
          const viaAsync = await window.lk.decodeAsync(bytes, { inflate: 'pako' });
          const viaWasm = window.lk.decode(bytes, { backend: 'wasm', inflate: 'wasm' });
          if (facts(viaPako) !== facts(viaAsync) || facts(viaPako) !== facts(viaWasm))
            throw new Error(`${url}: decodeAsync, decode(pako) and decode(wasm) disagree; not timing them`);
          return {
            bytes: bytes.length,
            pakoMs: await time(() => window.lk.decode(bytes, { inflate: 'pako' })),
            asyncMs: await time(() => window.lk.decodeAsync(bytes, { inflate: 'pako' })),
            wasmMs: await time(() => window.lk.decode(bytes, { backend: 'wasm', inflate: 'wasm' })),
            jsPakoMs: await time(() => window.lk.decode(bytes, { backend: 'js', inflate: 'pako' })),
          };
        }, `/bench/${i}`);
        rows.push({ file: relative(ROOT, maps[i]!).replace(/^\.\.\//, ''), ...r, ratio: r.pakoMs / r.asyncMs, wasmRatio: r.jsPakoMs / r.wasmMs });
      }
      const sum = (k: 'pakoMs' | 'asyncMs' | 'wasmMs' | 'jsPakoMs') => rows.reduce((s, r) => s + r[k], 0);
      const total = { pakoMs: sum('pakoMs'), asyncMs: sum('asyncMs'), wasmMs: sum('wasmMs'), jsPakoMs: sum('jsPakoMs') };
      const summary = { rows, total: { ...total, ratio: total.pakoMs / total.asyncMs, wasmRatio: total.jsPakoMs / total.wasmMs } };
      mkdirSync(`${ROOT}/.bench-out`, { recursive: true });
      writeFileSync(`${ROOT}/.bench-out/browser-inflate.json`, `${JSON.stringify(summary, null, 1)}\n`);
      console.log(
        `decodeAsync (streams) and decode(backend wasm, inflate wasm) vs decode(pako) in Chromium:\n${rows.map((r) => `  ${r.file} ${r.bytes} B: pako ${r.pakoMs.toFixed(3)} ms, async ${r.asyncMs.toFixed(3)} ms (${r.ratio.toFixed(2)}×); js+pako ${r.jsPakoMs.toFixed(3)} ms, wasm+wasm ${r.wasmMs.toFixed(3)} ms (${r.wasmRatio.toFixed(2)}×)`).join('\n')}\n  total: streams ${summary.total.ratio.toFixed(2)}×, wasm+wasm over js+pako ${summary.total.wasmRatio.toFixed(2)}×`,
      );
      // Timings on a shared 2-core machine are noisy, and which inflater wins depends on the browser
      // build: the ratio is reported (bench/README.md keeps the numbers), not asserted.
      expect(rows).toHaveLength(maps.length);
    },
    400_000,
  );
});

function listFilesIfAny(dir: string, pattern: RegExp): string[] {
  try {
    return listFiles(dir, pattern);
  } catch {
    return [];
  }
}
