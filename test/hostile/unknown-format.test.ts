// In a walk, a file named like a level (.wwd .map .graal .nw .zelda .gmap) whose content no
// format recognises is an UNKNOWN_FORMAT error: the old walk skipped it silently, so a broken
// level in an archive went unnoticed. Other unrecognised files are only counted in the tally.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

describe('unrecognised files in walks', () => {
  it('level-named junk is UNKNOWN_FORMAT (exit 2); other files are counted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'levelkit-unknown-'));
    writeFileSync(join(dir, 'broken.map'), 'not a map at all');
    writeFileSync(join(dir, 'readme.txt'), 'hello');
    writeFileSync(join(dir, 'tiles.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    copyFileSync(join(FIXTURES, 'wwd', 'claw-compressed.wwd'), join(dir, 'level.wwd'));
    const r = cli('info', '--json', dir);
    expect(r.status).toBe(2);
    expect(jsonLines(r.stdout).map((l) => [l.file.slice(dir.length + 1), l.error?.code ?? l.format])).toEqual([
      ['broken.map', 'UNKNOWN_FORMAT'],
      ['level.wwd', 'wwd'],
    ]);
    expect(r.stderr).toMatch(/1 decoded \(wwd 1\); 1 failed \(UNKNOWN_FORMAT 1\); 2 other files not recognised/);
  });
});
