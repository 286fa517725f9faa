// `levelkit site`: the index read in two streamed passes (index-rows.ts) — first the files alone
// (page keys, the names links resolve to, families), then each level with its rows of every table
// — its pages, catalogue row, bytes and thumbnail written as it comes; then the families, the
// worlds, the catalogue and the index page; last, the pages of levels no longer in the index go.
import { basename } from 'node:path';
import { IndexQuery } from '../archive-index/query.js';
import { BundledAssets } from '../cli/assets.js';
import { pngEncoder } from '../cli/png.js';
import { DecodeError, type DecodeOptions } from '../index.js';
import { readSiteAssets, writeSiteAssets } from './assets.js';
import { CatalogueBuilder, usesTokens } from './catalogue.js';
import { type Catalogue, dataScript, type LevelPageData } from './contract.js';
import { exactFamilies, type FamiliesOf, type Step, writeFamily } from './families.js';
import { pageShell } from './html.js';
import { commonFolder, Details, type FileEntry, fileEntries } from './index-rows.js';
import { LevelFiles } from './level-files.js';
import { levelPageData } from './level-page.js';
import { NameIndex, pageKey } from './names.js';
import { SiteFolder } from './out-folder.js';
import { type DrawingOptions, drawingDigest, ThumbDrawer, thumbKey } from './thumbs.js';
import { type DrawWorld, writeWorld } from './worlds.js';

export interface SiteOptions {
  index: string;
  out: string;
  force: boolean;
  /** The folder holding site.js and site.css (siteAssetsFolder()). */
  assets: string | undefined;
  decode: DecodeOptions;
  maxBytes: number;
  drawing: DrawingOptions;
  workers: number;
  timeoutMs: number;
  /** Progress and notes, one line each (stderr). */
  say: (line: string) => void;
  /** Called as levels are done: (levels done, levels in all). */
  progress?: (done: number, total: number) => void;
}

/** What the lead wires at merge: the family finder and the world drawer. */
export interface SiteParts {
  families?: FamiliesOf;
  drawWorld?: DrawWorld;
}

export interface SiteSummary {
  levels: number;
  /** Thumbnails drawn by this run, of those the levels need (kept ones are not drawn). */
  drawn: number;
  thumbnails: number;
  stale: number;
  families: number;
  worlds: number;
  /** Files of an earlier run removed (pages of levels gone from the index). */
  removed: number;
}

/** Folders whose files are this run's or go. thumbs/ is kept whole (keyed by content: a later run may need them again). */
const PRUNED = ['levels', 'files', 'families', 'diffs', 'worlds', 'data', 'assets'];

export async function buildSite(o: SiteOptions, parts: SiteParts = {}): Promise<SiteSummary> {
  SiteFolder.check(o.out, o.force);
  const assets = readSiteAssets(o.assets);
  const digest = drawingDigest(o.drawing);
  const index = await IndexQuery.open(o.index);
  try {
    const out = SiteFolder.open(o.out, o.force);
    return await build(o, parts, index, out, assets, digest);
  } finally {
    index.close();
  }
}

/** A file the site lists: one a format claimed, or one that failed to decode. */
const listed = (f: FileEntry) => f.format !== null || f.errorCode !== null;

