// The contract every format follows (ARCHITECTURE: one namespace shape, declared through
// defineFormat): checked by the type checker (`satisfies`) and at run time over the registry.
import { describe, expect, it } from 'vitest';
import type { AnyFormat } from '../src/formats/define.js';
import type { GraalDecoded, GraalEncodeOptions, GraalSummary } from '../src/formats/graal/index.js';
import { FORMATS } from '../src/formats/registry.js';
import * as api from '../src/index.js';
import { type FormatNamespace, graal, gwc, teeworlds, wdata, wwd } from '../src/index.js';
import { FIXTURES, listFiles, readBytes } from './helpers/paths.js';

// Type-level: each namespace has exactly the shared members with the shared signatures.
wwd satisfies FormatNamespace<'wwd', wwd.WwdLevel, wwd.WwdSummary, wwd.WwdEncodeOptions>;
teeworlds satisfies FormatNamespace<'teeworlds', teeworlds.TeeworldsMap, teeworlds.TeeworldsSummary, teeworlds.EncodeOptions>;
graal satisfies FormatNamespace<'graal' | 'graal-nw' | 'graal-gmap', GraalDecoded, GraalSummary, GraalEncodeOptions>;
gwc satisfies FormatNamespace<'gwc' | 'gwz', gwc.GwcDecoded, gwc.GwcAnySummary, gwc.GwcEncodeOptions>;
wdata satisfies FormatNamespace<'wdata', wdata.WdataLevel, wdata.WdataSummary, wdata.WdataEncodeOptions>;

const NAMESPACES = { wwd, teeworlds, graal, gwc, wdata } as const;
const MEMBERS = ['sniff', 'decode', 'encode', 'summarize', 'mainGrid', 'extract'] as const;

describe('format contract', () => {
  it('every registered format has a namespace with the shared members, and the same functions as its definition', () => {
    expect(Object.keys(NAMESPACES).sort()).toEqual(FORMATS.map((f) => f.ids[0]).sort());
    for (const def of FORMATS) {
      const ns = NAMESPACES[def.ids[0] as keyof typeof NAMESPACES];
      for (const m of MEMBERS) {
        expect(typeof ns[m], `${def.ids[0]}.${m}`).toBe('function');
        expect(ns[m], `${def.ids[0]}.${m} is the registered one`).toBe(def[m]);
      }
      expect(def.extensions.length).toBeGreaterThan(0);
      for (const ext of def.extensions) expect(ext).toMatch(/^\.[a-z0-9]+$/);
    }
  });

  it('FORMAT_IDS lists each id once, and every fixture detects as one of them', () => {
    expect(new Set(api.FORMAT_IDS).size).toBe(api.FORMAT_IDS.length);
    const files = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|gwc|gwz|wdata)$/).filter((p) => !p.includes('/bad/'));
    expect(files.length).toBeGreaterThan(10);
    for (const p of files) expect(api.FORMAT_IDS, p).toContain(api.detect(readBytes(p)));
  });

  it('sniff gives a format id or undefined, never a boolean, and never throws on short or odd input', () => {
    for (const def of FORMATS) {
      for (const head of [new Uint8Array(0), Uint8Array.of(1), new Uint8Array(64).fill(0xff)]) {
        const got = def.sniff(head);
        expect(got === undefined || def.ids.some((id) => id === got)).toBe(true);
      }
    }
  });

  it('each fixture: the namespace decode equals the top-level decode, summarize/mainGrid agree, and owns() is exact', () => {
    for (const p of listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|gwc|gwz|wdata)$/).filter((f) => !f.includes('/bad/'))) {
      const bytes = readBytes(p);
      const value = api.decode(bytes);
      const defs: readonly AnyFormat[] = FORMATS;
      const def = defs.find((f) => f.owns(value));
      expect(def, p).toBeDefined();
      expect(defs.filter((f) => f.owns(value)).length).toBe(1);
      expect(def!.decode(bytes)).toEqual(value);
      expect(api.summarize(value)).toEqual(def!.summarize(value));
      expect(api.mainGrid(value)).toEqual(def!.mainGrid(value));
    }
  });

  it('the top-level functions refuse a value no format owns with a TypeError', () => {
    const alien = { format: 'zip', warnings: [] } as unknown as api.AnyDecoded;
    expect(() => api.summarize(alien)).toThrow(TypeError);
    expect(() => api.encode(alien)).toThrow(TypeError);
    expect(() => api.mainGrid(alien)).toThrow(TypeError);
  });

  it('extract: every fixture gives a JSON of its model plus its files, at safe relative paths', () => {
    const kinds = new Set<string>();
    for (const p of listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|gwc|gwz)$/).filter((f) => !f.includes('/bad/'))) {
      const value = api.decode(readBytes(p));
      const files = api.extract(value);
      // A cartridge adds the objects its Lua makes (objects.json, issue 42) beside the JSON of its model.
      const objects = /\.gw[cz]$/.test(p) ? files.filter((f) => f.path === 'objects.json') : [];
      expect(objects.length, p).toBe(/\.gw[cz]$/.test(p) ? 1 : 0);
      for (const o of objects) expect('bytes' in o && JSON.parse(new TextDecoder().decode(o.bytes)), p).toBeTruthy();
      const json = files.filter((f) => f.path.endsWith('.json') && !objects.includes(f));
      expect(json.length, p).toBe(1);
      const only = json[0]!;
      expect('bytes' in only && JSON.parse(new TextDecoder().decode(only.bytes)), p).toBeTruthy();
      expect(new Set(files.map((f) => f.path)).size, `${p}: paths are distinct`).toBe(files.length);
      for (const f of files) {
        expect(f.path, p).not.toMatch(/(^|\/)\.\.?(\/|$)|^\/|\\/);
        if ('image' in f) expect(f.image.pixels.length, `${p} ${f.path}`).toBe(f.image.width * f.image.height * f.image.channels);
        kinds.add(f.path.replace(/^.*\./, ''));
      }
    }
    // Every kind of output shows up somewhere in the fixtures.
    for (const ext of ['json', 'png', 'nw', 'luac']) expect(kinds, ext).toContain(ext);
  });
});
