// dist/: the library as CommonJS (pako external) with a thin ESM entry over it, bundled type
// declarations for both, per-format entries (levelkit/teeworlds, …) as thin modules over that
// CommonJS build for Node, the same entries as an ES module tree (dist/esm/, one file per source
// module) for bundlers and browsers to tree-shake, a minified self-contained browser file
// (pako inlined, for <script type="module"> without a bundler) with its source map, and the CLI,
// which loads the library build beside it. The WASM module is inlined by
// src/kernels/wasm/binary.generated.ts (npm run asbuild).
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import { transform } from 'esbuild';
import { zipSync } from 'fflate';
import { dts } from 'rollup-plugin-dts';

// Start from an empty dist/ so files an older layout wrote (a stale index.mjs.map) are never
// packed. Not in watch mode, where one config rebuilding must not delete the others' output.
// LEVELKIT_BUILD=web rebuilds only what browsers load (the browser build, dist/web/ and dist/site/) and keeps the rest.
const ONLY_WEB = process.env.LEVELKIT_BUILD === 'web';
if (!process.env.ROLLUP_WATCH && !ONLY_WEB) rmSync(fileURLToPath(new URL('./dist/', import.meta.url)), { recursive: true, force: true });

const ts = (outDir = 'dist') => typescript({ tsconfig: './tsconfig.build.json', outDir });
const external = (id) => id === 'pako' || id.startsWith('node:') || id === 'fast-png' || id === 'fflate' || id === 'luaparse' || id.startsWith('@duckdb/');
/**
 * The bundles that inline their dependencies (browser, page, site) read luaparse (the GWZ source
 * parser, a CommonJS/UMD module) through this; the ES-module dependencies pass through untouched.
 */