async function build(
  o: SiteOptions,
  parts: SiteParts,
  index: IndexQuery,
  out: SiteFolder,
  assets: Map<string, Uint8Array>,
  digest: string,
): Promise<SiteSummary> {
  const common = await commonFolder(index);
  const shownPath = (f: FileEntry) => (f.path.startsWith(common) ? f.path.slice(common.length) : f.path) + (f.member === null ? '' : `::${f.member}`);
  const nameOf = (f: FileEntry) => f.name || basename(f.member ?? f.path);

  // Pass 1: the files alone, light (no summary, no rows): keys, names, families.
  const entries: FileEntry[] = [];
  const names = new NameIndex();
  const rowOf = new Map<string, number>();
  const idOfRow: string[] = [];
  for await (const f of fileEntries(index)) {
    entries.push(f);
    const key = listed(f) ? pageKey(f.path, f.member) : null;
    names.add(f, f.format, key);
    if (key !== null) {
      rowOf.set(f.id, rowOf.size);
      idOfRow.push(f.id);
    }
  }
  const found = (parts.families ?? exactFamilies)(entries.filter(listed).map((f) => ({ id: f.id, gridDigest: f.gridDigest, signature: f.signature })));
  const families: Catalogue['families'] = [];
  const familyOf = new Map<string, number>();
  for (const fam of found) {
    const rows = fam.ids.filter((id) => rowOf.has(id));
    if (rows.length < 2) continue;
    for (const id of rows) familyOf.set(id, families.length);
    families.push({ key: fam.key, rows: rows.map((id) => rowOf.get(id)!), exact: fam.exact });
  }

  // Pass 2: each level with its rows.
  const encodePng = await pngEncoder();
  const notes = new Set<string>();
  const say = (note: string) => {
    if (!notes.has(note)) o.say(note);
    notes.add(note);
  };
  const total = rowOf.size;
  let done = 0;
  const tick = () => o.progress?.(++done, total);
  const drawer = new ThumbDrawer({
    out,
    decode: o.decode,
    drawing: o.drawing,
    workers: o.workers,
    timeoutMs: o.timeoutMs,
    assets: new BundledAssets(say, {
      ...(o.drawing.tileset ? { tileset: o.drawing.tileset } : {}),
      ...(o.drawing.graphics ? { graphics: o.drawing.graphics } : {}),
    }),
    encodePng,
    say,
  });
  const catalogue = new CatalogueBuilder();
  const files = new LevelFiles(o.maxBytes);
  const steps = new Map<string, Step>();
  const gmaps: { key: string; name: string; row: number; entry: FileEntry }[] = [];
  let stale = 0;
  /** Distinct thumbnails the levels need, kept or drawn. */
  const needed = new Set<string>();
  const details = await Details.open(index);
  try {
    for (const f of entries) {
      const d = await details.of(f.id);
      if (!listed(f)) continue;
      const key = pageKey(f.path, f.member);
      const name = nameOf(f);
      const path = shownPath(f);
      let thumb = '';
      let bytes: string | null = null;
      let staleWhy: string | null = null;
      let draw: Uint8Array | undefined;
      let thumbName: string | undefined;
      if (f.sha256 !== null) {
        thumbName = thumbKey(f.sha256, digest);
        const kept = f.errorCode === null ? drawer.known(thumbName) : '';
        const rel = `files/${f.sha256}.js`;
        if (kept !== undefined && out.has(rel) && files.unchanged(f)) {
          out.keep(rel);
          thumb = kept;
          bytes = rel;
        } else {
          const got = await files.read(f);
          if ('stale' in got) {
            staleWhy = got.stale;
            stale++;
          } else {
            if (out.has(rel)) out.keep(rel);
            else
              out.write(
                rel,
                dataScript('bytes', { sha256: f.sha256, base64: Buffer.from(got.bytes.buffer, got.bytes.byteOffset, got.bytes.byteLength).toString('base64') }),
              );
            bytes = rel;
            if (kept !== undefined) thumb = kept;
            else draw = got.bytes;
          }
        }
        if (staleWhy === null && f.errorCode === null) needed.add(thumbName);
      }
      const family = familyOf.get(f.id) ?? -1;
      const links: LevelPageData['links'] = [];
      const linked = new Set<string>();
      for (const ob of d.objects) {
        const kind = ob[1] === 'link' ? 'link' : ob[1] === 'gmap-level' ? 'gmap' : null;
        const target = ob[7];
        if (!kind || typeof target !== 'string' || !target || linked.has(`${kind}\0${target}`)) continue;
        linked.add(`${kind}\0${target}`);
        links.push({ kind, name: target, key: names.find(f.path, f.member, target)?.key ?? null });
      }
      for (const sibling of names.siblingsOf(f.path, f.member, key)) links.push({ kind: 'sibling', ...sibling });
      const row = catalogue.add({
        key,
        name,
        path,
        format: f.format ?? '',
        version: f.version ?? '',
        author: f.author,
        bytes: f.bytes,
        width: f.width,
        height: f.height,
        layers: f.layers,
        objects: f.objects,
        warnings: f.warnings,
        findings: d.findings.length,
        family,
        thumb,
        uses: usesTokens(d.tiles, d.objects, d.images),
        text: [name, path, f.author ?? '', ...d.texts.map((t) => String(t[2] ?? ''))].join('\n'),
        error: f.errorCode ?? '',
        stale: staleWhy ?? '',
      });
      const page = levelPageData(f, d, { key, name, path, family, thumb, bytes, stale: staleWhy, links });
      const writePage = (drawn: string) => {
        page.thumb = drawn;
        catalogue.setThumb(row, drawn);
        const step = steps.get(f.id);
        if (step) step.thumb = drawn;
        out.write(`levels/${key}.js`, dataScript('level', page));
        tick();
      };
      out.write(`levels/${key}.html`, pageShell('level', key, name));
      if (family >= 0)
        steps.set(f.id, { key, name, path, mtime: f.mtime, version: f.version ?? '', thumb, sha256: f.errorCode === null ? f.sha256 : null, file: f });
      if (f.format === 'graal-gmap' && f.errorCode === null && bytes !== null) gmaps.push({ key, name, row, entry: f });
      if (draw && thumbName)
        await drawer.draw(thumbName, { path: Buffer.from(f.path), member: f.member, rel: Buffer.from(path), named: false, bytes: draw }, writePage);
      else writePage(thumb);
    }
    await drawer.finish();
  } catch (e) {
    // The workers end whatever stopped the run (a write the disk refused), so the process can exit.
    await drawer.finish().catch(() => {});
    throw e;
  } finally {
    details.close();
    files.close();
  }

  const familyFiles = new LevelFiles(o.maxBytes);
  try {
    for (const fam of families)
      await writeFamily(
        { key: fam.key, ids: [], exact: fam.exact },
        fam.rows.map((r) => steps.get(idOfRow[r]!)!),
        { out, files: familyFiles, decode: o.decode, encodePng },
      );
  } finally {
    familyFiles.close();
  }

  const worlds: Catalogue['worlds'] = [];
  if (parts.drawWorld) {
    const worldFiles = new LevelFiles(o.maxBytes);
    try {
      for (const g of gmaps) {
        const got = await worldFiles.read(g.entry);
        if ('stale' in got) continue;
        const c = { out, files: worldFiles, names, decode: o.decode, drawing: o.drawing, encodePng, drawWorld: parts.drawWorld };
        // A world too big to draw (drawWorld's limits) is a level page without a world page, not a failed site.
        const wrote = await writeWorld(g.key, g.name, g.entry, got.bytes, c).catch((e: unknown) => {
          if (e instanceof DecodeError || (e instanceof RangeError && (e as { code?: string }).code === 'LIMIT_EXCEEDED')) return false;
          throw e;
        });
        if (wrote) worlds.push({ key: g.key, name: g.name, row: g.row });
      }
    } finally {
      worldFiles.close();
    }
  }

  writeSiteAssets(out, assets);
  out.write(
    'data/catalogue.js',
    dataScript('catalogue', catalogue.finish(new Date().toISOString(), basename(o.index.replace(/\/+$/, '')) || o.index, families, worlds)),
  );
  out.write('index.html', pageShell('index', '', 'levelkit site'));
  let removed = 0;
  for (const dir of PRUNED) removed += out.prune(dir);
  return { levels: catalogue.size, drawn: drawer.drawn, thumbnails: needed.size, stale, families: families.length, worlds: worlds.length, removed };
}
