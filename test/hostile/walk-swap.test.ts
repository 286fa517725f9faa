// A folder swapped for a link after its parent was listed: the old walk listed it by path, so it
// entered whatever the link pointed at (a folder outside the tree) and the workers read those
// files. Now a folder is opened without following a link, checked by device and inode against
// what its parent's listing saw, and listed through its handle; a file is read only if it is the
// file the walk listed. The swaps happen through the walk's fs seam, between listing and entering.
import * as fs from 'node:fs';
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSafe } from '../../src/scan/read.js';
import { type ScanRecord, scan } from '../../src/scan/scan.js';
import { SWAPPED, type WalkFs, walk } from '../../src/scan/walk.js';
import { FIXTURES } from '../helpers/paths.js';

const LEVEL = join(FIXTURES, 'wwd', 'claw-compressed.wwd');

/** root/{a.wwd, sub/in.wwd} and, beside it, outside/{secret.wwd}. */
function tree(): { root: string; outside: string } {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-swap-'));
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  copyFileSync(LEVEL, join(root, 'a.wwd'));
  copyFileSync(LEVEL, join(root, 'sub', 'in.wwd'));
  copyFileSync(LEVEL, join(outside, 'secret.wwd'));
  return { root, outside };
}

/** The real fs, but right after the walk lists root, root/sub is moved away and replaced by a link to `outside`. */
function swappingAfterListing(root: string, outside: string): WalkFs {
  let done = false;
  return {
    ...fs,
    readdirSync: ((p: fs.PathLike, o: object) => {
      const names = fs.readdirSync(p, o as { withFileTypes: true; encoding: 'buffer' });
      if (!done) {
        done = true;
        renameSync(join(root, 'sub'), join(root, 'sub-moved'));
        symlinkSync(outside, join(root, 'sub'));
      }
      return names;
    }) as WalkFs['readdirSync'],
  };
}

/** The real fs, but the first time the walk opens root/sub, sub is first moved away and replaced by a link to `outside`. */
function swapping(root: string, outside: string): WalkFs {
  let done = false;
  return {
    ...fs,
    openSync: ((p: fs.PathLike, flags: number) => {
      if (!done && String(p) === join(root, 'sub')) {
        done = true;
        renameSync(join(root, 'sub'), join(root, 'sub-moved'));
        symlinkSync(outside, join(root, 'sub'));
      }
      return fs.openSync(p, flags);
    }) as WalkFs['openSync'],
  };
}

describe('a folder swapped for a link between listing and entering', () => {
  it.each([
    ['right after its parent is listed', swappingAfterListing],
    ['as it is entered', swapping],
  ])('walk, swapped %s: the link is not entered; the folder is an unreadable entry saying it was replaced', (_when, seam) => {
    const { root, outside } = tree();
    const entries = [...walk([root], { fs: seam(root, outside) })];
    const seen = entries.map((e) => [e.kind, e.path.toString()]);
    expect(seen).toEqual([
      ['file', join(root, 'a.wwd')],
      ['unreadable', join(root, 'sub')],
    ]);
    expect(entries[1]).toMatchObject({ failure: { code: 'IO', message: SWAPPED } });
  });

  it('also with --follow: the link was not there when the parent was listed, so it is not the folder listed', () => {
    const { root, outside } = tree();
    const paths = [...walk([root], { fs: swappingAfterListing(root, outside), follow: true })].map((e) => e.path.toString());
    expect(paths.some((p) => p.includes('secret'))).toBe(false);
  });

  it('a folder above swapped after the listing: another device and inode, not entered', () => {
    const { root, outside } = tree();
    mkdirSync(join(root, 'sub', 'deeper'));
    mkdirSync(join(outside, 'deeper'));
    copyFileSync(LEVEL, join(outside, 'deeper', 'secret2.wwd'));
    // root/sub is listed, then (before sub/deeper is entered) swapped: root/sub/deeper now leads outside.
    let done = false;
    const seam: WalkFs = {
      ...fs,
      openSync: ((p: fs.PathLike, flags: number) => {
        if (!done && String(p) === join(root, 'sub', 'deeper')) {
          done = true;
          renameSync(join(root, 'sub'), join(root, 'sub-moved'));
          symlinkSync(outside, join(root, 'sub'));
        }
        return fs.openSync(p, flags);
      }) as WalkFs['openSync'],
    };
    const entries = [...walk([root], { fs: seam })];
    expect(entries.map((e) => e.path.toString()).some((p) => p.includes('secret'))).toBe(false);
    expect(entries.at(-1)).toMatchObject({ kind: 'unreadable', path: Buffer.from(join(root, 'sub', 'deeper')), failure: { message: SWAPPED } });
  });

  it.each([
    ['right after its parent is listed', swappingAfterListing],
    ['as it is entered', swapping],
  ])('scan, swapped %s: the outside files are not scanned, the swapped folder is an IO record, the rest is scanned', async (_when, seam) => {
    const { root, outside } = tree();
    const recs: ScanRecord[] = [];
    for await (const r of scan([root], { workers: 1, sort: true, fs: seam(root, outside) as never })) recs.push(r);
    expect(recs.map((r) => [r.path.slice(root.length + 1), r.error?.code ?? r.format])).toEqual([
      ['a.wwd', 'wwd'],
      ['sub', 'IO'],
    ]);
    expect(recs[1]!.error!.message).toBe(SWAPPED);
  });
});

describe('a file read only if it is the file the walk listed', () => {
  const id = (p: string) => {
    const st = fs.statSync(p, { bigint: true });
    return { dev: st.dev, ino: st.ino };
  };

  it('the file swapped for a link to an outside file: not read (O_NOFOLLOW, and another inode)', () => {
    const { root, outside } = tree();
    const path = join(root, 'a.wwd');
    const listed = id(path);
    fs.rmSync(path);
    symlinkSync(join(outside, 'secret.wwd'), path);
    const r = readFileSafe(Buffer.from(path), { maxBytes: 1 << 20, expect: listed, noFollow: true });
    expect(r).toEqual({ failure: { code: 'IO', message: expect.stringMatching(/^replaced while the scan ran/) } });
  });

  it('a folder above it swapped for a link to an outside folder holding a file of the same name: not read', () => {
    const { root, outside } = tree();
    copyFileSync(LEVEL, join(outside, 'in.wwd'));
    const path = join(root, 'sub', 'in.wwd');
    const listed = id(path);
    renameSync(join(root, 'sub'), join(root, 'sub-moved'));
    symlinkSync(outside, join(root, 'sub'));
    const r = readFileSafe(Buffer.from(path), { maxBytes: 1 << 20, expect: listed, noFollow: true });
    expect(r).toEqual({ failure: { code: 'IO', message: expect.stringMatching(/^replaced while the scan ran/) } });
    // The file as listed, unswapped, reads.
    expect('bytes' in readFileSafe(Buffer.from(join(root, 'sub-moved', 'in.wwd')), { maxBytes: 1 << 20, expect: listed, noFollow: true })).toBe(true);
  });
});
