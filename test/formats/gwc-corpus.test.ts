// GWC/GWZ over the real-file corpus (../shared/corpus/gwc, skipped visibly when absent): every
// cartridge decodes, matches its MANIFEST.tsv facts, re-encodes byte for byte and gives identical
// results with the js and wasm kernels; every GWZ lists its MANIFEST members and round-trips as
// an archive; GWZ/GWC pairs from WF.Cartridges relate through compareGwz.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { GwcCartridge, GwzArchive } from '../../src/formats/gwc/index.js';
import { gwc, summarize } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';

/** MANIFEST.tsv rows: file → notes. */
function notes(path: string): Map<string, string> {
  const rows = readFileSync(path, 'utf8').trim().split('\n').slice(1);
  return new Map(
    rows.map((r) => {
      const c = r.split('\t');
      return [c[0]!, c.at(-1)!];
    }),
  );
}

describeCorpus('gwc', 'gwc corpus', (dir) => {
  const files = listFiles(dir, /\.gwc$/).filter((p) => !p.includes('/gwz/'));
  const gwzFiles = listFiles(join(dir, 'gwz'), /\.gwz$/);
  const facts = notes(join(dir, 'MANIFEST.tsv'));
  const gwzFacts = notes(join(dir, 'gwz', 'MANIFEST.tsv'));

  it('has the 27 GWC and 14 GWZ files the manifests list', () => {
    expect(files.length).toBe(27);
    expect(gwzFiles.length).toBe(14);
    expect(files.map((p) => p.slice(dir.length + 1)).sort()).toEqual([...facts.keys()].sort());
  });

  it.each(files.map((p) => [p.slice(dir.length + 1), p]))('%s: manifest facts, byte-exact re-encode, js = wasm', (name, p) => {
    const bytes = readBytes(p);
    const n = facts.get(name)!;
    const c = gwc.decode(bytes, { backend: 'js' }) as GwcCartridge;
    expect(gwc.decode(bytes, { backend: 'wasm' })).toEqual(c);
    const s = summarize(c).summary;
    const num = (re: RegExp) => Number(re.exec(n)![1]);
    expect(s.objects).toBe(num(/objects=(\d+)/));
    expect(c.headerLength).toBe(num(/headerLen=(\d+)/));
    expect(s.deleted).toBe(num(/deleted=(\d+)/));
    const types = /types=([\d:,]+)/.exec(n)?.[1];
    const byNumber: Record<string, number> = {};
    for (const m of c.media) byNumber[m.type!] = (byNumber[m.type!] ?? 0) + 1;
    expect(byNumber).toEqual(
      types
        ? Object.fromEntries(
            types
              .split(',')
              .map((t) => t.split(':'))
              .map(([k, v]) => [k, Number(v)]),
          )
        : {},
    );
    expect(s.created?.slice(0, 19)).toBe(/created=([\d\-T:]+)/.exec(n)![1]);
    expect([c.header.splashId, c.header.iconId]).toEqual([num(/splash=(-?\d+)/), num(/icon=(-?\d+)/)]);
    expect(c.header.player.text).toBe(/player="([^"]*)"/.exec(n)![1]);
    expect(c.header.playerId).toBe(BigInt(/playerId=(-?\d+)/.exec(n)![1]!));
    expect(c.header.completionCode.raw.length).toBe(num(/completionCode len=(\d+)/));
    expect(s.playAnywhere).toBe(/play-anywhere/.test(n));
    expect(c.lua.header).toMatchObject({ version: 0x51, littleEndian: true, intSize: 4, sizeTSize: 4, instructionSize: 4, numberSize: 8 });
    expect(s.luaSource).toMatch(/^@(C:\/Users\/.*urwigo-src-|E:\/webtempfiles\/)/);
    expect(s.luaSource!.startsWith('@E:/webtempfiles/')).toBe(/wherigo\.com/.test(n));
    const ascending = c.table.every((r, i) => i === 0 || r.id > c.table[i - 1]!.id);
    expect(ascending).toBe(!/ids NOT in ascending order/.test(n));
    const valid2 = /"valid" byte = 2 on (\d+)/.exec(n);
    expect(c.media.filter((m) => m.valid === 2).length).toBe(valid2 ? Number(valid2[1]) : 0);
    // Nothing is warned about in real files: Urwigo's FDL tones are the second entries of valid-2 objects.
    expect(c.warnings).toEqual([]);
    expect(c.media.filter((m) => m.valid === 2).every((m) => m.extraEntries?.length === 1 && m.extraEntries[0]!.type === 19)).toBe(true);
    // The manifest counts bytes after the last object's first entry: its further entries, then `trailing`.
    const last = c.media[c.table[c.table.length - 1]!.id - 1];
    const lastExtra = (last?.extraEntries ?? []).reduce((sum, e) => sum + 8 + e.length, 0);
    if (/trailing bytes/.test(n)) expect(c.trailing.length + lastExtra).toBe(num(/(\d+) trailing bytes/));
    expect(Buffer.compare(Buffer.from(gwc.encode(c)), Buffer.from(bytes))).toBe(0);
    const lite = gwc.decode(bytes, { sections: 'summary' });
    expect(summarize(lite)).toEqual(summarize(c));
  });

  it.each(gwzFiles.map((p) => [p.slice(dir.length + 5), p]))('%s: members as listed, archive round trip', (name, p) => {
    const bytes = readBytes(p);
    const z = gwc.decode(bytes) as GwzArchive;
    expect(z.format).toBe('gwz');
    const listed = /entries=\d+: (.*)$/.exec(gwzFacts.get(name)!)![1]!.split(', ');
    expect([...z.media.map((m) => m.name), z.luaFile]).toEqual(listed);
    expect(z.warnings).toEqual([]);
    expect(z.lua.text).toMatch(/Wherigo/);
    expect(summarize(z).summary).toEqual({ luaFile: '_cartridge.lua', media: listed.length - 1, bytes: bytes.length });
    const back = gwc.decode(gwc.encode(z)) as GwzArchive;
    expect({ ...back, bytes: 0 }).toEqual({ ...z, bytes: 0 });
  });

  it('compareGwz: WF.Cartridges sources match their compiled media byte for byte; Garmin FDL tones are not table objects', () => {
    const pick = (re: RegExp, list: string[]) => list.find((p) => re.test(p))!;
    const timer = gwc.compareGwz(
      gwc.readGwz(readBytes(pick(/TimerTest__0fe24ead/, gwzFiles))),
      gwc.decode(readBytes(pick(/TimerTest__5227b2eb/, files))) as GwcCartridge,
    );
    expect(timer).toMatchObject({ gwzMedia: 4, gwcMedia: 2, sameCount: false, typeDifferences: { fdl: 2 } });
    expect(timer.matched.map((m) => m.name).sort()).toEqual(['ok.mp3', 'telefon.mp3']);
    // Urwigo wrote each tone as the second entry of its mp3 object (valid byte 2), no table row of its own.
    expect(timer.matchedOrphans.map((o) => [o.name, o.where, o.type])).toEqual([
      ['garmin_telefon.fdl', 'objects[1].extraEntries[0]', 19],
      ['garmin_ok.fdl', 'objects[2].extraEntries[0]', 19],
    ]);
    const dialog = gwc.compareGwz(
      gwc.readGwz(readBytes(pick(/DialogTest__2e0b402c/, gwzFiles))),
      gwc.decode(readBytes(pick(/DialogTest__4e3453e0/, files))) as GwcCartridge,
    );
    expect(dialog).toMatchObject({ sameCount: true, typeDifferences: {}, unmatched: [], unmatchedIds: [] });
  });
});
