// `levelkit site <index> -o <folder>`: a folder of static pages to browse an archive with no
// server (src/site/: the builder; web/site/: the pages). Thumbnails on render's worker pool, kept
// by content between runs; a folder that is not a site is refused (exit 2) unless --force.
import { EngineMissing } from '../../archive-index/engine.js';
import { familiesOf } from '../../archive-index/families.js';
import { BrokenPart, NotAnIndex } from '../../archive-index/parts.js';
import { QueryError } from '../../archive-index/query.js';
import { drawWorld, type Tileset } from '../../index.js';
import { printable } from '../../scan/names.js';
import { maxWorkers } from '../../scan/workers.js';
import { OutputError } from '../../scan/write.js';
import { AssetsMissing, siteAssetsFolder } from '../../site/assets.js';
import { buildSite, type SiteParts } from '../../site/build.js';
import { FolderRefused } from '../../site/out-folder.js';
import type { DrawingOptions } from '../../site/thumbs.js';
import type { Command } from '../command.js';
import { decodeOptions, UsageError } from '../options.js';
import { askedWorkers, positiveNumber } from '../scan-args.js';
import { checkGraphicsFolder, loadTileset } from '../user-graphics.js';

/** Time limit per level's thumbnail (s), as render's. */
const DEFAULT_TIMEOUT_S = 60;
const PROGRESS_MS = 250;

/** The family finder and the world drawer the site uses (src/archive-index/families.ts, src/render/world.ts). */
const PARTS: SiteParts = {
  families: (rows) => familiesOf(rows),
  drawWorld: (gmap, find, o) => drawWorld(gmap, find, { tileset: o.tileset === undefined ? undefined : tilesetOf(o.tileset), scale: o.scale }),
};

/** The Graal tileset read once per run, not once per world. */
const tilesets = new Map<string, Tileset>();
function tilesetOf(path: string): Tileset {
  const known = tilesets.get(path);
  if (known) return known;
  const t = loadTileset(path);
  tilesets.set(path, t);
  return t;
}

export const siteCommand: Command = {
  usage: 'levelkit site <index folder> -o <folder> [options]',
  summary:
    'Writes a static site to browse an archive index (scan --index): every level with its thumbnail, filters and sort, a page per level, families of versions, Graal worlds; opens from file:// or any static host. Thumbnails are kept between runs.',
  options: [
    'out',
    'force',
    'scale',
    'tileset',
    'graphics',
    'workers',
    'timeout',
    'quiet',
    'strict',
    'backend',
    'inflate',
    'encoding',
    'max-bytes',
    'max-cells',
    'max-inflated',
    'limit',
  ],
  optionValue: { out: 'folder' },
  optionHelp: {
    out: 'the site folder (created when missing; a folder holding files that is not a levelkit site is refused unless --force)',
    force: 'write into a folder that holds files but is not a levelkit site',
    scale: 'pixels per tile of the thumbnails, 1…64 (default: the preview fits 1024 px)',
    workers: 'worker threads drawing thumbnails (default: available cores)',
    timeout: `time limit per thumbnail in seconds, × the level's size in 8 MiB units above 8 MiB (default ${DEFAULT_TIMEOUT_S})`,
    quiet: 'no progress line and no closing summary on stderr',
  },
  async run({ options, positionals, raw }) {
    if (positionals.length !== 1) throw new UsageError('site needs one index folder (written by scan --index)');
    if (!options.out) throw new UsageError('site needs -o <folder>');
    const drawing: DrawingOptions = {};
    if (options.scale !== undefined) {
      const s = Number(options.scale);
      if (!/^\d+$/.test(options.scale) || s < 1 || s > 64)
        throw new UsageError(`--scale must be a whole number of pixels per tile, 1…64; got '${printable(options.scale)}'`);
      drawing.scale = s;
    }
    if (raw.tileset !== undefined) {
      loadTileset(raw.tileset as string);
      drawing.tileset = raw.tileset as string;
    }
    if (raw.graphics !== undefined) {
      checkGraphicsFolder(raw.graphics as string);
      drawing.graphics = raw.graphics as string;
    }
    const workers = Math.min(askedWorkers(raw.workers as string | undefined), maxWorkers());
    const timeout = raw.timeout === undefined ? DEFAULT_TIMEOUT_S : positiveNumber('timeout', raw.timeout as string);
    const quiet = raw.quiet === true;
    let last = 0;
    const progress = (done: number, total: number) => {
      if (quiet || !process.stderr.isTTY || performance.now() - last < PROGRESS_MS) return;
      last = performance.now();
      process.stderr.write(`\r\x1b[Ksite: ${done}/${total} levels`);
    };
    const started = performance.now();
    try {
      const s = await buildSite(
        {
          index: positionals[0]!,
          out: options.out,
          force: options.force,
          assets: siteAssetsFolder(),
          decode: decodeOptions(options),
          maxBytes: options.maxBytes,
          drawing,
          workers,
          timeoutMs: timeout * 1000,
          say: (line) => process.stderr.write(`levelkit site: ${printable(line)}\n`),
          progress,
        },
        PARTS,
      );
      if (!quiet) {
        if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
        const parts = [
          `${s.levels} levels`,
          `drew ${s.drawn} of ${s.thumbnails} thumbnails`,
          ...(s.stale ? [`${s.stale} changed or gone since the index was made (no picture)`] : []),
          `${s.families} families`,
          `${s.worlds} worlds`,
          ...(s.removed ? [`${s.removed} old files removed`] : []),
          `${((performance.now() - started) / 1000).toFixed(2)} s`,
        ];
        process.stderr.write(`levelkit site: ${parts.join('; ')} → ${printable(options.out)}\n`);
      }
      return 0;
    } catch (e) {
      if (e instanceof FolderRefused) return fail(e.message, 2);
      if (e instanceof AssetsMissing || e instanceof NotAnIndex || e instanceof EngineMissing || e instanceof QueryError) return fail(e.message, 1);
      if (e instanceof BrokenPart) return fail(`broken index part: ${e.message}`, 1);
      if (e instanceof OutputError) return fail(`${e.code}: ${e.message}`, 1);
      throw e;
    }
  },
};

function fail(message: string, status: number): number {
  process.stderr.write(`levelkit site: ${printable(message)}\n`);
  return status;
}