const cjs = () => [luaparseClean, commonjs({ include: /node_modules\/luaparse\// })];

/**
 * luaparse as it goes into a bundle: its comments dropped (one shows `require('luaparser')`, which
 * the page test rightly refuses in a browser script) and its MIT notice kept as a legal comment.
 */
const luaparseClean = {
  name: 'luaparse-clean',
  async transform(code, id) {
    if (!/node_modules[\\/]luaparse[\\/]luaparse\.js$/.test(id)) return null;
    const licence = readFileSync(new URL('./node_modules/luaparse/LICENSE', import.meta.url), 'utf8').replaceAll('*/', '* /');
    const out = await transform(code, { loader: 'js', legalComments: 'none', sourcemap: true, sourcefile: id });
    return {
      code: `/*! luaparse ${JSON.parse(readFileSync(new URL('./node_modules/luaparse/package.json', import.meta.url), 'utf8')).version}\n${licence}*/\n${out.code}`,
      map: null,
    };
  },
};
const LIBRARY = fileURLToPath(new URL('./src/index.ts', import.meta.url));
/** The per-format entries (src/entries/<format>.ts): package.json exports each as levelkit/<format>. */
const FORMAT_ENTRIES = ['teeworlds', 'wwd', 'graal', 'gwc', 'wdata'];
/** Names every per-format entry takes from src/entries/common.ts; the rest are its format namespace's. */
const COMMON_NAMES = new Set([
  'DecodeError',
  'EncodeError',
  'DEFAULT_LIMITS',
  'LIMIT_NAMES',
  'ZIP_INFLATE_ALLOWANCE',
  'zipInflateBudget',
  'textFrom',
  'init',
  'wasmAvailable',
]);
const SRC = fileURLToPath(new URL('./src/', import.meta.url));

/**
 * Writes dist/index.mjs as named re-exports of the CommonJS build. Node then loads one copy of
 * the library whether a program imports it, requires it, or both, so DecodeError/EncodeError
 * are one class for every consumer (separate ESM and CJS builds each had their own, and
 * `instanceof` failed across them). Named re-exports rather than `import cjs from` because
 * bundlers that honour the CJS output's __esModule marker would hand a default import
 * `exports.default` (undefined); Node finds the names with cjs-module-lexer, which reads
 * rollup's `exports.name = value;` lines (the package test imports every one).
 */
function esmEntryOverCjs(fileName) {
  return {
    name: 'esm-entry-over-cjs',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      // Node gives an ESM importer module.exports as a CJS module's default, never exports.default.
      if (entry.exports.includes('default')) this.error('src/index.ts has a default export, which the ESM entry cannot pass on from CJS');
      const names = entry.exports;
      const source =
        `// ESM entry of levelkit: the CommonJS build's exports, so import and require share one copy.\n` +
        `export {\n${names.map((n) => `  ${n},\n`).join('')}} from './${entry.fileName}';\n`;
      this.emitFile({ type: 'asset', fileName, source });
      // The same names for the CLI, levelkit/scan and the scan's workers (cliUsesLibraryBuild):
      // required, not imported. Importing CommonJS from ESM makes Node run cjs-module-lexer over
      // the whole build (half a megabyte) to find the names, in every thread that imports it:
      // ~50 ms of CPU and a TurboFan compile of the lexer per scan worker. require() shares the
      // module cache with that import, so it is still one copy of the library (one DecodeError).
      const required =
        `// The library build for levelkit's own Node entry points (CLI, scan, scan workers): required, so Node does not lex\n` +
        `// index.cjs for its export names in every worker thread. Same module instance as index.mjs.\n` +
        `import { createRequire } from 'node:module';\n` +
        `const lib = createRequire(import.meta.url)('./${entry.fileName}');\n` +
        `export const {\n${names.map((n) => `  ${n},\n`).join('')}} = lib;\n`;
      this.emitFile({ type: 'asset', fileName: NODE_ENTRY, source: required });
    },
  };
}

/** The library build as levelkit's own Node code loads it (see esmEntryOverCjs). */
const NODE_ENTRY = 'index-node.mjs';

/**
 * The CLI reaches the library only through src/index.ts, which stays external and becomes
 * './index-node.mjs' (the CommonJS build beside dist/cli.mjs, required): one copy of the library in the package and one
 * set of error classes for the CLI's `instanceof` checks. Any other library module the CLI
 * imports directly would be bundled as a second copy, so that is a build error.
 */
function cliUsesLibraryBuild() {
  return {
    name: 'cli-uses-library-build',
    async resolveId(source, importer, options) {
      if (!importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved?.id === LIBRARY) return { id: `./${NODE_ENTRY}`, external: true };
      return resolved;
    },
    load(id) {
      // default-limits.ts is plain data (no classes, no imports): the entry checks a command line
      // against it before the library loads (cli/options.ts), so that copy costs nothing. Nor does
      // one of suggest.ts (two pure functions: did-you-mean for the CLI and the check rules).
      const inLibrary =
        id.startsWith(SRC) &&
        !id.startsWith(`${SRC}cli/`) &&
        !id.startsWith(`${SRC}scan/`) &&
        !id.startsWith(`${SRC}archive-index/`) &&
        !id.startsWith(`${SRC}check/`) &&
        !id.startsWith(`${SRC}site/`) &&
        id !== `${SRC}core/default-limits.ts` &&
        id !== `${SRC}core/suggest.ts`;
      if (inLibrary) {
        this.error(`the CLI imports ${id.slice(SRC.length)} directly: import it from src/index.ts, or dist/cli.mjs would carry a second copy of the library`);
      }
      return null;
    },
  };
}

/**
 * Writes dist/<format>.cjs and dist/<format>.mjs for every per-format entry of the ES module tree
 * (this plugin runs in that build, which knows each entry's export names): under Node both are
 * thin modules over dist/index.cjs, so levelkit/teeworlds hands out the very functions and error
 * classes levelkit does (one DecodeError, as for import and require of the main entry). Each
 * name is assigned on its own line so cjs-module-lexer finds it for ESM importers.
 */
function nodeFormatEntries() {
  return {
    name: 'node-format-entries',
    writeBundle(_options, bundle) {
      for (const format of FORMAT_ENTRIES) {
        const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry && c.name === `entries/${format}`);
        if (!entry) this.error(`no entry chunk for src/entries/${format}.ts`);
        const names = entry.exports;
        if (names.includes('default')) this.error(`src/entries/${format}.ts has a default export`);
        const from = (n) => (COMMON_NAMES.has(n) ? `lk.${n}` : `lk.${format}.${n}`);
        const cjs =
          `'use strict';\n// levelkit/${format} under Node: the ${format} namespace of the CommonJS build, plus errors and init().\n` +
          `const lk = require('./index.cjs');\n${names.map((n) => `exports.${n} = ${from(n)};\n`).join('')}`;
        const esm = `// levelkit/${format} under Node (ESM): the names of ./${format}.cjs, so import and require share one copy.\nexport {\n${names.map((n) => `  ${n},\n`).join('')}} from './${format}.cjs';\n`;
        // Written beside dist/index.cjs, one folder up from this build's output (dist/esm/).
        writeFileSync(fileURLToPath(new URL(`./dist/${format}.cjs`, import.meta.url)), cjs);
        writeFileSync(fileURLToPath(new URL(`./dist/${format}.mjs`, import.meta.url)), esm);
      }
    },
  };
}

/** Minifies the output (esbuild) and keeps its source map pointing at src/. */
function minify() {
  return {
    name: 'minify',
    async renderChunk(code, chunk) {
      const out = await transform(code, { minify: true, format: 'esm', target: 'es2022', sourcemap: true, sourcefile: chunk.fileName });
      return { code: out.code, map: out.map };
    },
  };
}

/** Minifies a classic script (esbuild keeps rollup's IIFE as it is). */
function minifyScript() {
  return {
    name: 'minify-script',
    async renderChunk(code) {
      const out = await transform(code, { minify: true, target: 'es2022' });
      return { code: out.code, map: null };
    },
  };
}

const WEB_EXAMPLES = [
  ['wwd', 'wwd/claw-compressed.wwd'],
  ['wwd', 'wwd/gruntz-compressed.wwd'],
  ['teeworlds', 'teeworlds/real/ddnet-coverage.map'],
  ['teeworlds', 'teeworlds/real/tw07-dm1.map'],
  ['teeworlds', 'teeworlds/ddnet-all-items.map'],
  ['graal', 'graal/gr-v105-layers.graal'],
  ['graal-nw', 'graal/layers.nw'],
  ['graal', 'graal/z3-v103-baddies.zelda'],
  ['graal-gmap', 'graal/world.gmap'],
  ['gwc', 'gwc/odd-ids-deleted-cp1252.gwc'],
  ['wdata', 'wdata/eventbox-v9.wdata'],
];

/**
 * Copies the page's static files (web/index.html, web/style.css), the examples, and the bundled
 * Teeworlds pictures (assets/teeworlds/ with their licence: the page fetches each by name when a
 * map needs it) into dist/web/.
 */
function webStatic() {
  return {
    name: 'web-static',
    writeBundle() {
      const out = fileURLToPath(new URL('./dist/web/', import.meta.url));
      mkdirSync(`${out}examples`, { recursive: true });
      for (const f of ['index.html', 'style.css']) copyFileSync(fileURLToPath(new URL(`./web/${f}`, import.meta.url)), `${out}${f}`);
      cpSync(fileURLToPath(new URL('./assets/teeworlds/', import.meta.url)), `${out}assets/teeworlds/`, { recursive: true });
      const index = [];
      const zip = {};
      for (const [format, rel] of WEB_EXAMPLES) {
        const file = rel.split('/').pop();
        const bytes = readFileSync(fileURLToPath(new URL(`./fixtures/${rel}`, import.meta.url)));
        writeFileSync(`${out}examples/${file}`, bytes);
        zip[file] = new Uint8Array(bytes);
        index.push({ name: file, format, file });
      }
      writeFileSync(`${out}examples/examples.zip`, zipSync(zip, { level: 6, mtime: new Date('2020-01-01T00:00:00Z') }));
      index.push({ name: `examples.zip (${WEB_EXAMPLES.length} levels)`, format: 'zip', file: 'examples.zip' });
      writeFileSync(`${out}examples/index.json`, `${JSON.stringify(index, null, 1)}\n`);
    },
  };
}

/** The page's scripts: library, fflate and page code bundled for browsers (no Node built-ins; the browser suite checks). */
const webTs = () => typescript({ tsconfig: './tsconfig.web.json' });

const web = {
  input: { app: 'web/app.ts', worker: 'web/worker.ts' },
  plugins: [nodeResolve({ browser: true }), cjs(), webTs(), webStatic()],
  output: { dir: 'dist/web', format: 'es', sourcemap: true, entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
};

/**
 * The pages of `levelkit site` (web/site/): one classic script, an IIFE with the library inlined,
 * because pages opened from file:// may load no module, start no worker and fetch nothing; and
 * their style. `levelkit site` copies both into the site's assets/ (so dist/site ships in the package).
 */
const site = {
  input: 'web/site/main.ts',
  plugins: [
    nodeResolve({ browser: true }),
    cjs(),
    typescript({ tsconfig: './tsconfig.web.json', outDir: 'dist/site' }),
    minifyScript(),
    {
      name: 'site-style',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: 'site.css', source: readFileSync(fileURLToPath(new URL('./web/site/site.css', import.meta.url)), 'utf8') });
      },
    },
  ],
  output: { dir: 'dist/site', format: 'iife', entryFileNames: 'site.js', inlineDynamicImports: true },
};

