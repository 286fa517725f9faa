// Issue 18.2: `levelkit report` checks every line against the record shape scan writes. A bad
// line is one error naming file and line (exit 1, nothing written); with --lenient it is skipped
// and counted in the table and the JSON report (exit 2). A total is never silently wrong.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRecord, RecordShapeError } from '../../src/scan/index.js';
import { runBin } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const DIGEST = 'ab'.repeat(32);
const GOOD = { path: 'a.wwd', member: null, bytes: 100, format: 'wwd', version: 1, summary: { gridDigest: DIGEST }, warnings: [], contentDigest: DIGEST };
const FAILED = {
  path: 'b.map',
  member: 'x/y.map',
  bytes: 20,
  format: 'teeworlds',
  contentDigest: DIGEST,
  error: { code: 'TRUNCATED', offset: 4, path: 'items', message: 'm' },
};
const UNKNOWN = { path: 'c.txt', member: null, bytes: 3, format: null };

/** Lines that are not records, each with the field its error must name. */
const BAD: [what: string, line: string, names: RegExp][] = [
  ['bytes 1e400 (infinite)', '{"path":"a","member":null,"bytes":1e400,"format":null}', /bytes.*Infinity/],
  ['negative bytes', '{"path":"a","member":null,"bytes":-5,"format":null}', /bytes.*-5/],
  ['bytes as text', '{"path":"a","member":null,"bytes":"abc","format":null}', /bytes.*"abc"/],
  ['bytes as a numeric string', '{"path":"a","member":null,"bytes":"12","format":null}', /bytes.*"12"/],
  ['fractional bytes', '{"path":"a","member":null,"bytes":1.5,"format":null}', /bytes/],
  ['bytes past 2^53', '{"path":"a","member":null,"bytes":9007199254740993,"format":null}', /bytes/],
  ['no bytes', '{"path":"a","member":null,"format":null}', /bytes.*nothing/],
  ['unknown format', '{"path":"a","member":null,"bytes":1,"format":"zip","version":1,"summary":{},"warnings":[]}', /format must be one of/],
  ['path missing', '{"member":null,"bytes":1,"format":null}', /path must be text/],
  ['member a number', '{"path":"a","member":5,"bytes":1,"format":null}', /member must be text/],
  ['error code not a code', '{"path":"a","member":null,"bytes":1,"format":null,"error":{"code":"oops!","offset":null,"path":"","message":""}}', /error\.code/],
  ['error offset negative', '{"path":"a","member":null,"bytes":1,"format":null,"error":{"code":"IO","offset":-1,"path":"","message":""}}', /error\.offset/],
  [
    'warning offset as text',
    '{"path":"a","member":null,"bytes":1,"format":"wwd","version":1,"summary":{},"warnings":[{"code":"X","message":"","offset":"3"}]}',
    /warnings\[0\]\.offset/,
  ],
  ['warnings not a list', '{"path":"a","member":null,"bytes":1,"format":"wwd","version":1,"summary":{},"warnings":{}}', /warnings must be a list/],
  ['version an object', '{"path":"a","member":null,"bytes":1,"format":"wwd","version":{},"summary":{},"warnings":[]}', /version/],
  ['version with control characters', '{"path":"a","member":null,"bytes":1,"format":"wwd","version":"\\u001b[2J","summary":{},"warnings":[]}', /version/],
  ['summary missing', '{"path":"a","member":null,"bytes":1,"format":"wwd","version":1,"warnings":[]}', /summary must be a JSON object/],
  ['gridDigest not hex', '{"path":"a","member":null,"bytes":1,"format":"wwd","version":1,"summary":{"gridDigest":5},"warnings":[]}', /gridDigest/],
  ['contentDigest not hex', '{"path":"a","member":null,"bytes":1,"format":null,"contentDigest":"xyz"}', /contentDigest/],
  ['a field scan does not write', '{"path":"a","member":null,"bytes":1,"format":null,"files":5}', /unknown field "files"/],
  ['a JSON array', '[1,2]', /must be a JSON object/],
  ['a JSON number', '42', /must be a JSON object/],
  ['not JSON', '{"path": oops', /not a JSON line/],
];

