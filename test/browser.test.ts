// The browser build in a real (headless) Chromium: every fixture decodes as Node decodes it, and
// decodeAsync (DecompressionStream for every zlib block) gives exactly decode()'s result, value
// for value. With LEVELKIT_BROWSER_BENCH (npm run bench:browser) it also times, never asserting a
// speed: decode's variants on Teeworlds maps (maps); the WASM inflater, pako and
// DecompressionStream on the corpus's zlib blocks (blocks); a full Teeworlds corpus decode, wasm +
// wasm against js + pako (corpus); and the page's own "decoded in … ms" for the corpus's largest
// map against the page of LEVELKIT_OLD_REV (page); the page's stage times and longest main-thread
// pauses opening that map, zooming and panning it, and opening a zip of 300 corpus files (stages). Figures go to .bench-out/browser-*.json;
// bench/README.md keeps them.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildOldPage } from '../bench/old-page.js';
import { decode, summarize } from '../src/index.js';
import { serve } from '../web/serve.js';
import { startChromium, waitForDetail } from './helpers/chromium.js';
import { describeWith } from './helpers/needs.js';
import { corpusZip, largestCorpusMap, maxLongTask, pan, watchLongTasks } from './helpers/page-timing.js';
import { CORPUS, FIXTURES, listFiles, ROOT, readBytes } from './helpers/paths.js';
import { distinctSample, teeworldsBlocks, wwdBlocks } from './helpers/zlib-blocks.js';

const FIXTURE_FILES = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|wdata)$/i).filter((p) => !p.includes('/bad/'));

