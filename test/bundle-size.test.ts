// Embedding weight: apps that read one format, bundled with rollup (programmatic API) from the
// package as a bundler sees it (package.json exports, browser condition, dist/esm/), in a temp
// folder. Each bundle is run on a fixture of its format (it must still decode), must hold none of
// the other formats, render/ or the registry, and must stay within the gzipped size the README
// states. Sizes are of the bundle minified (esbuild) and gzipped (level 9), WASM included.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { transform } from 'esbuild';
import { rollup } from 'rollup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, summarize } from '../src/index.js';
import { assertBuilt, FIXTURES, ROOT, readBytes } from './helpers/paths.js';

const FORMATS = ['teeworlds', 'wwd', 'graal', 'gwc', 'wdata'] as const;
type Format = (typeof FORMATS)[number];
/** A fixture each app decodes once bundled. */
const SAMPLE: Record<Format, string> = {
  teeworlds: 'teeworlds/real/tw07-dm1.map',
  wwd: 'wwd/claw-compressed.wwd',
  graal: 'graal/gr-v105-layers.graal',
  gwc: 'gwc/odd-ids-deleted-cp1252.gwc',
  wdata: 'wdata/eventbox-v9.wdata',
};
/** The aim of issue #23: core + one format (decode and summarize) within 40 KB gzipped. */
const ONE_FORMAT_BUDGET = 40 * 1024;
/** The whole namespace of one format (encoders, extract…): what the README states, with room. */
const WHOLE_NAMESPACE_BUDGET = 64 * 1024;
/**
 * Where a namespace needs more: gwc's namespace holds the static analysis of a cartridge's Lua
 * (issue 42: the bytecode front-end, the string decoders' interpreter, the source front-end with
 * luaparse, and the files and rules made from the model) — 95.0 KB with it on 2026-11-29, 41 KB
 * before. summarize does not run it, so the decode + summarize app above stays as it was (34.9 KB).
 */
const NAMESPACE_BUDGET: Partial<Record<Format, number>> = { gwc: 100 * 1024 };
/**
 * Libraries a one-format app carries: pako in every one (it is the TypeScript twin of the WASM
 * inflater, a member of every kernel set, so `backend: 'js'` and hosts without WebAssembly can
 * inflate), and the zip reader for .gwz only.
 */
const NEEDS: Record<Format, string[]> = { teeworlds: ['pako'], wwd: ['pako'], graal: ['pako'], gwc: ['fflate', 'pako'], wdata: ['pako'] };

interface Bundled {
  code: string;
  modules: string[];
  gzipped: number;
}

describe('one-format apps bundled with rollup', () => {
  let dir = '';
  const sizes: string[] = [];

  beforeAll(() => {
    assertBuilt(['dist/esm/index.mjs', ...FORMATS.map((f) => `dist/esm/entries/${f}.mjs`)]);
    dir = mkdtempSync(join(tmpdir(), 'levelkit-bundle-'));
    // The app's node_modules: levelkit (this repository, resolved through its exports) and the
    // repository's own dependencies.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'levelkit'), 'dir');
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (sizes.length) console.log(`gzipped sizes (minified, WASM included):\n${sizes.join('\n')}`);
  });

  /** Bundles `source` (an ES module) for browsers, minifies it and measures it. */
  async function bundle(name: string, source: string): Promise<Bundled> {
    const input = join(dir, `${name}.mjs`);
    writeFileSync(input, source);
    const build = await rollup({
      input,
      plugins: [nodeResolve({ browser: true, modulePaths: [join(ROOT, 'node_modules')] })],
      onwarn: (w) => {
        throw new Error(`rollup: ${w.message}`);
      },
    });
    const { output } = await build.generate({ format: 'es' });
    await build.close();
    const chunk = output[0];
    const min = await transform(chunk.code, { minify: true, format: 'esm', target: 'es2022' });
    writeFileSync(join(dir, `${name}.bundle.mjs`), min.code);
    return { code: min.code, modules: Object.keys(chunk.modules), gzipped: gzipSync(min.code, { level: 9 }).length };
  }

  /** Where a bundled module comes from: the levelkit source folder of dist/esm/, or the package. */
  const origin = (id: string) => {
    const esm = id.match(/\/dist\/esm\/(.+)\.mjs$/);
    if (esm) return esm[1]!;
    const pkg = id.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    return pkg ? pkg[1]! : id;
  };

  for (const format of FORMATS) {
    it(`levelkit/${format}: decode + summarize is ≤ 40 KB gzipped, holds only ${format}, and works`, async () => {
      const app = `import { decode, summarize, DecodeError } from 'levelkit/${format}';
export function look(bytes) {
  try { return summarize(decode(bytes)); } catch (e) { if (e instanceof DecodeError) return { error: e.code }; throw e; }
}
`;
      const b = await bundle(`${format}-decode`, app);
      const from = b.modules.map(origin);
      const others = FORMATS.filter((f) => f !== format);
      expect(
        from.filter((m) => others.some((o) => m.startsWith(`formats/${o}/`))),
        'other formats',
      ).toEqual([]);
      expect(
        from.filter((m) => m.startsWith('render/') || m === 'formats/registry' || m === 'detect' || m === 'index' || m === 'async'),
        'render, registry, detect',
      ).toEqual([]);
      expect(from.some((m) => m.startsWith(`formats/${format}/`))).toBe(true);
      const packages = [...new Set(from.filter((m) => ['pako', 'fflate', 'fast-png'].includes(m)))];
      expect(packages.sort()).toEqual(NEEDS[format]);

      // The bundle still does its job.
      const { look } = (await import(pathToFileURL(join(dir, `${format}-decode.bundle.mjs`)).href)) as { look(b: Uint8Array): unknown };
      const bytes = readBytes(join(FIXTURES, SAMPLE[format]));
      expect(JSON.parse(JSON.stringify(look(bytes)))).toEqual(JSON.parse(JSON.stringify(summarize(decode(bytes)))));
      expect(look(new Uint8Array(8))).toEqual({ error: expect.any(String) });

      sizes.push(`  levelkit/${format} decode + summarize: ${(b.gzipped / 1024).toFixed(1)} KB`);
      expect(b.gzipped).toBeLessThanOrEqual(ONE_FORMAT_BUDGET);
    });

    it(`levelkit/${format}: the whole namespace stays free of the other formats`, async () => {
      const b = await bundle(`${format}-all`, `export * from 'levelkit/${format}';\n`);
      const from = b.modules.map(origin);
      const others = FORMATS.filter((f) => f !== format);
      expect(from.filter((m) => others.some((o) => m.startsWith(`formats/${o}/`)) || m.startsWith('render/') || m === 'formats/registry')).toEqual([]);
      sizes.push(`  levelkit/${format} whole namespace: ${(b.gzipped / 1024).toFixed(1)} KB`);
      expect(b.gzipped).toBeLessThanOrEqual(NAMESPACE_BUDGET[format] ?? WHOLE_NAMESPACE_BUDGET);
    });
  }

  it('levelkit (the main entry: detect and every format) reaches every format', async () => {
    const b = await bundle('main', `import { decode, summarize } from 'levelkit';\nexport const look = (bytes) => summarize(decode(bytes));\n`);
    const from = b.modules.map(origin);
    for (const f of FORMATS)
      expect(
        from.some((m) => m.startsWith(`formats/${f}/`)),
        f,
      ).toBe(true);
    sizes.push(`  levelkit decode + summarize (all formats): ${(b.gzipped / 1024).toFixed(1)} KB`);
  });
});