const lines = (...records: (object | string)[]) => `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;

describe('levelkit report (built, dist/cli.mjs): bad lines', () => {
  it('real records of every kind pass, and add up', async () => {
    const file = join(tmp, 'good.jsonl');
    writeFileSync(file, lines(GOOD, FAILED, UNKNOWN));
    const out = join(tmp, 'good.json');
    const r = await runBin(['report', file, '--report', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report).toMatchObject({ files: 3, bytes: 123, unknown: 1, errors: { TRUNCATED: 1 }, formats: { wwd: { files: 1, versions: { '1': 1 } } } });
    expect(report.skippedLines).toBeUndefined();
  });

  it.each(BAD)('%s: exit 1, one line naming file, line and field; nothing written', async (_what, bad, names) => {
    const file = join(tmp, 'bad.jsonl');
    writeFileSync(file, lines(GOOD, bad, GOOD));
    const out = join(tmp, `bad-${Math.random().toString(36).slice(2)}.json`);
    const r = await runBin(['report', file, '--report', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    const errLines = r.stderr.trimEnd().split('\n');
    expect(errLines).toHaveLength(1);
    expect(errLines[0]).toMatch(/^levelkit report: .*bad\.jsonl:2: /);
    expect(errLines[0]).toMatch(names);
    expect(errLines[0]).not.toMatch(/internal error|NaN/);
  });

  it('--lenient skips every bad line, counts them in the table and the JSON report, keeps the totals exact, exit 2', async () => {
    const file = join(tmp, 'mixed.jsonl');
    writeFileSync(file, lines(GOOD, ...BAD.map(([, l]) => l), FAILED, '', UNKNOWN));
    const out = join(tmp, 'mixed.json');
    const r = await runBin(['report', file, '--lenient', '--report', out]);
    expect(r.code).toBe(2);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.skippedLines).toBe(BAD.length);
    expect(report.files).toBe(3);
    expect(report.bytes).toBe(123);
    expect(r.stdout).toMatch(new RegExp(`^skipped lines\\s+${BAD.length} `, 'm'));
    expect(r.stdout).toMatch(/^files\s+3 /m);
    // The first 20 are named one by one, then the count of the rest.
    expect(r.stderr).toMatch(/mixed\.jsonl:2: not a scan record: bytes/);
    expect(r.stderr).toMatch(new RegExp(`skipped ${BAD.length} lines in all`));
  });

  it('--lenient with nothing to skip says 0 in the report', async () => {
    const file = join(tmp, 'clean.jsonl');
    writeFileSync(file, lines(GOOD));
    const out = join(tmp, 'clean.json');
    const r = await runBin(['report', file, '--lenient', '--report', out]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).skippedLines).toBe(0);
  });

  it('a total that would pass 2^53−1 is refused at the line that would overflow it', async () => {
    const file = join(tmp, 'huge.jsonl');
    const big = { ...UNKNOWN, bytes: Number.MAX_SAFE_INTEGER - 10 };
    writeFileSync(file, lines(big, UNKNOWN, { ...UNKNOWN, bytes: 100 }));
    const r = await runBin(['report', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/huge\.jsonl:3: .*total of bytes/);
    const lenient = await runBin(['report', file, '--lenient']);
    expect(lenient.code).toBe(2);
    expect(lenient.stdout).toMatch(/^files\s+2 /m);
  });

  it('a line longer than 64 MiB is refused without reading it whole into a string', async () => {
    const file = join(tmp, 'long.jsonl');
    writeFileSync(file, Buffer.alloc(65 << 20, 0x20));
    const r = await runBin(['report', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/long\.jsonl:1: line longer than/);
  });
});

describe('checkRecord (library)', () => {
  it('returns the records scan writes and throws RecordShapeError for the bad ones', () => {
    for (const rec of [GOOD, FAILED, UNKNOWN]) expect(checkRecord(JSON.parse(JSON.stringify(rec)))).toEqual(rec);
    for (const [what, line] of BAD.filter(([w]) => w !== 'not JSON')) expect(() => checkRecord(JSON.parse(line)), what).toThrow(RecordShapeError);
  });
});
