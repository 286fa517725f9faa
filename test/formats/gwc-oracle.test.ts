// The Wherigo oracle (test/helpers/wherigo-oracle.ts) on the real cartridges: every corpus GWC's
// chunk and every GWZ's source runs under lua5.1 with the recording Wherigo library, builds a
// sane set of objects whose cartridge object is the one the GWC header names, and a GWZ gives the
// same objects as the GWC built from it at the same commit, up to what the compilers change.
// Skipped visibly without ../shared/corpus or lua5.1; failing under CI.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import type { ObjectFacts } from '../../src/formats/gwc/analysis/types.js';
import { gwc } from '../../src/index.js';
import { describeWith } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { oracleCorpus, oracleFacts } from '../helpers/wherigo-oracle.js';

/** A row of a corpus MANIFEST.tsv: where the file came from. */
interface Source {
  file: string;
  repo: string;
  commit: string;
  path: string;
}
const manifest = (path: string): Source[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [file = '', repo = '', commit = '', p = ''] = line.split('\t');
      return { file, repo, commit, path: p };
    });

/**
 * The one cartridge whose Lua keeps another GUID than its header: compiled on wherigo.com (player
 * charlenni), whose compiler wrote a GUID of its own into the header while the chunk keeps the
 * builder's Id (the one the GWZ of the same commit has, see the pair test).
 */
const HEADER_GUID_DIFFERS = new Set(['WF.Cartridges__TimerTest__a474563a.gwc']);

/**
 * GWC/GWZ pairs of one commit that are not the same cartridge, and how they differ (what
 * `differences` lists: objects only one side makes, fields where matched objects disagree).
 */
const PAIR_DIFFERENCES: Record<string, { why: string; differences: string[] }> = {
  'Adventure-wherigo__adventure__ce3455d5.gwc': {
    why: 'geocache_release_v1.gwz was saved with two zones moved from where adventure.gwc has them, and the final one described anew',
    differences: ['#25 points', '#33 description', '#33 points'],
  },
  'WF.Cartridges__TimerTest__637e4776.gwc': {
    why: 'the GWC was compiled after a fourth timer (and the item that starts it) was added; the GWZ of that commit predates them',
    differences: ['GWC only item:Timer4', 'GWC only command:null', 'GWC only timer:Timer4'],
  },
  'WF.Cartridges__Wherigo_Testsuite__d9ca8690.gwc': {
    why: 'Wherigo_Testsuite.gwc is a later version than Testsuite.gwz beside it: picture and sound format tests added, Tools split up, a timer sped up',
    differences: [
      ...['media:SpecChars', 'media:AniGif', 'media:JPGFormat', 'media:GifFormat', 'media:PNGFormat', 'media:BMPFormat', 'media:Sound_Wav'].map(
        (o) => `GWC only ${o}`,
      ),
      ...['media:Sound_Ogg', 'item:System', 'item:Pics and Chars', 'command:null', 'item:Sounds', 'command:null', 'command:null'].map((o) => `GWC only ${o}`),
      ...['command:null', 'command:null', 'input:Soundformat', 'input:Picturesize', 'input:Pictureformat', 'input:Booleanstate'].map((o) => `GWC only ${o}`),
      ...['item:Tools', 'command:null', 'item:Picturesize'].map((o) => `GWZ only ${o}`),
      // The Bearing item's text and the CheckPosition timer (3 s → 2 s) were changed; an input lost a trailing space.
      '#45 description',
      '#82 duration',
      '#87 description',
    ],
  },
};

/**
 * A description as the compilers store it (Urwigo's local compile and wherigo.com alike): the
 * builder's plain text as HTML, `<` and `>` escaped, `<BR>` before each newline, each space after
 * the first of a run as `&nbsp;`. Seen on every pair whose descriptions hold such characters.
 */
const compiledDescription = (s: string) =>
  s
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n/g, '<BR>\n')
    .replace(/ {2,}/g, (run) => ` ${'&nbsp;'.repeat(run.length - 1)}`);

const key = (o: ObjectFacts) => `${o.kind}:${o.name}`;

