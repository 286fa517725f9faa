import { describe, expect, it } from 'vitest';
import { makeText } from '../../src/core/text.js';
import { ByteSlab, TextBatch } from '../../src/core/text-batch.js';

// Deterministic pseudo-random bytes, so a failure names a field that can be rebuilt.
function fields(seed: number, count: number, maxLen: number): Uint8Array[] {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
  return Array.from({ length: count }, () => Uint8Array.from({ length: next() % (maxLen + 1) }, () => next() & 0xff));
}

describe('TextBatch', () => {
  for (const encoding of ['windows-1252', 'latin1', 'windows-1251', 'iso-8859-8', 'utf-8', 'shift_jis']) {
    it(`gives the same Texts as makeText, field by field (${encoding})`, () => {
      const raws = fields(encoding.length, 500, 40);
      const batch = new TextBatch(encoding);
      // Every third field shows only part of its bytes, as NUL-terminated fields do.
      const got = raws.map((r, i) => batch.add(r, i % 3 === 0 ? r.subarray(0, r.length >> 1) : r));
      batch.finish();
      const want = raws.map((r, i) => makeText(r, encoding, i % 3 === 0 ? r.subarray(0, r.length >> 1) : r));
      expect(got).toEqual(want);
      // The values are plain data: JSON and structuredClone see the same fields as for makeText.
      expect(JSON.stringify(got.map((t) => t.text))).toBe(JSON.stringify(want.map((t) => t.text)));
      expect(structuredClone(got)).toEqual(want);
    });
  }

  it('decodes C1 bytes as Windows-1252 (not Latin-1) when joined', () => {
    const batch = new TextBatch('windows-1252');
    const texts = [batch.add(Uint8Array.of(0x80, 0x41)), ...Array.from({ length: 40 }, () => batch.add(Uint8Array.of(0x42, 0x43, 0x9f)))];
    batch.finish();
    expect(texts[0]!.text).toBe('€A');
    expect(texts[40]!.text).toBe('BCŸ');
  });

  it('can be finished more than once, each time for what was added since', () => {
    const batch = new TextBatch('utf-8');
    const a = batch.add(new TextEncoder().encode('ä'));
    batch.finish();
    const b = batch.add(new TextEncoder().encode('ö'));
    expect(b.text).toBe('');
    batch.finish();
    expect([a.text, b.text]).toEqual(['ä', 'ö']);
  });

  it('refuses an unknown code page when made', () => {
    expect(() => new TextBatch('no-such-page')).toThrow(RangeError);
  });
});

describe('ByteSlab', () => {
  it('copies: later changes to the source do not reach the copies, and copies do not overlap', () => {
    const slab = new ByteSlab(64);
    const src = Uint8Array.from({ length: 40 }, (_, i) => i);
    const copies = [slab.copy(src.subarray(0, 10)), slab.copy(src.subarray(10, 20)), slab.copy(src.subarray(20, 40)), slab.copy(new Uint8Array(0))];
    src.fill(255);
    expect(Array.from(copies[0]!)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(Array.from(copies[1]!)).toEqual(Array.from({ length: 10 }, (_, i) => 10 + i));
    expect(Array.from(copies[2]!)).toEqual(Array.from({ length: 20 }, (_, i) => 20 + i));
    copies[0]!.fill(7);
    expect(copies[1]![0]).toBe(10);
    expect(copies[3]!.length).toBe(0);
  });
});
