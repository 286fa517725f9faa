// Text from files (names, level text, record files) never reaches a terminal raw: besides the C0
// controls, C1 controls (U+009B is CSI to many terminals, U+009D OSC) and bidi overrides and
// isolates (a name that shows as another name) are escaped on every surface: readable text as
// `\uNNNN`, JSON lines as JSON's own `\uNNNN` escape, which reads back as the same character.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { teeworlds, textFrom } from '../../src/index.js';
import { printable } from '../../src/scan/names.js';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

/** CSI as one C1 character, NEL, a right-to-left override and a first-strong isolate. */
const HOSTILE = '\u009b31m\u0085\u202e\u2068';
/** Any character a terminal acts on: C0 (but the line feeds and tabs output is made of), DEL, C1, separators, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding these is the test
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-terminal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** ddnet-all-items.map with the hostile text as its author, saved under a hostile name. */
function hostileMap(dir: string): string {
  const map = teeworlds.decode(readFileSync(join(FIXTURES, 'teeworlds', 'ddnet-all-items.map')));
  map.info!.author = textFrom(`mapper${HOSTILE}`, 'utf-8');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `level${HOSTILE}.map`);
  writeFileSync(path, teeworlds.encode(map));
  return path;
}

describe('terminal escapes', () => {
  const dir = join(tmp, 'maps');
  const path = hostileMap(dir);
  const broken = join(dir, `broken${HOSTILE}.map`);
  writeFileSync(broken, 'not a map at all, but named like one');

  it('printable escapes C1 controls and bidi controls as \\uNNNN, C0 as \\xNN', () => {
    expect(printable(`a${HOSTILE}\x1b`)).toBe('a\\u009b31m\\u0085\\u202e\\u2068\\x1b');
    expect(printable('Château – ok')).toBe('Château – ok');
  });

  it('info: the name and the level text are escaped', () => {
    const r = cli('info', path);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('level\\u009b31m\\u0085\\u202e\\u2068.map');
    expect(r.stdout).toContain('author mapper\\u009b31m');
  });

  it('info --json: escaped as JSON escapes, which read back as the text itself', () => {
    const r = cli('info', '--json', path);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    const [rec] = jsonLines(r.stdout);
    expect(rec!.file).toBe(path);
    expect(rec!.summary.info.author).toBe(`mapper${HOSTILE}`);
  });

  it('the error line of a failed file escapes its name', () => {
    const r = cli('info', broken);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain('broken\\u009b31m');
  });

  it('a usage error quoting an argument escapes it', () => {
    const r = cli('report', join(tmp, `missing${HOSTILE}.jsonl`));
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain('missing\\u009b31m');
  });

  it('render: the text line and --json', () => {
    const text = cli('render', path, '-o', join(tmp, 'png'));
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('level\\u009b31m');
    expect(text.stdout + text.stderr).not.toMatch(RAW);
    const json = cli('render', '--json', path, '-o', join(tmp, 'png-json'));
    expect(json.status).toBe(0);
    expect(json.stdout).not.toMatch(RAW);
    expect(jsonLines(json.stdout)[0]!.file).toBe(path);
  });

  it('scan: JSON lines and --report escape; the records read back unchanged', () => {
    const report = join(tmp, 'scan-report.json');
    const r = cli('scan', dir, '--workers', '1', '--report', report);
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr + readFileSync(report, 'utf8')).not.toMatch(RAW);
    const records = jsonLines(r.stdout).sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(records.map((x) => x.path)).toEqual([broken, path]);
    expect(records[1]!.summary.info.author).toBe(`mapper${HOSTILE}`);
  });

  const failedRecord = {
    path: `x${HOSTILE}.map`,
    member: `in${HOSTILE}`,
    bytes: 3,
    format: null,
    error: { code: 'TRUNCATED', offset: null, path: '', message: `m${HOSTILE}` },
  };

  it('report: a record file holding such text is escaped in the listing and the table', () => {
    const shard = join(tmp, 'shard.jsonl');
    writeFileSync(shard, `${JSON.stringify(failedRecord)}\n`);
    const list = cli('report', shard, '--list', 'errors');
    expect(list.status).toBe(0);
    expect(list.stdout + list.stderr).not.toMatch(RAW);
    expect(list.stdout).toBe('x\\u009b31m\\u0085\\u202e\\u2068.map!/in\\u009b31m\\u0085\\u202e\\u2068: TRUNCATED: m\\u009b31m\\u0085\\u202e\\u2068\n');
    const table = cli('report', shard);
    expect(table.stdout).not.toMatch(RAW);
    expect(table.stdout).toMatch(/^ {2}TRUNCATED +x\\u009b31m/m);
  });

  it('report: the error line for a bad line of a record file escapes what it quotes', () => {
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify({ ...failedRecord, [`field${HOSTILE}`]: 1 })}\n`);
    const b = cli('report', bad);
    expect(b.status).toBe(1);
    expect(b.stderr).toContain('unknown field "field\\u009b31m');
    expect(b.stderr).not.toMatch(RAW);
  });
});
