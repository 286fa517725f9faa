// `levelkit report` names the files behind its counts (issue 28): `--list errors|warnings|duplicates`
// one line per file, the table a few files per code, and `--csv` every record as one flat CSV.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvField } from '../src/cli/records-csv.js';
import { cli } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-report-list-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const D = (c: string) => c.repeat(64);
const ok = (path: string, member: string | null, extra: object = {}) => ({
  path,
  member,
  bytes: 10,
  format: 'wwd',
  version: 1,
  summary: { name: 'Level', planes: 2, gridDigest: D('a') },
  warnings: [],
  contentDigest: D('1'),
  ...extra,
});
const failed = (path: string, member: string | null, code: string) => ({
  path,
  member,
  bytes: 5,
  format: 'teeworlds',
  contentDigest: D('2'),
  error: { code, offset: 4, path: 'items', message: `${code.toLowerCase()} here` },
});

const RECORDS = [
  failed('e/5.map', null, 'TRUNCATED'),
  ok('w/1.wwd', null, {
    warnings: [
      { code: 'TRAILING_BYTES', message: 'two bytes after the end', offset: 31 },
      { code: 'TRAILING_BYTES', message: 'again', offset: null },
    ],
    contentDigest: D('3'),
    summary: { name: 'Other', planes: 1, gridDigest: D('b') },
  }),
  failed('e/4.map', null, 'TRUNCATED'),
  failed('dump.zip', 'in/3.map', 'TRUNCATED'),
  failed('e/1.map', null, 'TRUNCATED'),
  ok('d/a.wwd', null),
  failed('e/2.map', null, 'BAD_MAGIC'),
  ok('d/b.wwd', null),
  { path: 'x.txt', member: null, bytes: 3, format: null },
];

function shard(name: string, records: object[]): string {
  const file = join(tmp, name);
  writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return file;
}

describe('report --list', () => {
  const file = shard('records.jsonl', RECORDS);

  it('errors: one line per failed file (path, member, code, message) on stdout; the table on stderr', () => {
    const r = cli('report', file, '--list', 'errors');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        'e/5.map: TRUNCATED: truncated here',
        'e/4.map: TRUNCATED: truncated here',
        'dump.zip!/in/3.map: TRUNCATED: truncated here',
        'e/1.map: TRUNCATED: truncated here',
        'e/2.map: BAD_MAGIC: bad_magic here',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toMatch(/^errors +5: BAD_MAGIC 1, TRUNCATED 4$/m);
  });

  it('warnings: one line per warning', () => {
    const r = cli('report', file, '--list', 'warnings');
    expect(r.stdout).toBe('w/1.wwd: TRAILING_BYTES at 0x1f: two bytes after the end\nw/1.wwd: TRAILING_BYTES: again\n');
  });

  it('duplicates: each group of files with the same bytes, then with the same main grid', () => {
    const r = cli('report', file, '--list', 'duplicates');
    expect(r.stdout).toBe(
      [
        `same bytes (sha256 ${D('2').slice(0, 12)}…): 5 files`,
        '  e/5.map',
        '  e/4.map',
        '  dump.zip!/in/3.map',
        '  e/1.map',
        '  e/2.map',
        `same bytes (sha256 ${D('1').slice(0, 12)}…): 2 files`,
        '  d/a.wwd',
        '  d/b.wwd',
        `same main grid (sha256 ${D('a').slice(0, 12)}…): 2 files`,
        '  d/a.wwd',
        '  d/b.wwd',
        '',
      ].join('\n'),
    );
  });

  it('anything else is a usage error naming what it takes', () => {
    const r = cli('report', file, '--list', 'failures');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--list must be errors, warnings, duplicates');
    expect(cli('report', file, '--list', 'errors', '--csv').status).toBe(1);
  });
});

