// Where commands write (issue 28): every output is decided before the first is created, a link
// at an output is never followed to create its target without --force, two outputs never share
// a file, a file saved at --report while a scan runs is kept, and `-` is standard output.
// Through the built binary (dist/cli.mjs) in a temporary folder, as a user runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, bin, binChild, completion, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const root = mkdtempSync(join(tmpdir(), 'levelkit-outputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const GRAAL = join(FIXTURES, 'graal', 'gr-v103.graal');
const GRAALS = join(FIXTURES, 'graal');
let n = 0;
/** A fresh, empty working folder. */
const fresh = () => {
  const dir = join(root, `case${n++}`);
  mkdirSync(dir);
  return dir;
};

describe('scan --out / --report', () => {
  it('a dangling link at --report is refused without --force, and its target is not created', () => {
    const dir = fresh();
    symlinkSync('target.json', join(dir, 'report.json'));
    const r = bin(dir, 'scan', GRAAL, '--out', 'records.jsonl', '--report', 'report.json', '--quiet');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^levelkit scan: report\.json exists \(--force overwrites it\)\n/);
    expect(readdirSync(dir).sort()).toEqual(['report.json']);
    // With --force the link itself is replaced by the report; nothing is created where it pointed.
    expect(bin(dir, 'scan', GRAAL, '--out', 'records.jsonl', '--report', 'report.json', '--quiet', '--force').status).toBe(0);
    expect(lstatSync(join(dir, 'report.json')).isFile()).toBe(true);
    expect(existsSync(join(dir, 'target.json'))).toBe(false);
  });

  it.each([
    ['the same name', 'same.json', 'same.json'],
    ['another spelling', 'same.json', 'sub/../same.json'],
    ['a link to the --report path (dangling)', 'link.json', 'same.json'],
  ])('--out and --report naming one file (%s): usage error, exit 1, nothing created', (_how, out, report) => {
    const dir = fresh();
    mkdirSync(join(dir, 'sub'));
    symlinkSync('same.json', join(dir, 'link.json'));
    const r = bin(dir, 'scan', GRAALS, '--out', out, '--report', report, '--quiet', '--force');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^levelkit scan: --out and --report would both write .*same\.json; give each its own file\n/);
    expect(readdirSync(dir).sort()).toEqual(['link.json', 'sub']);
  });

  it('--out and --report: a link and the file it names, both existing, are one file too', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'old.json'), 'old');
    symlinkSync('old.json', join(dir, 'link.json'));
    const r = bin(dir, 'scan', GRAALS, '--out', 'link.json', '--report', 'old.json', '--quiet', '--force');
    expect(r.status).toBe(1);
    expect(readFileSync(join(dir, 'old.json'), 'utf8')).toBe('old');
  });

  it('a refused run (an existing --report, a bad option) leaves no empty --out behind', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'report.json'), 'mine');
    expect(bin(dir, 'scan', GRAAL, '--out', 'records.jsonl', '--report', 'report.json').status).toBe(1);
    expect(bin(dir, 'scan', GRAAL, '--out', 'records.jsonl', '--encoding', 'no-such-code-page').status).toBe(1);
    expect(readdirSync(dir)).toEqual(['report.json']);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('mine');
  });

  it('a file saved at the --report path while the scan runs is kept; the scan says so and exits 2', async () => {
    const dir = fresh();
    // Enough records (long names) that the scan cannot finish while its stdout is not read: the
    // pipe and the buffers on both sides hold far less, so the file is saved mid-scan.
    mkdirSync(join(dir, 'in'));
    for (let i = 0; i < 1500; i++) writeFileSync(join(dir, 'in', `${String(i).padStart(4, '0')}-${'x'.repeat(150)}.wwd`), 'junk');
    const child = binChild(['scan', 'in', '--workers', '1', '--report', 'report.json', '--quiet'], { cwd: dir });
    const done = completion(child, 'scan', 60_000);
    await new Promise<void>((resolve) =>
      child.stdout.once('data', () => {
        child.stdout.pause();
        resolve();
      }),
    );
    writeFileSync(join(dir, 'report.json'), 'saved meanwhile');
    child.stdout.resume();
    const r = await done;
    expect(r.stderr).toMatch(/^levelkit scan: --report: OUTPUT_EXISTS: report\.json appeared during the scan; it was kept\n/);
    expect(r.code).toBe(2);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('saved meanwhile');
    expect(jsonLines(r.stdout)).toHaveLength(1500);
  });
});

