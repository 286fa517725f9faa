// Folder walks and symbolic links (issue 11): links to folders are walked only with --follow,
// and then each folder once (device, inode), so link loops end and every file is reported once.
// The old walk followed every link: a loop made it report files again and again down ever
// longer paths until the OS refused (ELOOP / ENAMETOOLONG).
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const LEVEL = join(FIXTURES, 'wwd', 'claw-compressed.wwd');

describe('symbolic links in walks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-links-'));
  const root = join(dir, 'root');
  mkdirSync(join(root, 'a'), { recursive: true });
  mkdirSync(join(root, 'b'));
  mkdirSync(join(dir, 'outside'));
  copyFileSync(LEVEL, join(root, 'a', 'one.wwd'));
  copyFileSync(LEVEL, join(root, 'b', 'two.wwd'));
  copyFileSync(LEVEL, join(dir, 'outside', 'three.wwd'));
  // Two loops: a/up → root (its grandparent) and b/to-a → a, plus a link out of the tree.
  symlinkSync('..', join(root, 'a', 'up'));
  symlinkSync('../a', join(root, 'b', 'to-a'));
  symlinkSync('../outside', join(root, 'c-outside'));

  const files = (stdout: string) =>
    jsonLines(stdout)
      .map((l) => l.file.slice(root.length + 1))
      .sort();

  it('without --follow, links to folders are not walked and are counted in the tally', () => {
    const r = cli('info', '--json', root);
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(0);
    expect(files(r.stdout)).toEqual(['a/one.wwd', 'b/two.wwd']);
    expect(r.stderr).toMatch(/3 linked or repeated folders not walked/);
  });

  it('with --follow, two loops end and each file is reported once', () => {
    const r = cli('info', '--json', '--follow', root);
    expect(r.error).toBeUndefined(); // finished before the timeout
    expect(r.status).toBe(0);
    expect(files(r.stdout)).toEqual(['a/one.wwd', 'b/two.wwd', 'c-outside/three.wwd']);
  });

  it('a link named on the command line is followed: the user asked for it', () => {
    const r = cli('info', '--json', join(root, 'c-outside'));
    expect(jsonLines(r.stdout).map((l) => l.format)).toEqual(['wwd']);
  });
});
