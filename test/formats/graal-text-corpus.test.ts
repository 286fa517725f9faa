// Lossless text over the whole Graal corpus: every file decoded with a code page other than the
// default (windows-1250) and encoded again keeps its text bytes; files that re-encoded byte for
// byte still do; a changed string round-trips and one the page lacks is UNENCODABLE_TEXT.
import { isDeepStrictEqual } from 'node:util';
import { expect, it } from 'vitest';
import { EncodeError } from '../../src/core/errors.js';
import * as graal from '../../src/formats/graal/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';

const PAGE = 'windows-1250';

/** How often each byte ≥ 0x80 occurs: in .nw and .gmap files those bytes are all text. */
function highBytes(b: Uint8Array): number[] {
  const n = new Array<number>(128).fill(0);
  for (const v of b) if (v >= 0x80) n[v - 0x80]!++;
  return n;
}

/** The first Text field of a level or map, with a setter (for the changed-string checks). */
function firstText(v: graal.GraalDecoded): { get: () => graal.Text; set: (t: graal.Text) => void } | undefined {
  if (v.format === 'graal-gmap') {
    const row = v.levels.find((r) => r.length > 0);
    return row
      ? {
          get: () => row[0]!,
          set: (t) => {
            row[0] = t;
          },
        }
      : undefined;
  }
  const npc = v.npcs[0];
  if (npc)
    return {
      get: () => npc.script,
      set: (t) => {
        npc.script = t;
      },
    };
  const l = v.links[0];
  return l
    ? {
        get: () => l.level,
        set: (t) => {
          l.level = t;
        },
      }
    : undefined;
}

describeCorpus('graal', 'graal corpus, text in windows-1250', (dir) => {
  const files = listFiles(dir, /\.(graal|zelda|nw|gmap)$/);

  it('every file keeps its text bytes; byte-identical re-encodes stay byte-identical; no "?" appears', () => {
    const failures: string[] = [];
    let decoded = 0,
      identicalDefault = 0,
      identical1250 = 0,
      withHighText = 0;
    for (const path of files) {
      const bytes = readBytes(path);
      const name = path.slice(dir.length + 1);
      let v: graal.GraalDecoded, d: graal.GraalDecoded;
      try {
        d = graal.decode(bytes);
        v = graal.decode(bytes, { encoding: PAGE });
      } catch {
        continue;
      } // the GIF named .graal
      decoded++;
      let out: Uint8Array;
      try {
        out = graal.encode(v);
      } catch (e) {
        failures.push(`${name}: ${String(e)}`);
        continue;
      }
      const sameDefault = Buffer.from(graal.encode(d)).equals(Buffer.from(bytes));
      const same1250 = Buffer.from(out).equals(Buffer.from(bytes));
      if (sameDefault) identicalDefault++;
      if (same1250) identical1250++;
      if (sameDefault && !same1250) failures.push(`${name}: re-encoded byte for byte by default, not from ${PAGE}`);
      const back = graal.decode(out, { encoding: PAGE });
      const { warnings: _a, ...a } = v,
        { warnings: _b, ...b } = back;
      if (!isDeepStrictEqual(a, b)) failures.push(`${name}: reads back different from ${PAGE}`);
      if (v.format !== 'graal') {
        const high = highBytes(bytes);
        if (high.some((n) => n > 0)) withHighText++;
        if (!isDeepStrictEqual(high, highBytes(out))) failures.push(`${name}: bytes ≥ 0x80 changed (text written in another page, or '?')`);
      }
    }
    console.log(
      `graal corpus in ${PAGE}: ${decoded} files, ${identical1250} byte-identical (${identicalDefault} by default), ${withHighText} text files with bytes ≥ 0x80 kept`,
    );
    expect(failures).toEqual([]);
    expect(decoded).toBe(4917);
    expect(identical1250).toBe(identicalDefault);
    expect(identical1250).toBe(4854);
  }, 300_000);

  it('a changed string round-trips in windows-1250; a character it lacks is UNENCODABLE_TEXT', () => {
    let checked = 0;
    for (const path of files.filter((_, i) => i % 20 === 0)) {
      let v: graal.GraalDecoded;
      try {
        v = graal.decode(readBytes(path), { encoding: PAGE });
      } catch {
        continue;
      }
      const field = firstText(v);
      if (!field) continue;
      const old = field.get();
      field.set({ ...old, text: `Łódź ${old.text.split('\n')[0]!.replace(/["#§\\]/g, '')}` });
      const want = field.get().text;
      const back = graal.decode(graal.encode(v), { encoding: PAGE });
      const got = firstText(back)!.get();
      expect(got.text, path).toBe(want);
      expect(got.encoding).toBe(PAGE);
      field.set({ ...old, text: 'ж' });
      let err: unknown;
      try {
        graal.encode(v);
      } catch (e) {
        err = e;
      }
      expect(err, path).toBeInstanceOf(EncodeError);
      expect((err as EncodeError).code).toBe('UNENCODABLE_TEXT');
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