describe('`-` is standard output', () => {
  it('scan --out - writes the records to stdout; --report - the summary (with --out a file); no file named -', () => {
    const dir = fresh();
    const records = bin(dir, 'scan', GRAALS, '--out', '-', '--quiet');
    expect(jsonLines(records.stdout).length).toBeGreaterThan(5);
    const report = bin(dir, 'scan', GRAALS, '--out', 'records.jsonl', '--report', '-', '--quiet');
    expect(JSON.parse(report.stdout).files).toBe(jsonLines(readFileSync(join(dir, 'records.jsonl'), 'utf8')).length);
    expect(readdirSync(dir)).toEqual(['records.jsonl']);
    // The records already go to stdout: the report cannot go there too.
    const both = bin(dir, 'scan', GRAALS, '--report', '-');
    expect(both.status).toBe(1);
    expect(both.stderr).toMatch(/^levelkit scan: the records and --report would both write standard output/);
  });

  it('report --report - writes the merged summary as JSON to stdout, the table to stderr', () => {
    const dir = fresh();
    bin(dir, 'scan', GRAALS, '--out', 'records.jsonl', '--quiet');
    const r = bin(dir, 'report', 'records.jsonl', '--report', '-');
    expect(JSON.parse(r.stdout).files).toBeGreaterThan(5);
    expect(r.stderr).toMatch(/^files\s+\d+/m);
    expect(readdirSync(dir)).toEqual(['records.jsonl']);
  });

  it('render one level -o - writes the PNG to stdout (what was drawn on stderr); a folder, or with --json, is refused', () => {
    const dir = fresh();
    const r = spawnBytes(dir, 'render', GRAAL, '-o', '-');
    expect(r.status).toBe(0);
    expect([...r.stdout.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(r.stderr.toString()).toMatch(/gr-v103\.graal: 1024×1024 px .* → standard output\n/);
    const folder = bin(dir, 'render', GRAALS, '-o', '-');
    expect(folder.status).toBe(1);
    expect(folder.stderr).toMatch(/-o - writes one PNG to standard output, so render needs exactly one level file/);
    expect(bin(dir, 'render', GRAAL, '-o', '-', '--json').status).toBe(1);
    expect(bin(dir, 'extract', GRAAL, '-o', '-').status).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('convert one level to - writes it to stdout; a folder to - is refused', () => {
    const dir = fresh();
    const r = bin(dir, 'convert', GRAAL, '-', '--to', 'nw');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^GLEVNW01\n/);
    expect(r.stderr).toMatch(/gr-v103\.graal → standard output\n/);
    expect(bin(dir, 'convert', GRAALS, '-', '--to', 'nw').status).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('render -o / --sheet', () => {
  it('-o x.png and --sheet x.png (or through a link): usage error, nothing written', () => {
    const dir = fresh();
    symlinkSync('x.png', join(dir, 'link.png'));
    for (const sheet of ['x.png', 'link.png']) {
      const r = bin(dir, 'render', GRAAL, '-o', 'x.png', '--sheet', sheet, '--force');
      expect(r.status, sheet).toBe(1);
    }
    expect(readdirSync(dir)).toEqual(['link.png']);
  });

  it('an existing --sheet is refused before anything is drawn: no -o file is written either', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'sheet.png'), 'mine');
    const r = bin(dir, 'render', GRAAL, '-o', 'x.png', '--sheet', 'sheet.png');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--sheet: OUTPUT_EXISTS: sheet\.png already exists \(--force overwrites\); nothing was written/);
    expect(readdirSync(dir)).toEqual(['sheet.png']);
  });
});

/** Runs the built command with stdout as bytes (a PNG). */
function spawnBytes(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, timeout: 30_000 });
}
