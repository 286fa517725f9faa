// The package as a user gets it: `npm pack`, the tarball installed into an empty project, then
// the CLI, an ESM import and a CJS require there, each decoding fixtures. Tests dist/ as built:
// `npm test` builds it first; this file fails (rather than testing old output) when src/ is newer.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, summarize } from '../src/index.js';
import { assertBuilt, FIXTURES, listFiles, ROOT, readBytes } from './helpers/paths.js';

const FILES = ['wwd/claw-compressed.wwd', 'teeworlds/tw07-skip.map', 'graal/gr-v101.graal'].map((f) => join(FIXTURES, f));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
const LIBRARY_BUILDS = ['dist/index.mjs', 'dist/index.cjs', 'dist/levelkit.browser.mjs'];
/** The per-format entries (levelkit/<format>), and the format of each of FILES. */
const FORMAT_ENTRIES = ['teeworlds', 'wwd', 'graal', 'gwc', 'wdata'];
const ENTRY_OF_FILE = ['wwd', 'teeworlds', 'graal'];

/** What the library built from src/ says about FILES: the packed builds must say the same. */
const expected = () => Object.fromEntries(FILES.map((f) => [f, JSON.parse(JSON.stringify(summarize(decode(readBytes(f)))))]));

function run(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.error) throw r.error;
  return r;
}

function ok(cmd: string, args: string[], cwd: string): string {
  const r = run(cmd, args, cwd);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}\n${r.stderr}`);
  return r.stdout;
}

// Each script prints one JSON line: where 'levelkit' resolved, its export names, and the summary
// of every file given. ESM and CJS differ only in how they load the package.
const ESM_SCRIPT = `import { readFileSync } from 'node:fs';
import * as lk from 'levelkit';
const summaries = Object.fromEntries(process.argv.slice(2).map((f) => [f, lk.summarize(lk.decode(readFileSync(f)))]));
console.log(JSON.stringify({ resolved: import.meta.resolve('levelkit'), exports: Object.keys(lk).sort(), summaries }));
`;
const CJS_SCRIPT = `const { readFileSync } = require('node:fs');
const lk = require('levelkit');
const summaries = Object.fromEntries(process.argv.slice(2).map((f) => [f, lk.summarize(lk.decode(readFileSync(f)))]));
console.log(JSON.stringify({ resolved: require.resolve('levelkit'), exports: Object.keys(lk).sort(), summaries }));
`;
// drawLevel() from an installed build finds the package's own assets/teeworlds/ (a digest of the
// picture, and how many layers drew with real tiles), whichever build the host loads.
const DRAW_SCRIPT = (
  spec: string,
  load: 'import' | 'require',
) => `${load === 'import' ? `import { readFileSync } from 'node:fs';\nimport { createHash } from 'node:crypto';\nimport * as lk from '${spec}';` : `const { readFileSync } = require('node:fs');\nconst { createHash } = require('node:crypto');\nconst lk = require('${spec}');`}
(async () => {
  const p = await lk.drawLevel(lk.decode(readFileSync(process.argv[2])), { scale: 2 });
  console.log(JSON.stringify({ digest: createHash('sha256').update(p.rgba).digest('hex'), tilesets: p.layers.filter((l) => l.tileset).length }));
})();
`;
// The dual-package hazard: one program that both imports and requires levelkit must see one
// DecodeError and one EncodeError, whichever side threw.
const DUAL_SCRIPT = `import { createRequire } from 'node:module';
import * as esm from 'levelkit';
const cjs = createRequire(import.meta.url)('levelkit');
const thrown = (f) => { try { f(); } catch (e) { return e; } throw new Error('did not throw'); };
const junk = new Uint8Array(16);
const unencodable = (lk) => () => lk.textFrom('\\u6f22', 'windows-1252', 'wwd');
console.log(JSON.stringify({
  decodeErrorFromEsmIsCjsClass: thrown(() => esm.decode(junk)) instanceof cjs.DecodeError,
  decodeErrorFromCjsIsEsmClass: thrown(() => cjs.decode(junk)) instanceof esm.DecodeError,
  encodeErrorFromEsmIsCjsClass: thrown(unencodable(esm)) instanceof cjs.EncodeError,
  encodeErrorFromCjsIsEsmClass: thrown(unencodable(cjs)) instanceof esm.EncodeError,
  exportsNotShared: Object.keys(esm).filter((k) => esm[k] !== cjs[k]),
}));
`;

// Each per-format entry: its export names, whether its functions and error classes are the main
// entry's own (one copy of the library), and the summary of each file of its format.
const ENTRY_SCRIPT = (load: 'import' | 'require') => {
  const head =
    load === 'import'
      ? "import { readFileSync } from 'node:fs';\nimport * as main from 'levelkit';\nconst load = (spec) => import(spec);\nconst where = (spec) => import.meta.resolve(spec);"
      : "const { readFileSync } = require('node:fs');\nconst main = require('levelkit');\nconst load = async (spec) => require(spec);\nconst where = (spec) => require.resolve(spec);";
  return `${head}
