// Every malformed fixture of every format (fixtures/<fmt>/bad/) against its manifest, which
// fixtures/generators/bad.ts writes from how it broke each file: decode() (or the format's own
// decode when detect() cannot see the file) must throw a DecodeError with the manifest's code,
// and its offset and path when the manifest gives them, with both kernel sets, leaving the input as it was.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecodeError, decode, detect, graal, gwc, teeworlds, wwd } from '../src/index.js';
import { FIXTURES, listFiles, readBytes } from './helpers/paths.js';

interface Expected {
  code: string;
  /** null: the fault has no position, so the error carries no offset. */
  offset?: number | null;
  path?: string;
  strict?: boolean;
  via?: 'wwd' | 'teeworlds' | 'graal' | 'gwc';
}

const NAMESPACES = { wwd, teeworlds, graal, gwc } as const;

const FORMATS = ['wwd', 'teeworlds', 'graal', 'gwc'] as const;

describe.each(FORMATS)('%s/bad', (format) => {
  const dir = join(FIXTURES, format, 'bad');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, Expected>;

  it('the manifest lists every file in the folder, and only those', () => {
    const files = listFiles(dir, /./)
      .map((p) => p.slice(dir.length + 1))
      .filter((n) => n !== 'manifest.json');
    expect(Object.keys(manifest).sort()).toEqual(files.sort());
  });

  it.each(Object.entries(manifest))('%s', (name, want) => {
    const bytes = readBytes(join(dir, name));
    const copy = bytes.slice();
    const run = want.via ? NAMESPACES[want.via].decode : decode;
    // A file decoded through its namespace is there because detect() does not know it.
    if (want.via) expect(detect(bytes)).toBeUndefined();
    for (const backend of ['js', 'wasm'] as const) {
      let err: unknown;
      try {
        run(bytes, { backend, strict: want.strict ?? false });
      } catch (e) {
        err = e;
      }
      expect(err, backend).toBeInstanceOf(DecodeError);
      const e = err as DecodeError;
      const got: Expected = { code: e.code };
      if (want.offset !== undefined) got.offset = (e.offset as number | undefined) ?? null;
      if (want.path !== undefined) got.path = e.path;
      const { strict: _s, via: _v, ...expected } = want;
      expect(got, `${backend}: ${e.message}`).toEqual(expected);
    }
    expect(bytes).toEqual(copy);
    // A fault only strict mode refuses is otherwise tolerated (and reported as a warning).
    if (want.strict) expect(run(bytes).warnings.length).toBeGreaterThan(0);
  });
});