type Lib = typeof import('../src/index.js');
declare global {
  interface Window {
    lk: Lib;
    fetchBytes(url: string): Promise<Uint8Array>;
    fetchJoined(urls: string[]): Promise<Uint8Array>;
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
        window.fetchJoined = async (urls) => new Uint8Array(await new Blob(await Promise.all(urls.map(window.fetchBytes))).arrayBuffer());
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

  // Benchmarks, not tests: speed is measured by `npm run bench:browser` (which sets
  // LEVELKIT_BROWSER_BENCH=1, every part), never by the test suite; the suite checks results above.
  // LEVELKIT_BROWSER_BENCH=blocks,page (say) runs only those parts: maps, blocks, corpus, page.
  const parts = (process.env.LEVELKIT_BROWSER_BENCH ?? '').split(',');
  const benchIt = (part: string) => (parts.includes('1') || parts.includes(part) ? it : () => undefined);
  benchIt('maps')(
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

  benchIt('blocks')(
    "times the WASM inflater against pako and DecompressionStream on the corpus's Teeworlds and WWD zlib blocks",
    async () => {
      const tw = listFilesIfAny(`${CORPUS}/teeworlds`, /\.map$/);
      const wwdFiles = listFilesIfAny(`${CORPUS}/wwd`, /\.wwd$/i);
      if (tw.length === 0 && wwdFiles.length === 0) return void console.log(`inflater blocks SKIPPED: no corpus under ${CORPUS}`);
      // The Node bench's sets (bench/inflate.bench.ts): distinct Teeworlds blocks sampled to ~150 MB, every distinct WWD block.
      const sets = [
        {
          set: 'Teeworlds data blocks',
          blocks: distinctSample(
            tw.flatMap((p) => teeworldsBlocksOrNone(p)),
            150e6,
          ),
        },
        {
          set: 'WWD main blocks',
          blocks: distinctSample(
            wwdFiles.flatMap((p) => wwdBlocks(p, readBytes(p))),
            Infinity,
          ),
        },
      ].filter((s) => s.blocks.length > 0);
      const rows = [];
      for (const { set, blocks } of sets) {
        const urls = await ship(
          page,
          `blocks-${rows.length}`,
          blocks.map((b) => b.src),
        );
        const times = await page.evaluate(
          async ({ urls, spans, rounds }) => {
            const all = await window.fetchJoined(urls);
            const blocks = spans.map(([at, stored, size]) => ({ src: all.subarray(at, at + stored), size }));
            const wasm = window.lk.wasmKernels();
            const pako = window.lk.jsKernels;
            // Each pass allocates its outputs, as decode does (core/inflate.ts).
            const viaKernel = (k: typeof pako, b: { src: Uint8Array; size: number }) => {
              const out = new Uint8Array(b.size);
              if (k.inflateZlib(b.src, out) < 0) throw new Error(`${k.name} refused a corpus block`);
              return out;
            };
            // The browser's own zlib, one stream per block (what decodeAsync does for a big block).
            const viaStream = async (b: { src: Uint8Array }) =>
              new Uint8Array(
                await new Response(new Blob([b.src as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer(),
              );
            const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
            for (const [i, b] of blocks.entries()) {
              const w = new Uint8Array(b.size);
              const used = wasm.inflateZlib(b.src, w);
              if (used < 0) throw new Error(`block ${i}: the WASM inflater refused it`);
              // A WWD block runs to the end of the file: a stream refuses bytes after the zlib
              // stream, so every inflater is given the stream alone.
              b.src = b.src.subarray(0, used);
              if (!same(w, viaKernel(pako, b)) || !same(w, await viaStream(b)))
                throw new Error(`block ${i}: the WASM inflater, pako and DecompressionStream differ; not timing them`);
            }
            const passes: Record<string, () => Promise<void> | void> = {
              wasm: () => blocks.forEach((b) => viaKernel(wasm, b)),
              pako: () => blocks.forEach((b) => viaKernel(pako, b)),
              stream: async () => {
                for (const b of blocks) await viaStream(b);
              },
            };
            const names = Object.keys(passes);
            const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
            for (let r = 0; r < rounds; r++) {
              // Alternating, the order rotated each round: load drifts over all three alike.
              for (const n of [...names.slice(r % names.length), ...names.slice(0, r % names.length)]) {
                const t0 = performance.now();
                await passes[n]!();
                times[n]!.push(performance.now() - t0);
              }
            }
            return times as { wasm: number[]; pako: number[]; stream: number[] };
          },
          { urls, spans: spansOf(blocks.map((b) => b.src)).map(([at, n], i) => [at, n, blocks[i]!.size] as const), rounds: ROUNDS },
        );
        const bytes = blocks.reduce((n, b) => n + b.size, 0);
        const mbps = (t: number[]) => bytes / 1e3 / Math.min(...t);
        rows.push({
          set,
          blocks: blocks.length,
          inflatedBytes: bytes,
          times,
          mbPerS: { wasm: mbps(times.wasm), pako: mbps(times.pako), stream: mbps(times.stream) },
          pakoOverWasm: median(times.pako.map((t, i) => t / times.wasm[i]!)),
          streamOverWasm: median(times.stream.map((t, i) => t / times.wasm[i]!)),
        });
      }
      writeBench('browser-blocks.json', rows);
      console.log(
        `zlib blocks in Chromium (checked byte-identical across the three first; MB/s of output from the fastest pass, ratios the median of ${ROUNDS} alternating rounds):\n${rows
          .map(
            (r) =>
              `  ${r.set}: ${r.blocks} distinct blocks, ${(r.inflatedBytes / 1e6).toFixed(1)} MB: WASM ${r.mbPerS.wasm.toFixed(0)} MB/s, pako ${r.mbPerS.pako.toFixed(0)} MB/s, DecompressionStream ${r.mbPerS.stream.toFixed(0)} MB/s; pako ÷ WASM ${r.pakoOverWasm.toFixed(2)}×, DecompressionStream ÷ WASM ${r.streamOverWasm.toFixed(2)}× (time)`,
          )
          .join('\n')}`,
      );
      expect(rows.length).toBeGreaterThan(0);
    },
    400_000,
  );

  benchIt('corpus')(
    "times a full decode of the Teeworlds corpus, backend 'wasm' + inflate 'wasm' against backend 'js' + inflate 'pako'",
    async () => {
      const files = listFilesIfAny(`${CORPUS}/teeworlds`, /\.map$/);
      if (files.length === 0) return void console.log(`Teeworlds corpus decode SKIPPED: no corpus under ${CORPUS}/teeworlds`);
      const maps = files.map(readBytes);
      const urls = await ship(page, 'teeworlds-corpus', maps);
      const r = await page.evaluate(
        async ({ urls, spans, rounds }) => {
          const all = await window.fetchJoined(urls);
          const maps = spans.map(([at, n]) => all.subarray(at, at + n));
          type Opts = Parameters<typeof window.lk.teeworlds.decode>[1];
          // A pass keeps every map's summary (grid digests included) or its error code.
          const pass = (opts: Opts, of = maps) =>
            of.map((b) => {
              try {
                return JSON.stringify(window.lk.summarize(window.lk.teeworlds.decode(b, opts)));
              } catch (e) {
                return `error ${(e as { code?: string }).code}`;
              }
            });
          const sides: Record<string, Opts> = { wasm: { backend: 'wasm', inflate: 'wasm' }, pako: { backend: 'js', inflate: 'pako' } };
          // Warm-up on the 20 smallest maps (JIT, WASM instantiation), untimed.
          const small = [...maps].sort((a, b) => a.length - b.length).slice(0, 20);
          for (const o of Object.values(sides)) pass(o, small);
          const times: Record<string, number[]> = { wasm: [], pako: [] };
          const seen: Record<string, string[]> = {};
          for (let round = 0; round < rounds; round++) {
            for (const n of round % 2 ? ['pako', 'wasm'] : ['wasm', 'pako']) {
              const t0 = performance.now();
              seen[n] = pass(sides[n]);
              times[n]!.push(performance.now() - t0);
            }
          }
          const differ = seen.wasm!.flatMap((s, i) => (s === seen.pako![i] ? [] : [i]));
          return { times: times as { wasm: number[]; pako: number[] }, differ, errors: seen.wasm!.filter((s) => s.startsWith('error')).length };
        },
        { urls, spans: spansOf(maps), rounds: Number(process.env.LEVELKIT_BENCH_ROUNDS ?? 1) },
      );
      if (r.differ.length > 0)
        throw new Error(
          `${r.differ.length} maps decode to different summaries with the two paths (first: ${relative(ROOT, files[r.differ[0]!]!)}); the ratio is void`,
        );
      const ratio = median(r.times.pako.map((t, i) => t / r.times.wasm[i]!));
      const summary = { maps: maps.length, bytes: maps.reduce((n, b) => n + b.length, 0), errors: r.errors, ...r.times, pakoOverWasm: ratio };
      writeBench('browser-corpus.json', summary);
      console.log(
        `Teeworlds corpus in Chromium, ${maps.length} maps (${(summary.bytes / 1e6).toFixed(1)} MB, ${r.errors} refused alike by both), every summary equal: wasm + wasm ${r.times.wasm.map((t) => t.toFixed(0)).join(', ')} ms, js + pako ${r.times.pako.map((t) => t.toFixed(0)).join(', ')} ms; js + pako ÷ wasm + wasm ${ratio.toFixed(2)}×`,
      );
      expect(r.times.wasm.length).toBeGreaterThan(0);
    },
    400_000,
  );

  benchIt('page')(
    'times the page opening the largest corpus map, by its own "decoded in … ms", this build against LEVELKIT_OLD_REV',
    async () => {
      const largest = listFilesIfAny(`${CORPUS}/teeworlds`, /\.map$/).sort((a, b) => statSync(b).size - statSync(a).size)[0];
      if (!largest) return void console.log(`page timing SKIPPED: no corpus under ${CORPUS}/teeworlds`);
      if (!existsSync(`${ROOT}/dist/web/index.html`)) throw new Error('dist/web/ not built (npm run build)');
      const sides = [{ name: 'this build', url: server.url }];
      const oldRev = process.env.LEVELKIT_OLD_REV;
      let oldServer: Awaited<ReturnType<typeof serve>> | undefined;
      if (oldRev) {
        const old = buildOldPage(ROOT, oldRev);
        console.log(`page timing: ${oldRev} = ${old.commit}, ${old.built ? 'built' : 'built earlier'} in ${old.dir}`);
        oldServer = await serve(0, old.dir);
        sides.push({ name: oldRev, url: oldServer.url });
      } else
        console.log(
          'page timing: the older revision row SKIPPED (set LEVELKIT_OLD_REV=<commit> to build that revision into a temp folder and time its page too)',
        );
      const readings: Record<string, PageReading[]> = Object.fromEntries(sides.map((s) => [s.name, []]));
      try {
        const rounds = Number(process.env.LEVELKIT_PAGE_ROUNDS ?? 3);
        for (let r = 0; r < rounds; r++)
          for (const side of r % 2 ? [...sides].reverse() : sides) readings[side.name]!.push(await openInPage(browser, side.url, largest));
      } finally {
        await oldServer?.close();
      }
      const result = sides.map((s) => {
        const rs = readings[s.name]!;
        return {
          side: s.name,
          settings: rs[0]!.settings,
          firstMs: rs.map((x) => x.first),
          againMs: rs.map((x) => x.again),
          medianFirstMs: median(rs.map((x) => x.first)),
          medianAgainMs: median(rs.map((x) => x.again)),
        };
      });
      writeBench('browser-page.json', { file: relative(ROOT, largest), bytes: statSync(largest).size, result });
      const ms = (x: number[]) => x.map((t) => t.toFixed(0)).join(', ');
      console.log(
        `the page's "decoded in … ms" for ${relative(CORPUS, largest)} (${statSync(largest).size} B), a fresh page per reading ("first") and the same file opened again in it ("again"):\n${result
          .map(
            (x) =>
              `  ${x.side} (kernels ${x.settings.backend}, inflater ${x.settings.inflater}): first ${ms(x.firstMs)} ms (median ${x.medianFirstMs.toFixed(0)}), again ${ms(x.againMs)} ms (median ${x.medianAgainMs.toFixed(0)})`,
          )
          .join(
            '\n',
          )}${result[1] ? `\n  ${result[1].side} ÷ this build: first ${(result[1].medianFirstMs / result[0]!.medianFirstMs).toFixed(2)}×, again ${(result[1].medianAgainMs / result[0]!.medianAgainMs).toFixed(2)}×` : ''}`,
      );
      expect(result[0]!.firstMs.length).toBeGreaterThan(0);
    },
    400_000,
  );
  benchIt('stages')(
    "times the page's stages opening the largest corpus map (and its longest main-thread pause there and while zooming in and panning), and a zip of 300 corpus files",
    async () => {
      const largest = listFilesIfAny(`${CORPUS}/teeworlds`, /\.map$/).length ? largestCorpusMap(`${CORPUS}/teeworlds`) : undefined;
      if (!largest) return void console.log(`page stages SKIPPED: no corpus under ${CORPUS}/teeworlds`);
      if (!existsSync(`${ROOT}/dist/web/index.html`)) throw new Error('dist/web/ not built (npm run build)');
      const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      try {
        await tab.goto(`${server.url}/`);
        await tab.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
        // When each stage was first shown, ms after the file was picked.
        await tab.evaluate(() => {
          const box = document.getElementById('open-progress')!;
          const w = window as unknown as { stageTimes: Record<string, number>; t0: number };
          w.stageTimes = {};
          new MutationObserver(() => {
            const s = box.dataset.stage;
            if (s && !(s in w.stageTimes)) w.stageTimes[s] = performance.now() - w.t0;
          }).observe(box, { attributes: true, subtree: true, childList: true });
        });
        const stagesOf = async (pick: () => Promise<void>, done: () => Promise<unknown>) => {
          await tab.evaluate(() => {
            const w = window as unknown as { stageTimes: Record<string, number>; t0: number };
            w.stageTimes = {};
            w.t0 = performance.now();
          });
          await watchLongTasks(tab);
          await pick();
          await done();
          const total = await tab.evaluate(() => performance.now() - (window as unknown as { t0: number }).t0);
          const stages = await tab.evaluate(() => (window as unknown as { stageTimes: Record<string, number> }).stageTimes);
          return { stages, totalMs: total, pauses: await maxLongTask(tab) };
        };
        const map = await stagesOf(
          () => tab.setInputFiles('#file', largest),
          () => waitForDetail(tab, basename(largest), 120_000),
        );
        await watchLongTasks(tab);
        const t0 = Date.now();
        for (let i = 0; i < 9; i++) await tab.click('#zoom-in');
        await pan(tab, '#viewport', 12);
        await tab.waitForFunction(() => document.getElementById('regions')!.dataset.pending === '0', undefined, { timeout: 120_000 });
        const zoomPan = { ms: Date.now() - t0, pauses: await maxLongTask(tab), chunks: (await tab.$$('#regions canvas')).length };
        const { zip, count, path: zipPath } = corpusZip(CORPUS, 300);
        const many = await stagesOf(
          () => tab.setInputFiles('#file', zipPath),
          () =>
            tab.waitForFunction((want) => document.querySelector('#progress-text')?.textContent === want, `${count} of ${count} decoded`, { timeout: 300_000 }),
        );
        const result = { file: relative(ROOT, largest), bytes: statSync(largest).size, map, zoomPan, zip: { files: count, bytes: zip.length, ...many } };
        rmSync(dirname(zipPath), { recursive: true, force: true });
        writeBench('browser-stages.json', result);
        const ms = (x: number) => `${x.toFixed(0)} ms`;
        const pause = (p: { longTask: number; heartbeat: number }) =>
          `longest long task ${p.longTask ? ms(p.longTask) : 'none ≥ 50 ms'}, longest 5-ms heartbeat gap ${ms(p.heartbeat)}`;
        console.log(
          [
            `page stages, ${relative(CORPUS, largest)} (${statSync(largest).size} B): ${Object.entries(map.stages)
              .map(([k, v]) => `${k} at ${ms(v)}`)
              .join(', ')}, open ${ms(map.totalMs)}; ${pause(map.pauses)}`,
            `  zoomed in 9 steps and panned 12 strokes, full-resolution chunks done in ${ms(zoomPan.ms)} (${zoomPan.chunks} chunks in sight); ${pause(zoomPan.pauses)}`,
            `  zip of ${count} corpus files (${(zip.length / 1e6).toFixed(1)} MB): all decoded in ${ms(many.totalMs)}; ${pause(many.pauses)}`,
          ].join('\n'),
        );
        expect(Object.keys(map.stages)).toEqual(expect.arrayContaining(['read', 'inflate', 'draw']));
      } finally {
        await tab.close();
      }
    },
    400_000,
  );
});

const ROUNDS = Number(process.env.LEVELKIT_BENCH_ROUNDS ?? 3);

interface PageReading {
  settings: { backend: string; inflater: string };
  first: number;
  again: number;
}

/**
 * Opens `file` through the file input of the page at `url` in a fresh tab, as a person would, and
 * reads the page's own "decoded in … ms" (the worker's decode, web/worker.ts); then opens it once
 * more in the same tab. The page's default settings are used on each side.
 */
async function openInPage(browser: Browser, url: string, file: string): Promise<PageReading> {
  const tab = await browser.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (e: Error) => errors.push(e.message));
  try {
    await tab.goto(`${url}/`);
    await tab.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
    const settings = await tab.evaluate(() => ({
      backend: (document.getElementById('backend') as HTMLSelectElement).value,
      inflater: (document.getElementById('inflater') as HTMLSelectElement).value,
    }));
    const read = async () => {
      // A second pick of the same file fires no change event unless the input is cleared first.
      await tab.evaluate(() => {
        document.getElementById('detail')!.dataset.state = 'waiting';
        (document.getElementById('file') as HTMLInputElement).value = '';
      });
      await tab.setInputFiles('#file', file);
      await tab.waitForSelector('#detail[data-state="done"]', { timeout: 120_000 });
      const [format, text] = [await tab.textContent('#format'), await tab.textContent('#decode-ms')];
      const ms = /decoded in ([\d.]+) ms/.exec(text ?? '');
      if (format !== 'teeworlds' || !ms || errors.length > 0)
        throw new Error(`${url}: the page did not decode ${file} (format ${format}, "${text}", ${errors.join('; ')})`);
      return Number(ms[1]);
    };
    const first = await read();
    return { settings, first, again: await read() };
  } finally {
    await tab.close();
  }
}

/**
 * Serves `chunks` back to back for the page to fetch once, as parts of at most 16 MiB (one
 * route.fulfill of the whole Teeworlds corpus, ~97 MB, closed the browser); returns their URL paths
 * for window.fetchJoined.
 */
async function ship(page: Page, name: string, chunks: Uint8Array[]): Promise<string[]> {
  const body = Buffer.concat(chunks);
  const PART = 16 << 20;
  const parts = Math.max(1, Math.ceil(body.length / PART));
  await page.route(`**/bench-bytes/${name}/*`, (route) => {
    const k = Number(route.request().url().split('/').pop());
    return route.fulfill({ body: body.subarray(k * PART, (k + 1) * PART) });
  });
  return Array.from({ length: parts }, (_, k) => `/bench-bytes/${name}/${k}`);
}

/** Where each of `chunks` sits in what ship() serves: [offset, length]. */
function spansOf(chunks: Uint8Array[]): [number, number][] {
  let at = 0;
  return chunks.map((c) => {
    at += c.length;
    return [at - c.length, c.length];
  });
}

function teeworldsBlocksOrNone(path: string) {
  try {
    return teeworldsBlocks(path, readBytes(path));
  } catch {
    return [];
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function writeBench(name: string, value: unknown): void {
  mkdirSync(`${ROOT}/.bench-out`, { recursive: true });
  writeFileSync(`${ROOT}/.bench-out/${name}`, `${JSON.stringify(value, null, 1)}\n`);
}

function listFilesIfAny(dir: string, pattern: RegExp): string[] {
  try {
    return listFiles(dir, pattern);
  } catch {
    return [];
  }
}
