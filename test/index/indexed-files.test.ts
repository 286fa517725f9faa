// What a resume holds per indexed file (IndexedFiles in src/archive-index/resume.ts): a key is
// found only when it is the same key, and a million of them do not grow V8's heap.
import { describe, expect, it } from 'vitest';
import { IndexedFiles, resumeKey } from '../../src/archive-index/resume.js';
import { retainedHeap } from '../helpers/heap.js';

describe('IndexedFiles', () => {
  it('answers only for the key it holds: another path, member, size or time is not indexed', () => {
    const files = new IndexedFiles();
    const k = { path: '/archive/maps/a.graal', member: null, bytes: 10, mtimeMs: 1_000 };
    files.set(resumeKey(k), true);
    files.set(resumeKey({ ...k, path: '/archive/maps/b.graal' }), false);
    expect(files.get(resumeKey(k))).toBe(true);
    expect(files.get(resumeKey({ ...k, path: '/archive/maps/b.graal' }))).toBe(false);
    for (const other of [{ path: '/archive/maps/a.graal ' }, { path: '/archive/map/a.graal' }, { member: 'a.graal' }, { bytes: 11 }, { mtimeMs: 1_001 }])
      expect(files.get(resumeKey({ ...k, ...other }))).toBeUndefined();
    // A key given twice (two latest rows) keeps its first answer and counts once.
    files.set(resumeKey(k), false);
    expect(files.get(resumeKey(k))).toBe(true);
    expect(files.counts()).toEqual({ same: 1, other: 1 });
    expect(files.size).toBe(2);
  });

  it("holds 50,000 files' keys without growing V8's heap by 2 MB (a Map of the keys held ~19 MB)", () => {
    const files = new IndexedFiles();
    const retained = retainedHeap(() => {
      for (let i = 0; i < 50_000; i++)
        files.set(
          resumeKey({ path: `/archive/levels/folder-${i >> 10}/level-${i}.graal`, member: null, bytes: 4000 + i, mtimeMs: 1_700_000_000_000 + i }),
          i % 3 === 0,
        );
    });
    expect(retained).toBeLessThan(2 * 2 ** 20);
    expect(files.size).toBe(50_000);
    expect(files.get(resumeKey({ path: '/archive/levels/folder-48/level-49999.graal', member: null, bytes: 53_999, mtimeMs: 1_700_000_049_999 }))).toBe(false);
    expect(files.counts().same).toBe(16_667);
  });
});
