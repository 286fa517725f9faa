// Issue 18.1: text from files used as keys (formats, versions, warning and error codes, member
// names, extensions, header magics) must never reach Object.prototype, read an inherited
// property, or lose an entry. Each place that counts or looks up by such text gets the five names
// below; Object.prototype is compared before and after, and every total is checked.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DecodeError, detect, EncodeError, graal, gwc } from '../../src/index.js';
import { reportOf, reportTable, type ScanRecord } from '../../src/scan/index.js';
import { Tally } from '../../src/scan/tally.js';
import { runBin } from '../helpers/cli.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'] as const;
const tmp = mkdtempSync(join(tmpdir(), 'levelkit-proto-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Object.prototype's own properties as they are now: names and values. */
function prototypeState(): [string, unknown][] {
  return Object.getOwnPropertyNames(Object.prototype).map((n) => [n, Object.getOwnPropertyDescriptor(Object.prototype, n)]);
}

let before: [string, unknown][];
beforeEach(() => {
  before = prototypeState();
});
afterEach(() => {
  const after = prototypeState();
  expect(after.map(([n]) => n)).toEqual(before.map(([n]) => n));
  after.forEach(([n, d], i) => {
    expect((d as PropertyDescriptor).value, n).toBe((before[i]![1] as PropertyDescriptor).value);
  });
  // What a polluted prototype would show on any fresh object.
  const fresh: Record<string, unknown> = {};
  expect(Object.getPrototypeOf(fresh)).toBe(Object.prototype);
  expect(Object.keys(Object.prototype)).toEqual([]);
});

const ok = (format: string, version: string, warning: string): ScanRecord => ({
  path: `${format}.lvl`,
  member: null,
  bytes: 10,
  format,
  version,
  summary: {},
  warnings: [{ code: warning, message: 'm', offset: null }],
});
const failed = (code: string): ScanRecord => ({
  path: `${code}.bad`,
  member: null,
  bytes: 3,
  format: null,
  error: { code, offset: null, path: '', message: 'm' },
});

describe('reportOf / ReportBuilder (library)', () => {
  it('counts every name as format, version, warning and error code, in prototype-less tables', () => {
    const records = [...NAMES.map((n) => ok(n, n, n)), ...NAMES.map((n) => ok('wwd', n, n)), ...NAMES.map(failed)];
    const r = reportOf(records);
    expect(r.files).toBe(15);
    expect(r.bytes).toBe(10 * 10 + 3 * 5);
    expect(Object.keys(r.formats).sort()).toEqual([...NAMES, 'wwd'].sort());
    for (const n of NAMES) {
      expect(Object.hasOwn(r.formats, n)).toBe(true);
      expect(r.formats[n]).toEqual({ files: 1, versions: { [n]: 1 } });
      expect(r.warnings[n]).toBe(2);
      expect(r.errors[n]).toBe(1);
      expect(r.formats.wwd!.versions[n]).toBe(1);
    }
    for (const table of [r.formats, r.errors, r.warnings, r.formats.wwd!.versions]) expect(Object.getPrototypeOf(table)).toBeNull();
    // As JSON (what --report writes) every name is an ordinary key with its count.
    const json = JSON.parse(JSON.stringify(r));
    expect(Object.keys(json.errors)).toEqual([...NAMES].sort());
    expect(Object.getOwnPropertyDescriptor(json.formats, '__proto__')?.value).toEqual({ files: 1, versions: { ['__proto__']: 1 } });
    const table = reportTable(r);
    for (const n of NAMES) expect(table).toContain(`  ${n}`);
    expect(table).toMatch(/^errors\s+5: /m);
    expect(table).toMatch(/^warnings\s+10: /m);
  });
});

describe("the commands' tally", () => {
  it('counts every name as format and error code', () => {
    const t = new Tally();
    for (const n of NAMES) {
      t.decoded(n, 1);
      t.add({ file: `${n}.x`, error: { code: n, offset: null, path: '', message: 'm' } });
    }
    expect(t.failed).toBe(5);
    expect(t.warnings).toBe(5);
    expect([...t.formats.keys()]).toEqual([...NAMES]);
    expect([...t.errors.values()]).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('format code keyed by text from the file', () => {
  it('GWZ: media kinds from member extensions are counted by compareGwz, a member named __proto__ is kept on decode and refused by encode', () => {
    const media = Object.fromEntries(NAMES.map((n, i) => [`m${i}.${n}`, new Uint8Array([1, 2, 3, i])]));
    // fflate's zipSync takes an object, which cannot hold `__proto__`: the zip is written with
    // `__PROTO__` and the name patched in place (same length; names are not in the CRC).
    const zip = zipSync({ 'cartridge.lua': new TextEncoder().encode('-- lua\n'), ...media, __PROTO__: new Uint8Array([9, 9]) });
    const patched = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let at = patched.indexOf('__PROTO__'); at >= 0; at = patched.indexOf('__PROTO__', at)) patched.write('__proto__', at);
    const gwz = gwc.decodeGwz(zip);
    expect(gwz.media.map((m) => m.name).sort()).toEqual([...Object.keys(media), '__proto__'].sort());
    const cartridge = gwc.decodeGwc(readBytes(join(FIXTURES, 'gwc', 'basic.gwc')));
    const cmp = gwc.compareGwz(gwz, cartridge);
    // Kinds are lower-cased extensions; `__proto__` itself has none and its bytes no known signature.
    for (const n of NAMES) expect(Object.hasOwn(cmp.gwzByType, n.toLowerCase()) && cmp.gwzByType[n.toLowerCase()]).toBe(1);
    for (const n of NAMES) expect(cmp.typeDifferences[n.toLowerCase()]).toBe(1);
    expect(cmp.gwzByType.unknown).toBe(1);
    expect(Object.values(cmp.gwzByType).reduce((a, b) => a + b, 0)).toBe(gwz.media.length);
    // The zip writer cannot store `__proto__`: refused, never silently dropped.
    expect(() => gwc.encodeGwz(gwz)).toThrow(EncodeError);
    expect(() => gwc.encodeGwz(gwz)).toThrow(/__proto__/);
    const rest = { ...gwz, media: gwz.media.filter((m) => m.name !== '__proto__') };
    expect(
      gwc
        .decodeGwz(gwc.encodeGwz(rest))
        .media.map((m) => m.name)
        .sort(),
    ).toEqual(Object.keys(media).sort());
  });

  it('Graal: a file starting with the name of an Object.prototype method is no binary level', () => {
    for (const head of ['toString', 'valueOf\0', '__proto__', 'constructor']) {
      const bytes = new Uint8Array(5000);
      bytes.set(new TextEncoder().encode(head));
      expect(detect(bytes), head).toBeUndefined();
      expect(graal.sniff(bytes), head).toBeUndefined();
      expect(() => graal.decode(bytes), head).toThrow(DecodeError);
      expect(
        (() => {
          try {
            graal.decode(bytes);
          } catch (e) {
            return (e as DecodeError).code;
          }
        })(),
        head,
      ).toBe('BAD_MAGIC');
    }
  });
});

describe('the levelkit command (built, dist/cli.mjs)', () => {
  it('a command named like an Object.prototype property is an unknown command (exit 1), not an internal error', async () => {
    for (const n of NAMES) {
      const r = await runBin([n]);
      expect(r.code, n).toBe(1);
      expect(r.stderr, n).toMatch(/unknown command/);
      expect(r.stderr, n).not.toMatch(/internal error/);
    }
  });

  it('convert --to / --version with such names are usage errors naming the option', async () => {
    for (const n of NAMES) {
      const to = await runBin(['convert', join(FIXTURES, 'graal', 'layers.nw'), join(tmp, 'x.graal'), '--to', n]);
      expect(to.code, n).toBe(1);
      expect(to.stderr).toMatch(/--to/);
      const version = await runBin(['convert', join(FIXTURES, 'graal', 'layers.nw'), join(tmp, 'x.graal'), '--version', n]);
      expect(version.code, n).toBe(1);
      expect(version.stderr).toMatch(/--version/);
    }
  });

  it('report: the names as versions are counted; as format, warning or error code the line is refused (or skipped with --lenient), and totals stay right', async () => {
    const line = (r: object) => `${JSON.stringify(r)}\n`;
    const good = NAMES.map((n) => line({ path: `${n}.wwd`, member: null, bytes: 7, format: 'wwd', version: n, summary: {}, warnings: [] })).join('');
    const versionsFile = join(tmp, 'versions.jsonl');
    writeFileSync(versionsFile, good);
    const out = join(tmp, 'versions.json');
    const r = await runBin(['report', versionsFile, '--report', out]);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.files).toBe(5);
    expect(report.bytes).toBe(35);
    expect(Object.keys(report.formats.wwd.versions)).toEqual([...NAMES].sort());
    expect(Object.values(report.formats.wwd.versions)).toEqual([1, 1, 1, 1, 1]);
    expect(r.stdout).toMatch(/__proto__ ×1/);

    const bad = NAMES.flatMap((n) => [
      line({ path: 'f', member: null, bytes: 1, format: n, version: 1, summary: {}, warnings: [] }),
      line({ path: 'w', member: null, bytes: 1, format: 'wwd', version: 1, summary: {}, warnings: [{ code: n, message: '', offset: null }] }),
      line({ path: 'e', member: null, bytes: 1, format: null, error: { code: n, offset: null, path: '', message: '' } }),
    ]);
    const mixed = join(tmp, 'mixed.jsonl');
    writeFileSync(mixed, good + bad.join(''));
    const strict = await runBin(['report', mixed]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/mixed\.jsonl:6: not a scan record: format must be one of/);
    expect(strict.stderr).not.toMatch(/internal error/);
    expect(strict.stdout).toBe('');
    const lenientOut = join(tmp, 'mixed.json');
    const lenient = await runBin(['report', mixed, '--lenient', '--report', lenientOut]);
    expect(lenient.code).toBe(2);
    const merged = JSON.parse(readFileSync(lenientOut, 'utf8'));
    expect(merged.skippedLines).toBe(15);
    expect(merged.files).toBe(5);
    expect(merged.bytes).toBe(35);
    expect(merged.errors).toEqual({});
    expect(merged.warnings).toEqual({});
  });
});
