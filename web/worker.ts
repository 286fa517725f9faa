// The page's decode worker: decoding, drawing and unzipping happen here, so the page stays
// responsive on a big map or a zip of hundreds of levels. Loads nothing but the library.

import type { AnyDecoded, DecodeProgress, RenderResources } from '../src/index.js';
import {
  asyncInflater,
  DecodeError,
  type DecodeOptions,
  decode,
  decodeAsync,
  detect,
  layersOf,
  mainGrid,
  mediaOf,
  render,
  summarize,
  tablesOf,
  textsOf,
  wasmAvailable,
} from '../src/index.js';
import { imageThumbnails } from '../src/render/thumbnails.js';
import { cellAt } from './inspect/cell.js';
import { layerTree } from './inspect/layer-tree.js';
import { envelopesOf, objectsOf } from './inspect/objects.js';
import type { GroupNode } from './inspect/types.js';
import type { BenchRow, DecodedFile, Drawn, ProgressNote, Reply, Request, Stage } from './protocol.js';
import { resourcesFor, setGraalTileset } from './resources.js';
import { levelFilesIn, namedLikeLevel } from './unzip.js';
import { wherigoOf } from './wherigo-model.js';
import { worldOf } from './world-draw.js';

interface WorkerScope {
  onmessage: ((e: { data: Request }) => void) | null;
  postMessage(message: Reply | ProgressNote, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

/**
 * The value of the last file drawn with its preview, and the layer choice its picture used:
 * region requests draw parts of it at full resolution. One at a time (a big map's grids are
 * hundreds of MB at most); the next preview replaces it.
 */
let shown:
  | {
      id: number;
      value: AnyDecoded;
      layer: 'main' | 'all' | number | number[];
      markers: boolean;
      opacity?: Record<number, number>;
      resources: RenderResources;
      tree: GroupNode[];
    }
  | undefined;

/** True when some tile layer of `value` draws with real tiles (its own tileset, or a picture in `resources`). */
function hasTilesets(value: AnyDecoded, resources: RenderResources): boolean {
  return layersOf(value, mainGrid(value), resources).some((l) => l.tileset);
}

/**
 * Posts request `id`'s stage and how far it is, at most about once per percent (a decode inflating
 * thousands of small blocks would otherwise post thousands of messages).
 */
function progressPoster(id: number): (stage: Stage, done?: number, total?: number) => void {
  let last: { stage: Stage; share: number } | undefined;
  return (stage, done, total) => {
    const share = done !== undefined && total ? done / total : -1;
    if (last && last.stage === stage && (share < 0 || share - last.share < 0.01) && share !== 1) return;
    last = { stage, share };
    scope.postMessage({ id, progress: { stage, ...(done !== undefined && total !== undefined ? { done, total } : {}) } });
  };
}

/** A picture as a bitmap for the page (transferred, so the page's thread neither copies nor decodes it); null when empty. */
async function bitmapOf(p: { width: number; height: number; rgba: Uint8ClampedArray }): Promise<ImageBitmap | null> {
  if (!p.width || !p.height) return null;
  return createImageBitmap(new ImageData(p.rgba as Uint8ClampedArray<ArrayBuffer>, p.width, p.height));
}

async function decodeOne(
  bytes: Uint8Array,
  settings: { backend: DecodeOptions['backend']; inflater: 'wasm' | 'stream' | 'pako' },
  onProgress?: (p: DecodeProgress) => void,
) {
  const t0 = performance.now();
  const progress = onProgress ? { onProgress } : {};
  const value =
    settings.inflater === 'stream'
      ? await decodeAsync(bytes, { backend: settings.backend, inflate: 'pako', ...progress })
      : decode(bytes, { backend: settings.backend, inflate: settings.inflater, ...progress });
  return { value, ms: performance.now() - t0 };
}

/** Mean ms per run of `fn`, run for at least `budget` ms (and at least 3 times). */
async function time(fn: () => unknown, budget = 250): Promise<number> {
  await fn(); // warm-up: WASM instantiation and JIT are not what is measured
  const t0 = performance.now();
  let n = 0;
  while (n < 3 || performance.now() - t0 < budget) {
    await fn();
    n++;
  }
  return (performance.now() - t0) / n;
}

async function bench(bytes: Uint8Array): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const wasm = wasmAvailable();
  rows.push({ label: 'TypeScript kernels, pako', ms: await time(() => decode(bytes, { backend: 'js', inflate: 'pako' })) });
  rows.push(
    wasm
      ? { label: 'WASM kernels, pako', ms: await time(() => decode(bytes, { backend: 'wasm', inflate: 'pako' })) }
      : { label: 'WASM kernels, pako', ms: null, note: 'WebAssembly unavailable' },
  );
  if (wasm) {
    rows.push({ label: 'TypeScript kernels, WASM inflate', ms: await time(() => decode(bytes, { backend: 'js', inflate: 'wasm' })) });
    rows.push({ label: 'WASM kernels, WASM inflate', ms: await time(() => decode(bytes, { backend: 'wasm', inflate: 'wasm' })) });
  }
  const stream = asyncInflater({ inflate: 'pako' }) === 'stream';
  const note = stream ? undefined : 'DecompressionStream unavailable: pako';
  rows.push({
    label: 'TypeScript kernels, native inflate (decodeAsync)',
    ms: await time(() => decodeAsync(bytes, { backend: 'js', inflate: 'pako' })),
    ...(note ? { note } : {}),
  });
  if (wasm)
    rows.push({
      label: 'WASM kernels, native inflate (decodeAsync)',
      ms: await time(() => decodeAsync(bytes, { backend: 'wasm', inflate: 'pako' })),
      ...(note ? { note } : {}),
    });
  return rows;
}

function errorOf(e: unknown): Extract<Reply, { ok: false }>['error'] {
  if (e instanceof DecodeError) return { code: e.code, message: e.message, offset: e.offset ?? null, path: e.path ?? null };
  return { code: (e as Error)?.name ?? 'Error', message: String((e as Error)?.message ?? e) };
}

scope.onmessage = async ({ data: req }) => {
  try {
    if (req.type === 'unzip') {
      const files = await levelFilesIn(req.bytes);
      scope.postMessage(
        { id: req.id, ok: true, files },
        files.map((f) => f.bytes.buffer as ArrayBuffer),
      );
      return;
    }
    if (req.type === 'tileset') {
      setGraalTileset(req.image ?? undefined);
      scope.postMessage({ id: req.id, ok: true, tileset: req.image !== null });
      return;
    }
    if (req.type === 'world') {
      const { rgba, ...world } = worldOf(req.bytes, req.files);
      const bitmap = await bitmapOf({ ...world, rgba });
      scope.postMessage({ id: req.id, ok: true, world: { ...world, bitmap } }, bitmap ? [bitmap] : []);
      return;
    }
    if (req.type === 'bench') {
      scope.postMessage({ id: req.id, ok: true, bench: await bench(req.bytes) });
      return;
    }
    if (req.type === 'region') {
      if (shown?.id !== req.of) {
        // The page has opened something else since: this part is of no use to it.
        scope.postMessage({ id: req.id, ok: false, error: { code: 'STALE', message: `request ${req.of} is no longer the picture shown` } });
        return;
      }
      const region = { x: req.x, y: req.y, width: req.width, height: req.height };
      const p = render(shown.value, {
        layer: shown.layer,
        markers: shown.markers,
        opacity: shown.opacity,
        scale: req.scale,
        region,
        resources: shown.resources,
      });
      const bitmap = await bitmapOf(p);
      const drawn: Drawn | null = bitmap && { bitmap, ...p.region, scale: p.scale };
      scope.postMessage({ id: req.id, ok: true, drawn }, bitmap ? [bitmap] : []);
      return;
    }
    if (req.type === 'redraw' || req.type === 'cell' || req.type === 'image') {
      if (shown?.id !== req.of) {
        scope.postMessage({ id: req.id, ok: false, error: { code: 'STALE', message: `request ${req.of} is no longer the picture shown` } });
        return;
      }
      if (req.type === 'cell') {
        scope.postMessage({ id: req.id, ok: true, cell: cellAt(shown.value, shown.tree, req.x, req.y) ?? null });
        return;
      }
      if (req.type === 'image') {
        const img = shown.value.format === 'teeworlds' ? shown.value.images[req.index] : undefined;
        const pixels = img && !img.external ? img.pixels : undefined;
        let image = null;
        if (img && pixels) {
          // RGB images (format 0) widened to RGBA for the page's canvas.
          const rgba = new Uint8ClampedArray(img.width * img.height * 4);
          const channels = img.format === 0 ? 3 : 4;
          for (let i = 0, o = 0; o < rgba.length; i += channels, o += 4) {
            rgba[o] = pixels[i]!;
            rgba[o + 1] = pixels[i + 1]!;
            rgba[o + 2] = pixels[i + 2]!;
            rgba[o + 3] = channels === 4 ? pixels[i + 3]! : 255;
          }
          image = { name: img.name.text || `image-${req.index}`, width: img.width, height: img.height, rgba };
        }
        scope.postMessage({ id: req.id, ok: true, image }, image ? [image.rgba.buffer as ArrayBuffer] : []);
        return;
      }
      shown.layer = req.layers;
      shown.markers = req.markers;
      shown.opacity = req.opacity;
      const p = render(shown.value, { layer: req.layers, markers: req.markers, opacity: req.opacity, resources: shown.resources });
      // A bitmap: the page draws it without decoding or copying pixels on its thread.
      const bitmap = await bitmapOf(p);
      scope.postMessage(
        { id: req.id, ok: true, picture: { width: p.width, height: p.height, bitmap, scale: p.scale, tilesWide: p.tilesWide, tilesHigh: p.tilesHigh } },
        bitmap ? [bitmap] : [],
      );
      return;
    }
    if (req.type === 'thumb') {
      let drawn: Drawn | null = null;
      if (detect(req.bytes) !== undefined) {
        const { value } = await decodeOne(req.bytes, req.settings);
        const { resources } = await resourcesFor(value);
        const p = render(value, { maxSide: req.maxSide, resources, layer: hasTilesets(value, resources) ? 'all' : 'main' });
        const bitmap = await bitmapOf(p);
        drawn = bitmap && { bitmap, ...p.region, scale: p.scale };
      }
      scope.postMessage({ id: req.id, ok: true, drawn }, drawn ? [drawn.bitmap] : []);
      return;
    }
    if (detect(req.bytes) === undefined) {
      // What `levelkit scan` records for such a file, so the table's counts are the scan's.
      const why = namedLikeLevel(req.name) ? 'named like a level, but no levelkit format recognises its content' : 'no levelkit format recognises its content';
      scope.postMessage({ id: req.id, ok: false, error: { code: 'UNKNOWN_FORMAT', message: why } });
      return;
    }
    const note = progressPoster(req.id);
    if (req.preview) {
      shown = undefined; // the last picture's value goes before this one is decoded
      note('decode');
    }
    const { value, ms } = await decodeOne(req.bytes, req.settings, req.preview ? (p) => note('inflate', p.done, p.total) : undefined);
    const { version, summary, warnings = [] } = summarize(value);
    const unchecked = (value as { uncheckedWarnings?: string[] }).uncheckedWarnings;
    const decoded: DecodedFile = {
      format: value.format,
      version,
      summary,
      warnings: [...value.warnings, ...warnings],
      ...(unchecked?.length ? { unchecked } : {}),
      ms,
    };
    const transfer: Transferable[] = [];
    if (req.preview) {
      // Bundled pictures the level names (fetched once per session) and the session's Graal tileset.
      const { resources, report } = await resourcesFor(value);
      const onProgress = ({ done, total }: { done: number; total: number }) => note('draw', done, total);
      // A map whose tile layers carry their tilesets looks like the game when every layer is drawn.
      const layer = req.layer ?? (hasTilesets(value, resources) ? 'all' : 'main');
      note('draw', 0, 1);
      const p = render(value, { layer, onProgress, resources });
      const tree = layerTree(
        value,
        p.layers.map((l) => l.name),
      );
      // A map info row without a value says nothing ('—' four times over): left out.
      const tables = tablesOf(value).map((t) => (t.name === 'map info' ? { ...t, rows: t.rows.filter((r) => r[1] !== '—' && r[1] !== 'none') } : t));
      const places = objectsOf(value, tables, p.markers);
      shown = { id: req.id, value, layer, markers: true, resources, tree };
      decoded.preview = {
        width: p.width,
        height: p.height,
        rgba: p.rgba,
        scale: p.scale,
        tilesWide: p.tilesWide,
        tilesHigh: p.tilesHigh,
        layers: p.layers,
        drawn: p.drawn,
        markers: p.markers,
        legend: p.legend,
        tables,
        tree,
        places,
        envelopes: envelopesOf(value),
        media: mediaOf(value),
        texts: textsOf(value),
        ...wherigoOf(value),
        thumbnails: imageThumbnails(value),
        resources: report,
        ...(p.empty ? { empty: p.empty } : {}),
      };
      transfer.push(p.rgba.buffer as ArrayBuffer);
    }
    scope.postMessage({ id: req.id, ok: true, decoded }, transfer);
  } catch (e) {
    scope.postMessage({ id: req.id, ok: false, error: errorOf(e) });
  }
};
