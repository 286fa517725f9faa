// Graal corpus suite: every file in ../shared/corpus/graal decodes with both kernel sets to the
// same value, matches the section counts MANIFEST.tsv records, and survives the round trips
// (binary → .graal, binary → .nw, .nw → .nw byte-identical on re-encode, .gmap → .gmap).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { DecodeError, EncodeError } from '../../src/core/errors.js';
import * as graal from '../../src/formats/graal/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { readBytes } from '../helpers/paths.js';

interface Row {
  file: string;
  notes: Record<string, string>;
  bytes: Uint8Array;
}

function manifest(root: string): Row[] {
  const lines = readFileSync(join(root, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1);
  return lines.map((l) => {
    const cols = l.split('\t');
    const notes: Record<string, string> = {};
    for (const part of (cols[6] ?? '').split(/ \| | /)) {
      const eq = part.indexOf('=');
      if (eq > 0) notes[part.slice(0, eq)] = part.slice(eq + 1);
    }
    return { file: cols[0]!, notes, bytes: readBytes(join(root, cols[0]!)) };
  });
}

/** The level without what legitimately changes between codecs. */
function content(l: graal.GraalLevel) {
  const { format: _f, version: _v, warnings: _w, lineEnding: _e, ...rest } = l;
  return rest;
}

// Sign bytes that no glyph rule explains are kept as U+E000 + byte; .nw text has no spelling for them.
const RAW_GLYPH = /[\uE000-\uE0FF]/;

function firstDiff(a: Record<string, unknown>, b: Record<string, unknown>): string {
  for (const k of Object.keys(a))
    if (!isDeepStrictEqual(a[k], b[k])) return `${k}: ${JSON.stringify(a[k])?.slice(0, 200)} ≠ ${JSON.stringify(b[k])?.slice(0, 200)}`;
  return 'keys differ';
}

describeCorpus('graal', 'graal corpus', (dir) => {
  const rows = manifest(dir);
  const decoded = new Map<string, graal.GraalDecoded>();

  it('has the files MANIFEST.tsv lists (4,918)', () => {
    expect(rows.length).toBe(4918);
  });

  // Decoded once for every test below; each of them first checks that all 4,917 levels are here,
  // so none can pass over an empty or partial map when run alone.
  const failures: string[] = [];
  let badMagic = 0;
  beforeAll(() => {
    for (const r of rows) {
      try {
        const wasm = graal.decode(r.bytes, { backend: 'wasm' });
        const js = graal.decode(r.bytes, { backend: 'js' });
        if (!isDeepStrictEqual(wasm, js)) failures.push(`${r.file}: wasm and js differ`);
        else decoded.set(r.file, wasm);
      } catch (e) {
        if (e instanceof DecodeError && e.code === 'BAD_MAGIC' && r.notes.header?.startsWith('GIF')) badMagic++;
        else failures.push(`${r.file}: ${String(e)}`);
      }
    }
  });
  const levels = () => {
    expect(decoded.size, 'every level decoded (see the first test)').toBe(4917);
    return decoded;
  };

  it('every file decodes with both backends to the same value; the GIF named .graal is BAD_MAGIC', () => {
    console.log(`graal corpus: ${decoded.size} decoded, ${badMagic} BAD_MAGIC (leaf1.graal is a GIF)`);
    expect(failures).toEqual([]);
    expect(badMagic).toBe(1);
    expect(decoded.size).toBe(4917);
  });

  // The manifest counts .nw lines that start with a keyword; in these two files one NPC script
  // has a line starting `NPC ` (e.g. `NPC Shoppe;` inside a setstring), which is script text.
  const SCRIPT_LINE_LOOKS_LIKE_NPC = new Set(['graal-reborn/classic_eternia6.nw', 'graal-reborn/guildventrue_inside_cappa_01.nw']);

  it('section counts match MANIFEST.tsv (binary: links…signs; .nw: keyword counts)', () => {
    const all = levels();
    const failures: string[] = [];
    for (const r of rows) {
      const v = all.get(r.file);
      if (!v || v.format === 'graal-gmap') continue;
      expect(v.version).toBe(r.notes.header);
      const want =
        v.format === 'graal'
          ? { links: r.notes.links, baddies: r.notes.baddies, npcs: r.notes.npcs, chests: r.notes.chests, signs: r.notes.signs }
          : {
              links: r.notes.LINK ?? '0',
              baddies: r.notes.BADDY ?? '0',
              npcs: String(Number(r.notes.NPC ?? 0) - (SCRIPT_LINE_LOOKS_LIKE_NPC.has(r.file) ? 1 : 0)),
              chests: r.notes.CHEST ?? '0',
              signs: r.notes.SIGN ?? '0',
            };
      const got = { links: v.links.length, baddies: v.baddies.length, npcs: v.npcs.length, chests: v.chests.length, signs: v.signs.length };
      const gotS = Object.fromEntries(Object.entries(got).map(([k, n]) => [k, String(n)]));
      if (!isDeepStrictEqual(gotS, want)) failures.push(`${r.file}: ${JSON.stringify(gotS)} ≠ manifest ${JSON.stringify(want)}`);
    }
    expect(failures).toEqual([]);
  });

  it('golden pairs: castlewarp and test give identical tiles (and objects) from .graal and .nw', () => {
    const all = levels();
    for (const name of ['castlewarp', 'test']) {
      const bin = all.get(`aeva-nw-converter/reference_levels__${name}.graal`) as graal.GraalLevel;
      const nw = all.get(`aeva-nw-converter/reference_levels__${name}.nw`) as graal.GraalLevel;
      expect(bin.layers[0]!.tiles).toEqual(nw.layers[0]!.tiles);
      expect(content(bin)).toEqual(content(nw));
    }
    const test = all.get('aeva-nw-converter/reference_levels__test.graal') as graal.GraalLevel;
    // test.graal holds every tile id once, laid out like the tileset: (x, y) → id round-trips.
    expect(new Set(test.layers[0]!.tiles).size).toBe(4096);
    for (let i = 0; i < 4096; i += 37) {
      const id = test.layers[0]!.tiles[i]!;
      const { x, y } = graal.tileToTileset(id);
      expect(graal.tilesetToTile(x, y)).toBe(id);
    }
  });

  it('every binary level → .graal (own version and default GR-V1.03) → decode gives the same level', () => {
    const failures: string[] = [];
    let n = 0,
      inBytes = 0,
      outBytes = 0,
      identical = 0;
    for (const [file, v] of levels()) {
      if (v.format !== 'graal') continue;
      n++;
      const own = graal.encodeBinary(v, { version: v.version });
      const original = readBytes(join(dir, file));
      inBytes += original.length;
      outBytes += own.length;
      if (Buffer.from(own).equals(Buffer.from(original))) identical++;
      else if (!file.endsWith('village4.zelda')) failures.push(`${file}: re-encoded bytes differ from the original`);
      const back = graal.decodeBinary(own);
      if (back.version !== v.version || !isDeepStrictEqual(content(back), content(v)))
        failures.push(`${file} (own version): ${firstDiff(content(v), content(back))}`);
      const def = graal.decodeBinary(graal.encodeBinary(v));
      if (!isDeepStrictEqual(content(def), content(v))) failures.push(`${file} (GR-V1.03): ${firstDiff(content(v), content(def))}`);
    }
    console.log(`graal corpus: ${n} binary levels re-encoded; ${identical} byte-identical; re-encoded size ÷ original = ${(outBytes / inBytes).toFixed(3)}`);
    expect(failures).toEqual([]);
    // The run coder makes the original editor's choices: every real binary level comes back byte
    // for byte, except the Z3-V1.03 village4.zelda, whose links write whole numbers as `9.0`.
    expect(identical).toBe(n - 1);
    // A real run-length coder stays close to the original editor's output (one literal per tile would be ~3×).
    expect(outBytes / inBytes).toBeLessThan(1.05);
  });

  it('every binary level → .nw → decode gives the same level, or is refused for a sign glyph code .nw cannot spell', () => {
    const failures: string[] = [];
    let rawGlyphLevels = 0;
    for (const [file, v] of levels()) {
      if (v.format !== 'graal') continue;
      let once: Uint8Array;
      try {
        once = graal.encodeNw(v);
      } catch (e) {
        // It used to be written as '?' (silently another sign); now it is refused, with the sign's path.
        const rawSign = v.signs.findIndex((s) => RAW_GLYPH.test(s.text));
        if (e instanceof EncodeError && e.code === 'UNENCODABLE_TEXT' && e.path === `signs[${rawSign}].text`) rawGlyphLevels++;
        else failures.push(`${file}: ${String(e)}`);
        continue;
      }
      const back = graal.decodeNw(once);
      if (!isDeepStrictEqual(content(back), content(v))) failures.push(`${file}: ${firstDiff(content(v), content(back))}`);
    }
    console.log(`graal corpus: binary → .nw: ${rawGlyphLevels} levels refused (their signs hold glyph codes .nw cannot spell)`);
    expect(failures).toEqual([]);
    expect(rawGlyphLevels).toBeLessThan(5);
  });

  it('every .nw: a summary decode gives the summary and warnings of a full decode', () => {
    const failures: string[] = [];
    let n = 0;
    for (const r of rows) {
      const full = levels().get(r.file);
      if (full?.format !== 'graal-nw') continue;
      n++;
      const cheap = graal.decode(r.bytes, { sections: 'summary' });
      if (!isDeepStrictEqual(graal.summarize(cheap), graal.summarize(full)) || !isDeepStrictEqual(cheap.warnings, full.warnings)) failures.push(r.file);
    }
    expect(n).toBe(1979);
    expect(failures).toEqual([]);
  });
  it('every .nw → .nw → decode gives the same level, and re-encoding is byte-identical', () => {
    const failures: string[] = [];
    for (const [file, v] of levels()) {
      if (v.format !== 'graal-nw') continue;
      const once = graal.encodeNw(v);
      const back = graal.decodeNw(once);
      if (!isDeepStrictEqual(content(back), content(v)) || back.lineEnding !== v.lineEnding) failures.push(`${file}: ${firstDiff(content(v), content(back))}`);
      else if (!isDeepStrictEqual(graal.encodeNw(back), once)) failures.push(`${file}: second encode differs`);
    }
    expect(failures).toEqual([]);
  });

  it('.nw → .graal → decode keeps the level, or the encoder refuses what binary files cannot hold', () => {
    // Binary files lack: sign characters outside the glyph font, fractional NPC coordinates, a
    // baddy with no verse line at all, and unknown .nw lines. Those were written changed (#K(n),
    // rounded, one empty verse, dropped); now they are EncodeErrors naming the field.
    const failures: string[] = [];
    const refused: Record<string, number> = {};
    let n = 0,
      same = 0;
    for (const [file, v] of levels()) {
      if (v.format !== 'graal-nw') continue;
      n++;
      let bytes: Uint8Array;
      try {
        bytes = graal.encodeBinary(v);
      } catch (e) {
        if (!(e instanceof EncodeError)) {
          failures.push(`${file}: ${String(e)}`);
          continue;
        }
        const key = `${e.code} ${e.path.replace(/\[\d+\]/g, '[]')}`;
        refused[key] = (refused[key] ?? 0) + 1;
        continue;
      }
      const a = content(v) as Record<string, unknown>,
        b = content(graal.decodeBinary(bytes)) as Record<string, unknown>;
      if (isDeepStrictEqual(a, b)) same++;
      else failures.push(`${file}: ${firstDiff(a, b)}`);
    }
    console.log(`graal corpus: .nw → .graal: ${same} of ${n} levels unchanged, the rest refused: ${JSON.stringify(refused)}`);
    expect(failures).toEqual([]);
    expect(same / n).toBeGreaterThan(0.95);
  });

  it('every .gmap → .gmap → decode gives the same map', () => {
    let n = 0;
    for (const [file, v] of levels()) {
      if (v.format !== 'graal-gmap') continue;
      n++;
      expect(graal.decodeGmap(graal.encodeGmap(v)), file).toEqual(v);
      expect(v.levels.length, file).toBe(v.height);
    }
    expect(n).toBe(8);
  });
});
