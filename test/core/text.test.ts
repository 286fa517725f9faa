// The lossless text rule shared by every encoder (core/text.ts).
import { describe, expect, it } from 'vitest';
import { canEncode, decodeText, encodeText, makeText, textBytes } from '../../src/core/text.js';
import { EncodeError, textFrom } from '../../src/index.js';

const site = { format: 'graal-nw' as const, path: 'npcs[0].script' };

describe('Text', () => {
  it('an unchanged text is written as its raw bytes, even when they do not decode losslessly', () => {
    // 0x81 is unmapped in windows-1250's neighbours; raw bytes win whatever the decoder made of them.
    const raw = Uint8Array.of(0x48, 0xb3, 0x81, 0x6f);
    const t = makeText(raw, 'windows-1250');
    expect(t.encoding).toBe('windows-1250');
    expect(textBytes(t, site)).toBe(raw);
  });

  it('a changed text is encoded in its own code page and decodes back to itself', () => {
    const t = { ...makeText(Uint8Array.of(0x41), 'windows-1250'), text: 'łódź' };
    const bytes = textBytes(t, site);
    expect(Array.from(bytes)).toEqual([0xb3, 0xf3, 0x64, 0x9f]);
    expect(decodeText(bytes, 'windows-1250')).toBe('łódź');
  });

  it('a character the code page lacks is UNENCODABLE_TEXT with the path, never a "?"', () => {
    const t = { ...makeText(Uint8Array.of(0x41), 'windows-1252'), text: 'ł' };
    expect(() => textBytes(t, site)).toThrow(EncodeError);
    expect(() => textBytes(t, site)).toThrow(expect.objectContaining({ code: 'UNENCODABLE_TEXT', format: 'graal-nw', path: 'npcs[0].script' }));
    expect(() => textFrom('漢', 'windows-1252', 'wwd', 'header.name')).toThrow(expect.objectContaining({ code: 'UNENCODABLE_TEXT', path: 'header.name' }));
  });

  it('something that is not a Text is BAD_VALUE', () => {
    expect(() => textBytes('plain' as unknown as ReturnType<typeof makeText>, site)).toThrow(expect.objectContaining({ code: 'BAD_VALUE' }));
  });

  it('UTF-8 refuses lone surrogates; multi-byte code pages decode but are not written', () => {
    expect(encodeText('a\ud800b', 'utf-8')).toBeUndefined();
    expect(encodeText('a\ud83d\ude00b', 'utf-8')).toEqual(new TextEncoder().encode('a\ud83d\ude00b'));
    expect(canEncode('shift_jis')).toBe(false);
    expect(encodeText('a', 'shift_jis')).toBeUndefined();
  });

  it('every single-byte code page round-trips each byte it maps', () => {
    for (const label of ['windows-1250', 'windows-1251', 'windows-1252', 'koi8-r', 'iso-8859-2', 'ibm866', 'macintosh']) {
      expect(canEncode(label)).toBe(true);
      for (let b = 0; b < 256; b++) {
        const s = decodeText(Uint8Array.of(b), label);
        if (s === '\ufffd') continue;
        expect(Array.from(encodeText(s, label) ?? []), `${label} byte ${b}`).toEqual([b]);
      }
    }
  });
});