const browser = {
  input: 'src/index.ts',
  plugins: [nodeResolve({ browser: true }), cjs(), ts(), minify()],
  output: { file: 'dist/levelkit.browser.mjs', format: 'es', sourcemap: true },
};

/**
 * dist/esm/: the library and its per-format entries as ES modules, one file per source module
 * (dependencies external), for bundlers and browsers: an app importing levelkit/wwd bundles the
 * WWD modules, core and the kernels, and nothing of the other formats, render/ or the registry
 * (test/bundle-size.test.ts bundles such apps and checks). The entries share one core, so
 * levelkit and levelkit/wwd in one bundle have one DecodeError.
 */
const esm = {
  input: { index: 'src/index.ts', ...Object.fromEntries(FORMAT_ENTRIES.map((f) => [`entries/${f}`, `src/entries/${f}.ts`])) },
  // luaparse (CommonJS) comes inside, converted to an ES module: a bundler with no CommonJS
  // support (rollup alone) then reads every file of dist/esm, and tree-shakes it out of an app
  // that never reads a GWZ's source.
  external: (id) => id !== 'luaparse' && external(id),
  plugins: [nodeResolve({ resolveOnly: ['luaparse'] }), cjs(), ts('dist/esm'), nodeFormatEntries()],
  output: { dir: 'dist/esm', format: 'es', preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].mjs' },
};

