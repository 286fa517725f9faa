// Summaries are bounded whatever the file holds: a cartridge whose name is 12 MB gives a short
// record with a SUMMARY_TRUNCATED warning (it gave a 72 MB line `report` refused, and at 100 MB
// crashed `info`), every format's summarize() goes through the one bound, and the bound itself
// cuts visibly, keeps the summary's shape and never touches what it was given.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_PART, WarningSink } from '../../src/core/errors.js';
import { boundSummary, MAX_SUMMARY_STRING } from '../../src/formats/define.js';
import type { GwcCartridge, GwzArchive } from '../../src/formats/gwc/index.js';
import type { TeeworldsMap } from '../../src/formats/teeworlds/index.js';
import type { WdataLevel } from '../../src/formats/wdata/index.js';
import type { WwdLevel } from '../../src/formats/wwd/index.js';
import { DecodeError, decode, gwc, summarize, textFrom } from '../../src/index.js';
import { summaryRecord } from '../../src/scan/record.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const fixture = (path: string) => decode(readBytes(join(FIXTURES, path)));
const long = 'x'.repeat(MAX_SUMMARY_STRING * 3);

describe('summary bounds', () => {
  it('a cartridge with a 12 MB name gives a small record that says the name was cut', () => {
    const cart = fixture('gwc/basic.gwc') as GwcCartridge;
    // Control characters: JSON writes each as six, which is how 12 MB became a 72 MB line.
    cart.header.name = textFrom('\x01'.repeat(12_000_000), cart.header.name.encoding);
    const record = summaryRecord(Buffer.from('huge-name.gwc'), gwc.encode(cart), {});
    if (!('summary' in record)) throw new Error(`expected a summary, got ${JSON.stringify(record)}`);
    const name = (record.summary as { name: string }).name;
    expect(name.length).toBeLessThanOrEqual(MAX_SUMMARY_STRING);
    expect(name.endsWith('…')).toBe(true);
    expect(record.warnings).toContainEqual(expect.objectContaining({ code: 'SUMMARY_TRUNCATED', message: expect.stringContaining('summary.name') }));
    expect(JSON.stringify(record).length).toBeLessThan(64 * 1024);
  });

  // One long text per format, set in a decoded value: each summarize() must cut it.
  const cases: [string, string | string[], (v: never) => void, (s: Record<string, unknown>) => unknown][] = [
    ['wwd/claw-uncompressed.wwd', 'summary.name', (v: WwdLevel) => (v.header.name = textFrom(long, 'latin1')), (s) => s.name],
    [
      'teeworlds/ddnet-all-items.map',
      'summary.info.author',
      (v: TeeworldsMap) => (v.info!.author = textFrom(long, 'utf-8')),
      (s) => (s.info as { author: string }).author,
    ],
    ['graal/gr-v103.graal', ['version', 'summary.header'], (v: { version: string }) => (v.version = long), (s) => s.header],
    ['gwc/basic.gwc', 'summary.author', (v: GwcCartridge) => (v.header.author = textFrom(long, 'latin1')), (s) => s.author],
    ['gwc/sample.gwz', 'summary.luaFile', (v: GwzArchive) => (v.luaFile = long), (s) => s.luaFile],
    ['wdata/main-v01.wdata', 'summary.modelPath', (v: WdataLevel) => (v.modelPath = { ...v.modelPath, text: long }), (s) => s.modelPath],
  ];
  it.each(cases)('%s: summarize() cuts %s', (file, path, lengthen, field) => {
    const value = fixture(file);
    lengthen(value as never);
    const s = summarize(value);
    expect(s.warnings?.map((w) => w.path)).toEqual([path].flat());
    for (const cut of [field(s.summary as unknown as Record<string, unknown>), s.version].filter((x) => typeof x === 'string' && x.length > 100)) {
      expect((cut as string).length).toBeLessThanOrEqual(MAX_SUMMARY_STRING);
      expect((cut as string).endsWith('…')).toBe(true);
    }
  });

  it('an untouched summary is returned as it is, without warnings', () => {
    const s = summarize(fixture('gwc/basic.gwc'));
    expect(s.warnings).toBeUndefined();
  });

  it('cuts strings and lists to the budget, keeps fixed fields, copies cut dictionaries with no prototype', () => {
    const counts = Object.assign(Object.create(null) as Record<string, number>, { aaaa: 1, bbbb: 2, cccc: 3 });
    const summary = { title: 'abcdefghij', settings: ['s1', 's2', 's3', 's4', 's5', 's6'], counts, tail: 'zz', n: 7 };
    const value = { version: 1, summary };
    const before = structuredClone({ ...value, summary: { ...summary, counts: { ...counts } } });
    const out = boundSummary(value, { maxString: 6, maxUnits: 20 });
    expect(out.summary.title).toBe('abcde…');
    // 20 units: title 6, key lengths and values after it; the list and the dictionary lose their rest.
    expect(out.summary.settings.length).toBeLessThan(6);
    expect(Object.getPrototypeOf(out.summary.counts)).toBeNull();
    expect(Object.keys(out.summary)).toEqual(['title', 'settings', 'counts', 'tail', 'n']);
    expect(out.summary.n).toBe(7);
    expect(out.warnings!.map((w) => w.path)).toEqual(expect.arrayContaining(['summary.title', 'summary.settings']));
    for (const w of out.warnings!) expect(w.code).toBe('SUMMARY_TRUNCATED');
    // The caller's value is untouched.
    expect({ ...value, summary: { ...summary, counts: { ...counts } } }).toEqual(before);
  });

  it('never splits a surrogate pair', () => {
    const out = boundSummary({ version: 0, summary: { s: `abcd${'😀'.repeat(10)}` } }, { maxString: 6 });
    expect(out.summary.s).toBe('abcd…');
    const out2 = boundSummary({ version: 0, summary: { s: `ab${'😀'.repeat(10)}` } }, { maxString: 6 });
    expect(out2.summary.s).toBe('ab😀…');
  });

  it('errors and warnings quote at most MAX_MESSAGE_PART of what they found', () => {
    const e = new DecodeError('graal-nw', 'CORRUPT', { path: long, actual: long, detail: long });
    expect(e.message.length).toBeLessThan(4 * MAX_MESSAGE_PART);
    expect(e.path.length).toBeLessThanOrEqual(MAX_MESSAGE_PART);
    const sink = new WarningSink('graal-nw', false);
    sink.warn('BAD_HEIGHTS', `heights line ${long} ignored`, 0, long);
    expect(sink.list[0]!.message.length).toBeLessThanOrEqual(MAX_MESSAGE_PART);
    expect(sink.list[0]!.message.endsWith('…')).toBe(true);
    expect(sink.list[0]!.path!.length).toBeLessThanOrEqual(MAX_MESSAGE_PART);
  });
});
