// The shared table of pixel digests: what is set is found, under its key only, across threads'
// views of one buffer; a full probe window drops entries instead of overwriting others.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DigestCache, newDigestBuffer } from '../../src/archive-index/digest-cache.js';

const hex = (s: string) => createHash('sha256').update(s).digest('hex');

describe('DigestCache', () => {
  it('finds what was set, under its key only, through another view of the same buffer', () => {
    const buffer = newDigestBuffer(64);
    const a = new DigestCache(buffer);
    const b = new DigestCache(buffer);
    for (let i = 0; i < 20; i++) a.set(hex(`key ${i}`), hex(`value ${i}`));
    for (let i = 0; i < 20; i++) expect(b.get(hex(`key ${i}`))).toBe(hex(`value ${i}`));
    expect(b.get(hex('key 20'))).toBeUndefined();
  });

  it('keeps the first value of a key and never lets a full table overwrite an entry', () => {
    const cache = new DigestCache(newDigestBuffer(16));
    cache.set(hex('k'), hex('first'));
    cache.set(hex('k'), hex('second'));
    expect(cache.get(hex('k'))).toBe(hex('first'));
    for (let i = 0; i < 200; i++) cache.set(hex(`fill ${i}`), hex(`v ${i}`));
    expect(cache.get(hex('k'))).toBe(hex('first'));
    let found = 0;
    for (let i = 0; i < 200; i++) {
      const v = cache.get(hex(`fill ${i}`));
      if (v !== undefined) {
        expect(v).toBe(hex(`v ${i}`));
        found++;
      }
    }
    expect(found).toBeLessThanOrEqual(15);
  });
});