(async () => {
  const out = {};
  for (const [format, files] of Object.entries(JSON.parse(process.argv[2]))) {
    const spec = 'levelkit/' + format;
    const entry = await load(spec);
    const names = Object.keys(entry).filter((n) => n !== 'default' && n !== 'module.exports').sort();
    out[format] = {
      resolved: where(spec),
      names,
      notTheMainEntrys: names.filter((n) => entry[n] !== (n in main[format] ? main[format][n] : main[n])),
      sameDecodeError: entry.DecodeError === main.DecodeError,
      summaries: Object.fromEntries(files.map((f) => [f, entry.summarize(entry.decode(readFileSync(f)))])),
    };
  }
  console.log(JSON.stringify(out));
})();
`;
};

describe('the packed package, installed into an empty project', () => {
  let tmp = '';
  let project = '';
  let packed: string[] = [];

  beforeAll(() => {
    assertBuilt([...LIBRARY_BUILDS, 'dist/cli.mjs']);

    tmp = mkdtempSync(join(tmpdir(), 'levelkit-pkg-'));
    // dist/ was just checked to be current, so packing skips prepack's second build.
    const [pack] = JSON.parse(ok('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT)) as [
      { filename: string; files: { path: string }[] },
    ];
    packed = pack.files.map((f) => f.path).sort();

    project = join(tmp, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'levelkit-consumer', private: true }));
    // Offline: the registry metadata npm would need for the dependencies' version ranges is not in
    // the cache after `npm ci`, so the project gets the repository's installed copies of exactly
    // the declared dependencies. A runtime import the package does not declare still fails here,
    // and a declared range those copies do not satisfy makes npm go to the registry and fail.
    const deps = Object.keys(PKG.dependencies ?? {}).map((d) => join(ROOT, 'node_modules', d));
    ok('npm', ['install', '--offline', '--no-audit', '--no-fund', join(tmp, pack.filename), ...deps], project);
    writeFileSync(join(project, 'esm.mjs'), ESM_SCRIPT);
    writeFileSync(join(project, 'cjs.cjs'), CJS_SCRIPT);
    writeFileSync(join(project, 'dual.mjs'), DUAL_SCRIPT);
    writeFileSync(join(project, 'entries.mjs'), ENTRY_SCRIPT('import'));
    writeFileSync(join(project, 'entries.cjs'), ENTRY_SCRIPT('require'));
  });

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('holds the builds, LICENSE, README and the bundled Teeworlds pictures with their licence, and nothing from the source tree', () => {
    const perFormat = FORMAT_ENTRIES.flatMap((f) => [`dist/${f}.cjs`, `dist/${f}.mjs`, `dist/${f}.d.cts`, `dist/${f}.d.mts`, `dist/esm/entries/${f}.mjs`]);
    const required = [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/cli.mjs',
      'dist/index.d.cts',
      'dist/index.d.mts',
      'dist/levelkit.browser.mjs.map',
      'dist/esm/index.mjs',
      // The pages `levelkit site` copies into a site's assets/.
      'dist/site/site.js',
      'dist/site/site.css',
      ...perFormat,
      ...LIBRARY_BUILDS,
    ];
    // Every file of assets/teeworlds/ (CC-BY-SA pictures, their LICENSE and CREDITS), outside dist/.
    const assets = listFiles(join(ROOT, 'assets'), /./).map((p) => relative(ROOT, p).split(sep).join('/'));
    expect(assets).toEqual(expect.arrayContaining(['assets/teeworlds/LICENSE', 'assets/teeworlds/CREDITS.md', 'assets/teeworlds/entities/ddnet.png']));
    expect(packed).toEqual(expect.arrayContaining([...required, ...assets]));
    expect(packed.filter((p) => !p.startsWith('dist/') && !p.startsWith('assets/') && !['LICENSE', 'README.md', 'package.json'].includes(p))).toEqual([]);
  });

  it('runs the levelkit command from node_modules/.bin', () => {
    const lines = ok(join(project, 'node_modules/.bin/levelkit'), ['info', '--json', ...FILES], project)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const want = expected();
    expect(lines.map((l) => [l.file, { version: l.version, summary: l.summary }])).toEqual(FILES.map((f) => [f, want[f]]));
  });

  it('extracts PNGs with the CLI (fast-png, a dependency only the CLI loads, resolves when installed)', () => {
    const out = join(tmp, 'extracted');
    ok(join(project, 'node_modules/.bin/levelkit'), ['extract', join(FIXTURES, 'teeworlds/tw07-skip.map'), '-o', out], project);
    const pngs = listFiles(out, /\.png$/);
    expect(pngs.length).toBeGreaterThan(0);
    for (const p of pngs) expect([...readBytes(p).subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  });

  it('renders external images with the bundled map resources from the installed package', () => {
    const out = join(tmp, 'dm1.png');
    const r = spawnSync(join(project, 'node_modules/.bin/levelkit'), ['render', join(FIXTURES, 'teeworlds/real/tw07-dm1.map'), '-o', out, '--scale', '2'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('not found');
    expect(readBytes(out).length).toBeGreaterThan(1000);
  });

  it('drawLevel() paints what the source draws with the bundled pictures, from every build (ESM, CJS, browser tree, levelkit/browser)', async () => {
    const { drawLevel } = await import('../src/index.js');
    const dm1 = join(FIXTURES, 'teeworlds/real/tw07-dm1.map');
    const mine = await drawLevel(decode(readBytes(dm1)), { scale: 2 });
    const want = { digest: createHash('sha256').update(mine.rgba).digest('hex'), tilesets: mine.layers.filter((l) => l.tileset).length };
    expect(want.tilesets).toBeGreaterThan(3);
    writeFileSync(join(project, 'draw.mjs'), DRAW_SCRIPT('levelkit', 'import'));
    writeFileSync(join(project, 'draw.cjs'), DRAW_SCRIPT('levelkit', 'require'));
    writeFileSync(join(project, 'draw-browser.mjs'), DRAW_SCRIPT('levelkit/browser', 'import'));
    for (const args of [['draw.mjs'], ['draw.cjs'], ['--conditions=browser', 'draw.mjs'], ['draw-browser.mjs']])
      expect(JSON.parse(ok(process.execPath, [...args, dm1], project)), args.join(' ')).toEqual(want);
  }, 120_000);

  it('decodes through an ESM import and a CJS require, with the same export names', () => {
    const esm = JSON.parse(ok(process.execPath, ['esm.mjs', ...FILES], project));
    const cjs = JSON.parse(ok(process.execPath, ['cjs.cjs', ...FILES], project));
    expect(esm.resolved).toMatch(/node_modules\/levelkit\/dist\/index\.mjs$/);
    expect(cjs.resolved).toMatch(/node_modules\/levelkit\/dist\/index\.cjs$/);
    expect(esm.summaries).toEqual(expected());
    expect(cjs.summaries).toEqual(esm.summaries);
    expect(esm.exports).toEqual(cjs.exports);
  });

  it('gives the browser condition the ES module tree (dist/esm/), which decodes the same', () => {
    const browser = JSON.parse(ok(process.execPath, ['--conditions=browser', 'esm.mjs', ...FILES], project));
    expect(browser.resolved).toMatch(/node_modules\/levelkit\/dist\/esm\/index\.mjs$/);
    expect(browser.summaries).toEqual(expected());
  });

  it('levelkit/browser is one minified file with its source map beside it, naming the sources, and decodes the same', () => {
    const script = ESM_SCRIPT.replaceAll("'levelkit'", "'levelkit/browser'");
    writeFileSync(join(project, 'browser.mjs'), script);
    const out = JSON.parse(ok(process.execPath, ['browser.mjs', ...FILES], project));
    expect(out.resolved).toMatch(/node_modules\/levelkit\/dist\/levelkit\.browser\.mjs$/);
    expect(out.summaries).toEqual(expected());
    const code = readFileSync(join(project, 'node_modules/levelkit/dist/levelkit.browser.mjs'), 'utf8');
    // Minified: few lines for its size (the readable build had one statement per line).
    expect(code.split('\n').length).toBeLessThan(code.length / 2000);
    expect(code.trimEnd().endsWith('//# sourceMappingURL=levelkit.browser.mjs.map')).toBe(true);
    const map = JSON.parse(readFileSync(join(project, 'node_modules/levelkit/dist/levelkit.browser.mjs.map'), 'utf8'));
    expect(map.sources).toEqual(expect.arrayContaining(['../src/index.ts', '../src/formats/wwd/decode.ts']));
    expect(map.sourcesContent?.length).toBe(map.sources.length);
  });

  it.each(['import', 'require'] as const)("levelkit/<format> through %s: the main entry's own functions and errors, decoding the same", (load) => {
    const byFormat = Object.fromEntries(FORMAT_ENTRIES.map((f) => [f, FILES.filter((_, i) => ENTRY_OF_FILE[i] === f)]));
    const out = JSON.parse(ok(process.execPath, [load === 'import' ? 'entries.mjs' : 'entries.cjs', JSON.stringify(byFormat)], project));
    const want = expected();
    for (const format of FORMAT_ENTRIES) {
      const r = out[format];
      expect(r.resolved, format).toMatch(new RegExp(`node_modules/levelkit/dist/${format}\\.${load === 'import' ? 'mjs' : 'cjs'}$`));
      expect(r.names, format).toEqual(
        expect.arrayContaining(['decode', 'encode', 'summarize', 'mainGrid', 'extract', 'sniff', 'DecodeError', 'EncodeError', 'init']),
      );
      expect(r.notTheMainEntrys, format).toEqual([]);
      expect(r.sameDecodeError, format).toBe(true);
      expect(r.summaries, format).toEqual(Object.fromEntries(byFormat[format]!.map((f) => [f, want[f]])));
    }
  });

  it('levelkit/<format> under the browser condition is the ES module tree, with the names Node gets', () => {
    const byFormat = Object.fromEntries(FORMAT_ENTRIES.map((f) => [f, FILES.filter((_, i) => ENTRY_OF_FILE[i] === f)]));
    const node = JSON.parse(ok(process.execPath, ['entries.mjs', JSON.stringify(byFormat)], project));
    const browser = JSON.parse(ok(process.execPath, ['--conditions=browser', 'entries.mjs', JSON.stringify(byFormat)], project));
    for (const format of FORMAT_ENTRIES) {
      expect(browser[format].resolved, format).toMatch(new RegExp(`node_modules/levelkit/dist/esm/entries/${format}\\.mjs$`));
      expect(browser[format].names, format).toEqual(node[format].names);
      expect(browser[format].sameDecodeError, format).toBe(true);
      expect(browser[format].summaries, format).toEqual(node[format].summaries);
    }
  });

  it('has one DecodeError and one EncodeError for import and require alike', () => {
    expect(JSON.parse(ok(process.execPath, ['dual.mjs'], project))).toEqual({
      decodeErrorFromEsmIsCjsClass: true,
      decodeErrorFromCjsIsEsmClass: true,
      encodeErrorFromEsmIsCjsClass: true,
      encodeErrorFromCjsIsEsmClass: true,
      exportsNotShared: [],
    });
  });
});

// fast-png is the CLI's PNG writer. The library builds must neither import it nor inline it: it
// is not needed to decode, and browsers would download it for nothing. An import names the
// package; inlined code shows the signs below, each of which fast-png's own code contains
// (checked last), so a reworked fast-png that no longer shows a sign makes this test say so
// instead of passing blindly. The library reads PNG itself (decodePng, for the bundled map
// resources), so the PNG signature and chunk names are in it by right: the signs are the writer's.
const INLINED_SIGNS: [string, RegExp][] = [
  ['its encoder class', /PngEncoder/],
  ['the IOBuffer it writes through', /IOBuffer|iobuffer/],
  ['the zlibSync (fflate) it deflates with', /zlibSync/],
  ['its chunk writers', /encodeIHDR|encodeIDAT|encodeIEND/],
];

describe('fast-png stays out of the library builds', () => {
  it.each(LIBRARY_BUILDS)('%s neither imports nor inlines fast-png', (file) => {
    const code = readFileSync(join(ROOT, file), 'utf8');
    expect(code).not.toMatch(/fast-png/);
    expect(INLINED_SIGNS.filter(([, re]) => re.test(code)).map(([what]) => what)).toEqual([]);
  });

  it('the CLI does import it, when it first writes a PNG (the import check above can see one)', () => {
    // The CLI's code: dist/cli.mjs (the entry) and the chunks it loads (main-*.mjs and others).
    const cliChunks = readdirSync(join(ROOT, 'dist'))
      .filter((f) => f.endsWith('.mjs') && !LIBRARY_BUILDS.includes(`dist/${f}`))
      .map((f) => readFileSync(join(ROOT, 'dist', f), 'utf8'));
    expect(cliChunks.filter((code) => /import\(['"]fast-png['"]\)/.test(code)).length).toBe(1);
    // Not at start-up: a scan never writes a PNG and should not load it.
    expect(cliChunks.filter((code) => /from ['"]fast-png['"]/.test(code))).toEqual([]);
  });

  it("each inlining sign is found in fast-png's own code (the check above can still see it)", () => {
    const lib = listFiles(join(ROOT, 'node_modules/fast-png'), /\.js$/)
      .filter((p) => !p.includes('/node_modules/fast-png/node_modules/'))
      .map((p) => readFileSync(p, 'utf8'))
      .join('\n');
    expect(INLINED_SIGNS.filter(([, re]) => !re.test(lib)).map(([what]) => what)).toEqual([]);
  });
});
