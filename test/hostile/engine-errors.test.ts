// Our errors, never the engine's (issue 18, item 8): sizes a command will allocate are checked
// first (render's scale, the contact sheet, the JSON extract writes, timers), a failed write is
// an IO line naming the path and the system's reason, and no message shows NaN.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../src/core/json.js';
import { DecodeError, EncodeError, MAX_PREVIEW_PIXELS, render, wwd } from '../../src/index.js';
import { type ScanRecord, scan } from '../../src/scan/index.js';
import { bin, jsonLines } from '../helpers/cli.js';
import { FIXTURES, listFiles } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-engine-'));
const GRAAL = join(FIXTURES, 'graal', 'gr-v103.graal');

/** A WWD level whose main plane is `side` × `side` tiles. */
function bigLevel(side: number) {
  return wwd.newLevel({ name: 'big', planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: side, tilesHigh: side })] });
}

describe('render sizes are checked before allocating', () => {
  const level = bigLevel(2048);

  it('render(level, { scale: 16 }) on a 2048² grid: a RangeError naming scale and the scale that fits, not the engine’s', () => {
    let e: unknown;
    try {
      render(level, { scale: 16 });
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(RangeError);
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect((e as Error).message).toBe(
      `levelkit: render: scale 16 would draw 32768 × 32768 px, over the ${MAX_PREVIEW_PIXELS} pixels a preview may have; for this 2048 × 2048-tile grid use scale ≤ 4`,
    );
  });

  it('without scale the same grid draws within maxSide; maxSide itself is validated', () => {
    const p = render(level);
    expect([p.width, p.height]).toEqual([2048, 2048]);
    for (const bad of [0, -1, 1.5, Number.NaN, 1e9]) expect(() => render(level, { maxSide: bad })).toThrow(/maxSide must be a whole number 1…8192/);
  });

  it('levelkit render --scale 16: one LIMIT_EXCEEDED line naming --scale, exit 2, nothing written', () => {
    writeFileSync(join(tmp, 'big.wwd'), wwd.encode(level));
    const r = bin(tmp, 'render', 'big.wwd', '-o', 'big.png', '--scale', '16');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `levelkit render: big.wwd: LIMIT_EXCEEDED: --scale 16 would draw 32768 × 32768 px, over the ${MAX_PREVIEW_PIXELS} pixels a preview may have; for this 2048 × 2048-tile grid use --scale ≤ 4\n`,
    );
    expect(readdirSync(tmp)).not.toContain('big.png');
  });
});

describe('a failed write is an IO line with the path and the reason', () => {
  const notes = join(tmp, 'notes.txt');
  writeFileSync(notes, 'a file, not a folder');

  it('scan --out /dev/full: IO naming /dev/full and ENOSPC, never "internal error"', () => {
    const r = bin(tmp, 'scan', join(FIXTURES, 'graal'), '--out', '/dev/full', '--force', '--quiet');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('levelkit scan: IO: cannot write /dev/full: no space left on device (ENOSPC)\n');
  });

  it('scan --report under a file: IO naming the report', () => {
    const r = bin(tmp, 'scan', GRAAL, '--out', 'scan-out.jsonl', '--report', 'notes.txt/r.json', '--quiet');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^levelkit scan: IO: cannot write notes\.txt\/r\.json: not a directory \(ENOTDIR\)\n$/);
  });

  it.each([
    ['convert', [GRAAL, 'notes.txt/level.nw']],
    ['extract', [GRAAL, '-o', 'notes.txt/out']],
    ['render', [GRAAL, '-o', 'notes.txt/x.png']],
  ])('%s into a path whose parent is a file: IO naming it', (cmd, args) => {
    const r = bin(tmp, cmd, ...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^levelkit ${cmd}: .*gr-v103\\.graal: IO: cannot write notes\\.txt/.*: notes\\.txt.* is not a folder \\((EEXIST|ENOTDIR)\\)\\n`),
    );
    expect(r.stderr).not.toMatch(/internal error/);
  });
});

describe('no NaN in any message', () => {
  it('the error builder never prints NaN, even when handed one; offset NaN becomes null', () => {
    const e = new DecodeError('wwd', 'TRUNCATED', { offset: Number.NaN, path: 'planes[0]', expected: Number.NaN, actual: Number.POSITIVE_INFINITY });
    expect(e.message).toBe('wwd: planes[0] input ends too early, expected (a value that is not a number), found (too large)');
    expect(e.toJSON().offset).toBeNull();
  });

  it('every malformed fixture through levelkit info --json: no NaN, no internal error', () => {
    const bad = listFiles(FIXTURES, /./).filter((p) => p.includes('/bad/') && !/\.(json|md)$/.test(p));
    expect(bad.length).toBeGreaterThan(20);
    const r = bin(tmp, 'info', '--json', ...bad);
    const lines = jsonLines(r.stdout);
    expect(lines.length).toBe(bad.length);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/NaN|internal error|INTERNAL/);
  });

  it('a scan of zips with their directory past the end, cut short or overlapping: typed records, no NaN', async () => {
    const { craftZip } = await import('../helpers/zips.js');
    const member = { name: 'a.nw', data: new TextEncoder().encode('GLEVNW01\n') };
    const good = craftZip([member]);
    const files = {
      'past-end.zip': craftZip([member], { cdOffset: 0xffffffff - 10 }),
      'cut.zip': good.subarray(0, good.length - 5),
      'overlap.zip': craftZip([member], { directory: [0, 1, 2].map((i) => ({ name: `${i}.nw`, member: 0 })) }),
      'no-end.zip': good.subarray(0, 40),
    };
    const dir = join(tmp, 'zips');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    for (const [n, b] of Object.entries(files)) writeFileSync(join(dir, n), b);
    const recs: ScanRecord[] = [];
    for await (const r of scan([dir], { workers: 1, sort: true })) recs.push(r);
    expect(recs.map((r) => r.error?.code)).toEqual(['CORRUPT_ARCHIVE', 'CORRUPT_ARCHIVE', 'CORRUPT_ARCHIVE', 'CORRUPT_ARCHIVE']);
    expect(JSON.stringify(recs)).not.toMatch(/NaN/);
  });
});

describe('other sizes from options', () => {
  it('extract: JSON longer than the engine’s strings is an EncodeError LIMIT_EXCEEDED, not "Invalid string length"', () => {
    const huge = {
      toJSON() {
        throw new RangeError('Invalid string length');
      },
    };
    expect(() => jsonBytes({ format: 'wwd', huge }, 'wwd')).toThrow(EncodeError);
    expect(() => jsonBytes({ huge }, 'wwd')).toThrow(/wwd: .*its JSON would be longer than the longest string/);
  });

  it('scan timeoutMs past what setTimeout holds still means "long", not "at once"; NaN is refused naming it', async () => {
    const recs: ScanRecord[] = [];
    for await (const r of scan([join(FIXTURES, 'graal')], { workers: 1, timeoutMs: 1e12 })) recs.push(r);
    expect(recs.length).toBeGreaterThan(3);
    expect(recs.filter((r) => r.error?.code === 'TIMEOUT')).toEqual([]);
    await expect((async () => scan([tmp], { timeoutMs: Number.NaN }).next())()).rejects.toThrow(/timeoutMs/);
  });
});