export default ONLY_WEB
  ? [browser, web, site]
  : [
      {
        input: 'src/index.ts',
        external,
        plugins: [ts(), esmEntryOverCjs('index.mjs')],
        output: { file: 'dist/index.cjs', format: 'cjs', sourcemap: true, exports: 'named' },
      },
      esm,
      browser,
      web,
      site,
      {
        // The CLI, the Node-only scan entry (levelkit/scan), the scan worker and render's worker share chunks at the
        // top of dist/, so the worker is found beside the code that starts it.
        input: { cli: 'src/cli/bin.ts', scan: 'src/scan/index.ts', 'scan-worker': 'src/scan/worker-node.ts', 'render-worker': 'src/cli/render-worker.ts' },
        external,
        plugins: [cliUsesLibraryBuild(), ts()],
        output: {
          dir: 'dist',
          format: 'es',
          entryFileNames: '[name].mjs',
          chunkFileNames: '[name]-[hash].mjs',
          banner: (chunk) => (chunk.name === 'cli' && chunk.isEntry ? '#!/usr/bin/env node' : ''),
        },
      },
      {
        input: 'src/scan/index.ts',
        external: (id) => external(id) || id === LIBRARY,
        plugins: [
          dts({ tsconfig: './tsconfig.build.json' }),
          // The library's types are the ones dist/index.d.mts declares, beside this file.
          { name: 'scan-types-use-library-types', renderChunk: (code) => code.replaceAll("from '../index.ts'", "from './index.mjs'") },
        ],
        output: { file: 'dist/scan.d.mts', format: 'es' },
      },
      ...['index', ...FORMAT_ENTRIES].map((name) => ({
        // Each entry's declarations bundled on their own (levelkit/wwd's declare the error classes
        // again; the classes at run time are one).
        input: name === 'index' ? 'src/index.ts' : `src/entries/${name}.ts`,
        external,
        plugins: [dts({ tsconfig: './tsconfig.build.json' })],
        output: [
          { file: `dist/${name}.d.mts`, format: 'es' },
          { file: `dist/${name}.d.cts`, format: 'es' },
        ],
      })),
    ];
