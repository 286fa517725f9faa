// families/<key>.html/.js: the versions of one level as a chain (contract.ts, FamilyPageData),
// oldest first (file date, else version), each step with its `levelkit diff --png` picture
// (cli/diff-png.ts) and its changes counted in words. A diff is kept by the contents of its two
// levels (diffs/<a>-<b>.png and .txt), so a re-run draws only the new steps.
import { highlightedPicture } from '../cli/diff-png.js';
import type { PngEncode } from '../cli/png.js';
import { pngOf } from '../cli/render-level.js';
import { type Change, type DecodeOptions, decode, diff } from '../index.js';
import { dataScript, type FamilyPageData, SITE_DATA_VERSION } from './contract.js';
import { pageShell } from './html.js';
import type { LevelFiles } from './level-files.js';
import type { SiteFolder } from './out-folder.js';

/** A family as the family finder gives it (src/archive-index/families.ts: familiesOf). */
export interface Family {
  key: string;
  ids: string[];
  exact: boolean;
}

export type FamiliesOf = (rows: Iterable<{ id: string; gridDigest: string | null; signature: string | null }>) => Family[];

/** Without a family finder: the exact re-saves only, files whose main grids have the same digest. */
export const exactFamilies: FamiliesOf = (rows) => {
  const byDigest = new Map<string, string[]>();
  for (const r of rows) {
    if (r.gridDigest === null) continue;
    const ids = byDigest.get(r.gridDigest);
    if (ids) ids.push(r.id);
    else byDigest.set(r.gridDigest, [r.id]);
  }
  return [...byDigest].filter(([, ids]) => ids.length > 1).map(([digest, ids]) => ({ key: `grid-${digest.slice(0, 16)}`, ids, exact: true }));
};

/** A family member as the chain needs it. */
export interface Step {
  key: string;
  name: string;
  path: string;
  mtime: number | null;
  version: string;
  thumb: string;
  sha256: string | null;
  file: import('./level-files.js').IndexedFile;
}

/** Oldest first: by file date, then version, then path. */
export function chainOrder(steps: Step[]): Step[] {
  return [...steps].sort(
    (a, b) =>
      (a.mtime ?? Number.POSITIVE_INFINITY) - (b.mtime ?? Number.POSITIVE_INFINITY) ||
      a.version.localeCompare(b.version, 'en', { numeric: true }) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

/** `142 cells changed, 1 image added`: each kind of change counted, cells by their area. */
export function countsInWords(changes: readonly Change[]): string {
  if (changes.length === 0) return 'no changes';
  let cells = 0;
  const kinds = new Map<string, number>();
  for (const c of changes) {
    if (c.kind === 'tile') cells += (c.w ?? 1) * (c.h ?? 1);
    else kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
  }
  const words = cells ? [`${cells} cell${cells === 1 ? '' : 's'} changed`] : [];
  for (const [kind, n] of kinds) {
    const [what, ...how] = kind.split('-');
    words.push(`${n} ${what}${n === 1 ? '' : 's'}${how.length ? ` ${how.join(' ')}` : ' changed'}`);
  }
  return words.join(', ');
}

export interface FamilyContext {
  out: SiteFolder;
  files: LevelFiles;
  decode: DecodeOptions;
  encodePng: PngEncode;
}

/** Writes one family's page and its diff pictures. */
export async function writeFamily(family: Family, steps: Step[], c: FamilyContext): Promise<void> {
  const chain = chainOrder(steps);
  const data: FamilyPageData = { version: SITE_DATA_VERSION, key: family.key, exact: family.exact, steps: [] };
  for (let i = 0; i < chain.length; i++) {
    const s = chain[i]!;
    const before = chain[i - 1];
    data.steps.push({
      key: s.key,
      name: s.name,
      path: s.path,
      date: s.mtime === null ? null : new Date(s.mtime).toISOString(),
      formatVersion: s.version,
      thumb: s.thumb,
      diff: before ? await stepDiff(before, s, c) : null,
    });
  }
  c.out.write(`families/${family.key}.js`, dataScript('family', data));
  c.out.write(`families/${family.key}.html`, pageShell('family', family.key, `family of ${chain[0]?.name ?? family.key}`));
}

async function stepDiff(a: Step, b: Step, c: FamilyContext): Promise<NonNullable<FamilyPageData['steps'][number]['diff']>> {
  if (a.sha256 !== null && a.sha256 === b.sha256) return { picture: null, counts: 'the same file', same: true };
  if (a.sha256 === null || b.sha256 === null) return { picture: null, counts: 'not compared (a file did not decode)', same: false };
  const name = `diffs/${a.sha256.slice(0, 16)}-${b.sha256.slice(0, 16)}`;
  if (c.out.has(`${name}.txt`)) {
    c.out.keep(`${name}.txt`);
    const [counts = '', picture = ''] = readKept(c.out, `${name}.txt`).split('\n');
    if (picture) c.out.keep(picture);
    return { picture: picture || null, counts, same: counts === 'no changes' };
  }
  const [ra, rb] = [await c.files.read(a.file), await c.files.read(b.file)];
  if ('stale' in ra || 'stale' in rb) return { picture: null, counts: 'not compared (a file changed since the index was made)', same: false };
  let counts: string;
  let picture: string | null = null;
  try {
    const [va, vb] = [decode(ra.bytes, c.decode), decode(rb.bytes, c.decode)];
    const changes = diff(va, vb);
    counts = countsInWords(changes);
    const drawn = highlightedPicture(vb, changes);
    if (!drawn.empty) {
      picture = `${name}.png`;
      c.out.write(picture, pngOf(drawn.picture, c.encodePng));
    }
  } catch (e) {
    counts = `not compared: ${(e as Error).message}`;
  }
  c.out.write(`${name}.txt`, `${counts}\n${picture ?? ''}\n`);
  return { picture, counts, same: counts === 'no changes' };
}

function readKept(out: SiteFolder, rel: string): string {
  return out.read(rel).toString('utf8');
}
