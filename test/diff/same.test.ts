// Every fixture of every format, against a second decode of itself and against its own re-encoding:
// diff() says nothing (a diff that reports fields an encoder recomputes, or compares views by
// identity, fails here). And diff() refuses two formats with a TypeError.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode, diff, encode } from '../../src/index.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const LEVELS = listFiles(FIXTURES, /\.(map|wwd|graal|zelda|nw|gmap|gwc|gwz|wdata)$/).filter((f) => !f.includes('/bad/'));

describe('diff of a level with itself', () => {
  it('finds fixtures of every format', () => {
    expect(new Set(LEVELS.map((f) => decode(readBytes(f)).format))).toEqual(
      new Set(['wwd', 'teeworlds', 'graal', 'graal-nw', 'graal-gmap', 'gwc', 'gwz', 'wdata']),
    );
  });
  it.each(LEVELS.map((f) => [f.slice(FIXTURES.length + 1), f]))('%s: nothing, also after encode', (_name, file) => {
    const bytes = readBytes(file);
    expect(diff(decode(bytes), decode(bytes))).toEqual([]);
    expect(diff(decode(bytes), decode(encode(decode(bytes))))).toEqual([]);
  });
  it('two formats: TypeError', () => {
    const wwdLevel = decode(readBytes(join(FIXTURES, 'wwd/claw-compressed.wwd')));
    const map = decode(readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map')));
    expect(() => diff(wwdLevel, map)).toThrow(TypeError);
  });
});