describe('the table names the first files per code', () => {
  it('the first three by name, whatever the order of the records, and how many files in all', () => {
    const forwards = cli('report', shard('a.jsonl', RECORDS));
    const backwards = cli('report', shard('b.jsonl', [...RECORDS].reverse()));
    expect(forwards.status).toBe(0);
    expect(forwards.stdout).toMatch(/^ {2}TRUNCATED +dump\.zip!\/in\/3\.map, e\/1\.map, e\/4\.map, … \(4 files\)$/m);
    expect(forwards.stdout).toMatch(/^ {2}BAD_MAGIC +e\/2\.map$/m);
    // Warnings count occurrences; the row counts files.
    expect(forwards.stdout).toMatch(/^warnings +2: TRAILING_BYTES 2\n {2}TRAILING_BYTES +w\/1\.wwd$/m);
    expect(backwards.stdout).toBe(forwards.stdout);
  });
});

/** RFC 4180 fields of a CSV text (quoted fields may hold commas, doubled quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('report --csv', () => {
  // The fixed columns, pinned: a program reading the CSV relies on them.
  const FIXED = 'path member bytes format version error_code error_offset error_path error_message warning_count warning_codes content_digest';

  it('the fixed columns are the documented ones', () => {
    expect(CSV_COLUMNS.join(' ')).toBe(FIXED);
  });

  it('one row per record: fixed columns, then every summary field by dotted name, in name order', () => {
    const nested = ok('t.map', null, { format: 'teeworlds', version: 4, summary: { gameLayer: { width: 9, height: 7 }, layers: 3, mod: null } });
    const file = shard('csv.jsonl', [...RECORDS, nested]);
    const r = cli('report', file, '--csv');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^files +10 /m);
    const [header, ...rows] = parseCsv(r.stdout);
    expect(header).toEqual([
      ...FIXED.split(' '),
      'summary.gameLayer.height',
      'summary.gameLayer.width',
      'summary.gridDigest',
      'summary.layers',
      'summary.mod',
      'summary.name',
      'summary.planes',
    ]);
    expect(rows).toHaveLength(RECORDS.length + 1);
    const byPath = (p: string, m = '') => Object.fromEntries(header!.map((h, i) => [h, rows.find((x) => x[0] === p && x[1] === m)![i]]));
    expect(byPath('dump.zip', 'in/3.map')).toMatchObject({
      bytes: '5',
      format: 'teeworlds',
      error_code: 'TRUNCATED',
      error_offset: '4',
      error_message: 'truncated here',
      'summary.name': '',
    });
    expect(byPath('w/1.wwd')).toMatchObject({ warning_count: '2', warning_codes: 'TRAILING_BYTES', 'summary.name': 'Other', 'summary.planes': '1' });
    expect(byPath('t.map')).toMatchObject({ 'summary.gameLayer.width': '9', 'summary.gameLayer.height': '7', 'summary.mod': '' });
    expect(byPath('x.txt')).toMatchObject({ format: '', warning_count: '' });
  });

  it('the columns do not depend on the order of the records', () => {
    const a = parseCsv(cli('report', shard('c1.jsonl', RECORDS), '--csv').stdout);
    const b = parseCsv(cli('report', shard('c2.jsonl', [...RECORDS].reverse()), '--csv').stdout);
    expect(b[0]).toEqual(a[0]);
    expect(new Set(b.slice(1).map((r) => r.join('\u0000')))).toEqual(new Set(a.slice(1).map((r) => r.join('\u0000'))));
  });

  it('fields are quoted as RFC 4180 says, formulas are defused, control characters escaped', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-1+2')).toBe("'-1+2");
    expect(csvField('line\nbreak\u009b')).toBe('line\\x0abreak\\u009b');
    expect(csvField(null)).toBe('');
    expect(csvField(12)).toBe('12');
    const r = cli('report', shard('quotes.jsonl', [ok('dir, "odd".wwd', null)]), '--csv');
    expect(parseCsv(r.stdout)[1]![0]).toBe('dir, "odd".wwd');
  });
});
