// `levelkit check --sarif` points at the right file: artifact URIs are RFC 3986 references relative
// to SRCROOT (the folder check ran in, a file: URI ending in '/'), every byte that needs it
// percent-encoded from the name's exact bytes (non-UTF-8 names too), a zip member at its zip with
// the member named in the location's properties; a result points into the file (region.byteOffset
// where the finding has an offset, logicalLocations for layer, object and x/y); and the log escapes
// what comes from files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as draft04 from 'ajv-draft-04';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teeworlds, textFrom } from '../../src/index.js';
import { CLI_ARGV } from '../helpers/cli.js';
import { FIXTURES, ROOT, readBytes } from '../helpers/paths.js';

const MAP = readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map'));
/** U+202E (right-to-left override) and U+009B (CSI) in an image name: they reach the unused-image message. */
const HOSTILE = 'evil\u202egnp.\u009b2J';
let tmp: string;
/** CLI_ARGV with tsx named by its file: run in another folder, `--import tsx` would be looked for there. */
const FROM_ANYWHERE = CLI_ARGV.map((a) => (a === 'tsx' ? pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href : a));

/** `levelkit check --sarif` over `args` in folder `cwd`: the parsed log and the raw text. */
function sarif(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [...FROM_ANYWHERE, 'check', '--sarif', '--quiet', '--fail-on', 'never', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return { log: JSON.parse(r.stdout), text: r.stdout };
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lk-sarif-'));
  mkdirSync(join(tmp, 'maps'));
  writeFileSync(join(tmp, 'maps', 'a b%#?\\é.map'), MAP);
  writeFileSync(Buffer.concat([Buffer.from(join(tmp, 'maps', 'x')), Buffer.from([0xff]), Buffer.from('.map')]), MAP);
  writeFileSync(join(tmp, 'maps.zip'), zipSync({ 'in/one map.map': MAP }));
  writeFileSync(join(tmp, 'broken.map'), Buffer.from('DATA\x04\x00\x00\x00garbage'));
  const m = teeworlds.decode(MAP);
  m.images.push({ version: 1, name: textFrom(HOSTILE, 'utf-8'), width: 1, height: 1, external: false, pixels: Uint8Array.of(1, 2, 3, 4) });
  writeFileSync(join(tmp, 'hostile.map'), teeworlds.encode(m));
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('levelkit check --sarif', () => {
  it('artifact URIs are percent-encoded from the name bytes, relative to SRCROOT; a zip member is at its zip', () => {
    const { log } = sarif(tmp, '--rule', 'tw/no-spawn', 'maps', './maps.zip');
    const run = log.runs[0];
    expect(run.originalUriBaseIds).toEqual({ SRCROOT: { uri: `${pathToFileURL(tmp).href}/` } });
    const locations = run.results.map(
      (r: { locations: { physicalLocation: { artifactLocation: object } }[] }) => r.locations[0]!.physicalLocation.artifactLocation,
    );
    expect(locations).toHaveLength(3);
    expect(locations).toEqual(
      expect.arrayContaining([
        { uri: 'maps/a%20b%25%23%3F%5C%C3%A9.map', uriBaseId: 'SRCROOT' },
        { uri: 'maps/x%FF.map', uriBaseId: 'SRCROOT' },
        { uri: 'maps.zip', uriBaseId: 'SRCROOT', properties: { member: 'in/one map.map' } },
      ]),
    );
    // Each resolves against the base to the file itself.
    const base = run.originalUriBaseIds.SRCROOT.uri;
    expect(decodeURIComponent(new URL(locations[0].uri, base).pathname)).toBe(join(tmp, 'maps', 'a b%#?\\é.map'));
  });

  it('a file outside the folder check ran in is an absolute file: URI', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'lk-sarif-cwd-'));
    try {
      const { log } = sarif(elsewhere, '--rule', 'tw/no-spawn', join(tmp, 'maps.zip'));
      expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
        uri: `${pathToFileURL(join(tmp, 'maps.zip')).href}`,
        properties: { member: 'in/one map.map' },
      });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('a result points into the file: region.byteOffset where it has an offset, logical locations for layer, object and x/y', () => {
    const { log } = sarif(tmp, '--rule', 'tw/unpaired-teleporter', '--rule', 'tw/unused-image', '--rule', 'tw/empty-layer', 'maps.zip', 'broken.map');
    validSarif(log);
    type Result = { ruleId: string; message: { text: string }; locations: { physicalLocation: { region?: object }; logicalLocations?: object[] }[] };
    const results: Result[] = log.runs[0].results;
    const where = (rule: string, text: RegExp) => results.find((r) => r.ruleId === rule && text.test(r.message.text))!.locations[0]!;
    // A cell of a layer: the layer, and the position in it.
    expect(where('tw/unpaired-teleporter', /^teleporter 2 /).logicalLocations).toEqual([
      { kind: 'array', name: 'layer 4', fullyQualifiedName: 'layer 4' },
      { kind: 'value', name: '(2, 0)', fullyQualifiedName: 'layer 4/(2, 0)' },
    ]);
    // An object of no layer (an image), and a layer alone.
    expect(where('tw/unused-image', /^image 1 /).logicalLocations).toEqual([{ kind: 'object', name: 'object 1', fullyQualifiedName: 'object 1' }]);
    expect(where('tw/empty-layer', /'Empty'/).logicalLocations).toEqual([{ kind: 'array', name: 'layer 9', fullyQualifiedName: 'layer 9' }]);
    // A file that does not decode: where its decoding stopped, as a byte offset; no logical place.
    const broken = where('decode', /^TRUNCATED: /);
    expect(broken.physicalLocation.region).toEqual({ byteOffset: 8 });
    expect(broken.logicalLocations).toBeUndefined();
    // A finding with no offset has no region (none is made up).
    expect(where('tw/unused-image', /^image 1 /).physicalLocation.region).toBeUndefined();
  });

  it('escapes C1 controls and bidi marks from files as \\uNNNN, and stays a valid SARIF 2.1.0 log', () => {
    const { log, text } = sarif(tmp, '--rule', 'tw/unused-image', 'hostile.map');
    expect(text).not.toMatch(/[\u0080-\u009f\u202e]/);
    expect(text).toContain('\\u202e');
    expect(log.runs[0].results.map((r: { message: { text: string } }) => r.message.text)).toContainEqual(expect.stringContaining(HOSTILE));
    validSarif(log);
    validSarif(sarif(tmp, '--rule', 'tw/no-spawn', 'maps', 'maps.zip').log);
  });
});

/** `log` is valid by the official SARIF 2.1.0 schema (its structure; `format` keywords are annotations here). */
function validSarif(log: object): void {
  const require = createRequire(import.meta.url);
  const schemaPath = join(require.resolve('@microsoft/jest-sarif/package.json'), '../lib/schemas/sarif-2.1.0-rtm.5.json');
  const ajv = new draft04.default.default({ strict: false, validateFormats: false, allErrors: true, unicodeRegExp: false });
  const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
  validate(log);
  expect(validate.errors ?? []).toEqual([]);
}
