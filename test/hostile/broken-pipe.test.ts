// A reader that leaves early (`levelkit info --json dir | head -1`) stops every command at the
// first EPIPE, quietly, with exit 0 (issue 28): before, info decoded the whole tree and render
// wrote every PNG after the pipe had closed. The check is by counts, not time: each file leaves
// a trace (a line on stderr, a PNG in the folder), and a command that stops can only have got
// as far as the pipe and the buffers on both sides hold — far fewer files than the folder has.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binChild, completion } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const root = mkdtempSync(join(tmpdir(), 'levelkit-pipe-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** Long names: every line a command prints is a few hundred bytes, so the pipe holds few of them. */
const name = (i: number, ext: string) => `${String(i).padStart(4, '0')}-${'x'.repeat(200)}${ext}`;

/** Runs the built `levelkit …args` in `cwd`, closing its stdout after the first bytes, as `head -c1` would. */
async function closedEarly(cwd: string, ...args: string[]) {
  const child = binChild(args, { cwd });
  const done = completion(child, `levelkit ${args.join(' ')}`, 120_000);
  child.stdout.once('data', () => child.stdout.destroy());
  return done;
}

describe('stdout closed early', () => {
  // Files named like levels that are not: each is one record (and one stderr line) at once.
  const FILES = 3000;
  mkdirSync(join(root, 'junk'));
  for (let i = 0; i < FILES; i++) writeFileSync(join(root, 'junk', name(i, '.wwd')), 'junk');

  it('info --json dir: stops after a few files (one stderr line each), no tally, exit 0', async () => {
    const r = await closedEarly(root, 'info', '--json', 'junk');
    const handled = r.stderr.split('\n').filter((l) => l.includes('UNKNOWN_FORMAT')).length;
    expect(handled).toBeGreaterThan(0);
    // ~80 KB of pipe and buffers hold ~200 of these 400-byte records: far from all of them.
    expect(handled).toBeLessThan(FILES / 4);
    expect(r.stderr).not.toMatch(/decoded|EPIPE|Error/);
    expect(r.code).toBe(0);
  });

  it('render dir -o out: stops writing PNGs', async () => {
    const LEVELS = 600;
    const dir = join(root, 'levels');
    mkdirSync(dir);
    for (let i = 0; i < LEVELS; i++) copyFileSync(join(FIXTURES, 'teeworlds', 'opaque-layers.map'), join(dir, name(i, '.map')));
    const r = await closedEarly(root, 'render', 'levels', '-o', 'out');
    const written = readdirSync(join(root, 'out')).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(LEVELS / 2);
    expect(r.stderr).not.toMatch(/written|EPIPE|Error/);
    expect(r.code).toBe(0);
  });

  it('scan dir (records on stdout): stops quietly, exit 0, no summary', async () => {
    const r = await closedEarly(root, 'scan', 'junk', '--workers', '1');
    // No summary table (its first line is `levelkit scan`); progress lines may come, they start `scan:`.
    expect(r.stderr).not.toMatch(/^levelkit scan|EPIPE|Error/m);
    expect(r.code).toBe(0);
  });
});