/** The longest common subsequence of `a` and `b` by kind and name, as [index in a, index in b] pairs. */
function match(a: ObjectFacts[], b: ObjectFacts[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  const len = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) len[i]![j] = key(a[i]!) === key(b[j]!) ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const out: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (key(a[i]!) === key(b[j]!)) out.push([i++, j++]);
    else if (len[i + 1]![j]! >= len[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/**
 * Where the GWC's objects and the GWZ's disagree: `GWC only kind:name` / `GWZ only kind:name` for
 * objects the other side does not make (matched in order by kind and name), `#n field` (n: the GWC
 * object) where matched objects differ, references compared through the matching. `freshIds`: the
 * GWC was compiled locally by Urwigo, which gives every object a new GUID at each compile (all of
 * them differ in every such pair), so ids only have to be set alike.
 */
function differences(fromGwc: ObjectFacts[], fromGwz: ObjectFacts[], freshIds: boolean): string[] {
  const pairs = match(fromGwc, fromGwz);
  const toGwz = new Map(pairs);
  const matchedGwz = new Set(pairs.map(([, j]) => j));
  const out = [
    ...fromGwc.flatMap((o, i) => (toGwz.has(i) ? [] : [`GWC only ${key(o)}`])),
    ...fromGwz.flatMap((o, j) => (matchedGwz.has(j) ? [] : [`GWZ only ${key(o)}`])),
  ];
  const ref = <T>(r: T) => (typeof r === 'number' ? (toGwz.get(r) ?? `GWC #${r}`) : r);
  for (const [i, j] of pairs) {
    const a = { ...fromGwc[i]!, container: ref(fromGwc[i]!.container), media: ref(fromGwc[i]!.media), icon: ref(fromGwc[i]!.icon) };
    const b = { ...fromGwz[j]!, description: fromGwz[j]!.description === null ? null : compiledDescription(fromGwz[j]!.description!) };
    for (const field of Object.keys(b) as (keyof ObjectFacts)[]) {
      const same = field === 'id' && freshIds ? (a.id === null) === (b.id === null) : JSON.stringify(a[field]) === JSON.stringify(b[field]);
      if (!same) out.push(`#${i} ${field}`);
    }
  }
  return out;
}

/** What every run must give: one cartridge first, references to objects of the right kind, fields on the kinds that have them. */
function expectSane(facts: ObjectFacts[], name: string): void {
  expect(facts.length, name).toBeGreaterThan(1);
  expect(
    facts.map((o) => o.kind).filter((k) => k === 'cartridge'),
    name,
  ).toEqual(['cartridge']);
  expect(facts[0]!.kind, name).toBe('cartridge');
  facts.forEach((o, i) => {
    const at = `${name} #${i} (${o.kind} ${o.name})`;
    for (const r of [o.media, o.icon]) if (r !== null) expect(facts[r as number]?.kind, `${at} media/icon`).toBe('media');
    if (o.container !== null && o.container !== 'Player')
      expect(['zone', 'item', 'character'], `${at} container`).toContain(facts[o.container as number]?.kind);
    if (o.kind === 'zone') {
      expect(Array.isArray(o.points) && o.points.length, `${at} points`).toBeGreaterThanOrEqual(3);
      for (const p of o.points as [number, number][]) expect(Math.abs(p[0]) <= 90 && Math.abs(p[1]) <= 180, `${at} ${p}`).toBe(true);
    } else expect(o.points, at).toBeNull();
    if (o.kind !== 'timer') expect(o.duration, at).toBeNull();
    if (o.kind !== 'input') expect([o.inputType, o.choices], at).toEqual([null, null]);
  });
}

describeWith(oracleCorpus(), 'the Wherigo oracle on the corpus cartridges', (dir) => {
  const gwcFiles = listFiles(dir, /\.gwc$/).filter((p) => !p.includes('/gwz/'));
  const gwzFiles = listFiles(join(dir, 'gwz'), /\.gwz$/);
  // Each cartridge runs once in this file.
  const runs = new Map<string, ObjectFacts[]>();
  const run = (path: string): ObjectFacts[] => {
    let facts = runs.get(path);
    if (!facts) {
      const decoded = gwc.decode(readBytes(path));
      facts = oracleFacts(decoded.format === 'gwc' ? { chunk: decoded.lua.bytes } : { source: decoded.lua.text });
      runs.set(path, facts);
    }
    return facts;
  };

  it('has the 27 GWC and 14 GWZ', () => {
    expect(gwcFiles).toHaveLength(27);
    expect(gwzFiles).toHaveLength(14);
  });

  it.each(gwcFiles.map((p) => [basename(p), p]))('GWC %s: sane objects, the cartridge the header names', (name, path) => {
    const cart = gwc.decode(readBytes(path)) as gwc.GwcCartridge;
    const facts = run(path);
    expectSane(facts, name);
    // Each ZMedia the chunk makes is a media object of the file, in order (object n = media id n).
    expect(
      facts.filter((o) => o.kind === 'media'),
      name,
    ).toHaveLength(cart.media.length);
    const [c] = facts;
    // wherigo.com writes the header's texts in ASCII, a '?' for each other character (MANIFEST.tsv).
    expect([c!.name, c!.name!.replace(/[^\x20-\x7e]/gu, '?')], name).toContain(cart.header.name.text);
    if (HEADER_GUID_DIFFERS.has(name)) expect(c!.id, name).not.toBe(cart.header.guid.text);
    else expect(c!.id, name).toBe(cart.header.guid.text);
  });

  it.each(gwzFiles.map((p) => [basename(p), p]))('GWZ %s: the root Lua source runs to sane objects', (name, path) => {
    const archive = gwc.decode(readBytes(path)) as gwc.GwzArchive;
    const facts = run(path);
    expectSane(facts, name);
    // A ZMedia's resources are the zip's media members (a Garmin .fdl tone beside its sound).
    expect(facts.filter((o) => o.kind === 'media').length, name).toBeLessThanOrEqual(archive.media.length);
  });

  const gwcSources = manifest(join(dir, 'MANIFEST.tsv'));
  const pairs = manifest(join(dir, 'gwz/MANIFEST.tsv')).flatMap((z) =>
    gwcSources.filter((g) => g.repo === z.repo && g.commit === z.commit && dirname(g.path) === dirname(z.path)).map((g) => [g.file, z.file] as const),
  );

  it('pairs 12 GWC with the GWZ of their repository, commit and folder', () => expect(pairs).toHaveLength(12));

  it.each(pairs)('GWC %s and GWZ %s make the same objects', (gwcName, gwzName) => {
    const cart = gwc.decode(readBytes(join(dir, gwcName))) as gwc.GwcCartridge;
    const known = PAIR_DIFFERENCES[gwcName];
    const found = differences(run(join(dir, gwcName)), run(join(dir, 'gwz', gwzName)), cart.header.playerId === -1n);
    expect(found, known?.why ?? gwcName).toEqual(known?.differences ?? []);
  });
});
