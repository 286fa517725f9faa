// Teeworlds corpus round-trip, and lossless text over the whole corpus, in one pass (each map is
// encoded once; the corpus is large). For every map: decode(encode(decode(file))) deep-equals
// decode(file) (warnings, container version and magic aside), with the flavour kept. Map text is
// UTF-8 whatever `encoding` says, so maps are decoded with a non-default code page (windows-1250,
// ignored) and texts must keep their stored bytes — the corpus's own invalid UTF-8 and bytes
// injected here included; a changed string round-trips, an unencodable one is UNENCODABLE_TEXT, and
// the map that re-encoded byte for byte before still does. zlib level 1 keeps the suite fast; the
// level changes only the compressed bytes, never what decodes from them.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { encodeText, makeText, type Text, textFrom } from '../../src/core/text.js';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { EncodeError, teeworlds } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { sameMap } from './teeworlds-helpers.js';

/** Corpus maps whose re-encoding was byte-identical before Text (PyTeeworldsMap writes as we do). */
const BYTE_EXACT = ['Marmare314__PyTeeworldsMap/test_maps__HeyTux2Saved@53d8d2ba.map'];

/** Every Text of a map. */
function texts(m: TeeworldsMap): Text[] {
  const out: Text[] = [];
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return;
    const o = v as Record<string, unknown>;
    if (o.raw instanceof Uint8Array && typeof o.text === 'string') {
      out.push(v as Text);
      return;
    }
    for (const k of Object.keys(o)) walk(o[k]);
  };
  walk(m);
  return out;
}

/** Setters for the text fields that can hold a short new string in this map's layouts (data strings, names of versions that store one). */
function editable(m: TeeworldsMap): ((t: Text) => void)[] {
  const out: ((t: Text) => void)[] = [];
  const info = m.info;
  if (info)
    for (const f of ['author', 'mapVersion', 'credits', 'license'] as const)
      if (info[f])
        out.push((t) => {
          info[f] = t;
        });
  for (const img of m.images) {
    out.push((t) => {
      img.name = t;
    });
  }
  for (const s of m.sounds) {
    out.push((t) => {
      s.name = t;
    });
  }
  for (const e of m.envelopes) {
    out.push((t) => {
      e.name = t;
    });
  }
  for (const g of m.groups) {
    if (g.version >= 3)
      out.push((t) => {
        g.name = t;
      });
    for (const l of g.layers) {
      const named = l.kind === 'sounds' || (l.kind === 'quads' && l.quadsVersion >= 2) || ('tilemapVersion' in l && l.tilemapVersion >= 3);
      if (named)
        out.push((t) => {
          l.name = t;
        });
    }
  }
  return out;
}

const isUtf8 = (t: Text) => {
  const b = encodeText(t.text, 'utf-8');
  return !!b && b.length === t.raw.length && b.every((v, i) => v === t.raw[i]);
};

describeCorpus('teeworlds', 'teeworlds corpus round-trip', (dir) => {
  it('every map survives decode (windows-1250) → edit a text, inject non-UTF-8 bytes → encode (v4, keeping its flavour) → decode', () => {
    const files = listFiles(dir, /\.map$/);
    const failures: string[] = [];
    let invalid = 0,
      invalidFiles = 0,
      edited = 0,
      refused = 0;
    const t0 = performance.now();
    for (const f of files) {
      const name = f.slice(dir.length + 1);
      const m = teeworlds.decode(readBytes(f), { encoding: 'windows-1250' });
      const all = texts(m);
      if (all.some((t) => t.encoding !== 'utf-8')) failures.push(`${name}: a text not in utf-8`);
      const bad = all.filter((t) => !isUtf8(t)).length;
      invalid += bad;
      if (bad) invalidFiles++;
      const sites = editable(m);
      if (sites.length > 0) {
        // An unencodable string is refused before anything is written…
        sites[0]!(textFrom('x', 'utf-8'));
        sites[0]!({ text: 'lk\ud800', raw: new Uint8Array(0), encoding: 'utf-8' });
        try {
          teeworlds.encode(m);
          failures.push(`${name}: a lone surrogate was written`);
        } catch (e) {
          if (!(e instanceof EncodeError) || e.code !== 'UNENCODABLE_TEXT') failures.push(`${name}: ${String(e)}`);
          else refused++;
        }
        // …a changed one is written as UTF-8, and bytes that are not UTF-8 stay as they are.
        sites[0]!(textFrom('lk ✓', 'utf-8'));
        sites[sites.length - 1]!(makeText(Uint8Array.of(0xff, 0x41, 0xc3), 'utf-8'));
        edited++;
      }
      const back = teeworlds.decode(teeworlds.encode(m, { level: 1 }));
      const d = sameMap(back, m) ?? (back.flavour === m.flavour && back.datafileVersion === 4 ? null : 'flavour or version changed');
      if (d) failures.push(`${name}: ${d}`);
    }
    console.log(
      `[teeworlds corpus] ${files.length} maps round-tripped in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${invalid} stored texts in ${invalidFiles} maps are not UTF-8 and kept; ${edited} maps with an edited and an injected text; ${refused} unencodable refusals`,
    );
    expect(failures).toEqual([]);
    expect(files.length).toBe(287);
    // Measured on the corpus: old maps with Latin-1 names.
    expect([invalid, invalidFiles]).toEqual([20, 5]);
    expect(refused).toBe(edited);
    expect(edited).toBeGreaterThan(250);
  });

  it('the map that re-encoded byte for byte still does (decoded with windows-1250)', () => {
    for (const rel of BYTE_EXACT) {
      const bytes = readBytes(join(dir, rel));
      expect(teeworlds.encode(teeworlds.decode(bytes, { encoding: 'windows-1250' })), rel).toEqual(bytes);
    }
  });
});
