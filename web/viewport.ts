// Full resolution where the view is zoomed in. The picture a file opens with is one image of the
// whole grid, sampled to about a pixel per tile for big maps, so zooming into it only enlarges
// blur. When a tile on screen is bigger than its pixels in that image, this asks the worker for the
// tiles in sight drawn at a power-of-two scale, in chunks of up to 64 × 64 tiles (≤ 1024 px a side),
// nearest to the centre first, two at a time. Chunks arrive as ImageBitmaps and go onto canvases
// with 'bitmaprenderer' (no copy, no drawing on this thread); panning moves one CSS transform. Chunks
// are kept (most recently used first, up to a pixel budget); chunks no longer in sight are not asked
// for, and those of a picture that was replaced are dropped.

import type { Drawn, Reply, Request } from './protocol.js';

type Ask = (req: Omit<Extract<Request, { type: 'region' }>, 'id'>) => Promise<Reply>;

/** The picture the regions refine: its decode request, tiles and pixels per tile. */
export interface BasePicture {
  of: number;
  tilesWide: number;
  tilesHigh: number;
  /** Pixels per tile of the base picture (below 1 when sampled). */
  scale: number;
}

/** The largest scale asked for: a Teeworlds tileset's tiles are 64 px, 32 shows them well and keeps chunks small. */
const MAX_SCALE = 32;
/** Largest side of a chunk in pixels. */
const CHUNK_PIXELS = 1024;
/** Chunk pixels kept (RGBA bitmaps, ~4 bytes each): 48 Mi pixels. */
const KEEP_PIXELS = 48 << 20;
/** Requests in flight at once: one being drawn, one waiting, so the worker never idles. */
const IN_FLIGHT = 2;

interface Chunk {
  key: string;
  canvas: HTMLCanvasElement;
  pixels: number;
  scale: number;
}

export interface RegionLayer {
  /** A new picture (or none): chunks of the last one are dropped. */
  reset(base: BasePicture | undefined): void;
  /** The view moved or zoomed: `zoom` screen pixels per base-picture pixel, picture corner at x, y. */
  update(view: { zoom: number; x: number; y: number }): void;
}

export function regionLayer(viewport: HTMLElement, ask: Ask): RegionLayer {
  const layer = document.createElement('div');
  layer.id = 'regions';
  // Styled here, so any page that hosts the layer (the inspector, the site's level page) needs no CSS for it.
  Object.assign(layer.style, { position: 'absolute', left: '0', top: '0', transformOrigin: '0 0', pointerEvents: 'none' });
  // Above the picture, below the highlight ring and the tooltip.
  const picture = viewport.querySelector('canvas');
  if (picture) picture.after(layer);
  else viewport.append(layer);
  let base: BasePicture | undefined;
  let view = { zoom: 1, x: 0, y: 0 };
  /** Chunks drawn, most recently used last. */
  const cache = new Map<string, Chunk>();
  const asked = new Set<string>();
  let wanted: { key: string; scale: number; x: number; y: number; size: number }[] = [];
  let generation = 0;

  const chunkTiles = (scale: number) => Math.max(16, Math.min(64, Math.floor(CHUNK_PIXELS / scale)));

  /** Pixels per tile the chunks should have for this view, or 0 when the base picture is sharp enough. */
  const wantedScale = () => {
    if (!base) return 0;
    const onScreen = base.scale * view.zoom * (globalThis.devicePixelRatio || 1);
    if (onScreen <= base.scale) return 0;
    const scale = Math.min(MAX_SCALE, 2 ** Math.ceil(Math.log2(onScreen)));
    return scale > base.scale ? scale : 0;
  };

  const dropAll = () => {
    for (const c of cache.values()) c.canvas.remove();
    cache.clear();
    asked.clear();
    wanted = [];
    layer.replaceChildren();
  };

  const trim = () => {
    let total = 0;
    for (const c of cache.values()) total += c.pixels;
    for (const [key, c] of cache) {
      if (total <= KEEP_PIXELS) break;
      if (c.canvas.isConnected) continue; // in sight: kept
      cache.delete(key);
      total -= c.pixels;
      // Releases the bitmap the canvas holds.
      c.canvas.width = 0;
    }
  };

  const place = (chunk: Chunk, x: number, y: number) => {
    const s = chunk.canvas.style;
    s.left = `${x * chunk.scale}px`;
    s.top = `${y * chunk.scale}px`;
  };

  const pump = () => {
    while (asked.size < IN_FLIGHT && wanted.length) {
      const w = wanted.shift()!;
      if (cache.has(w.key) || asked.has(w.key) || !base) continue;
      asked.add(w.key);
      const gen = generation;
      const of = base.of;
      ask({ type: 'region', of, scale: w.scale, x: w.x, y: w.y, width: w.size, height: w.size }).then((r) => {
        asked.delete(w.key);
        const drawn: Drawn | null = r.ok && 'drawn' in r ? r.drawn : null;
        if (gen !== generation) {
          drawn?.bitmap.close();
          return; // a chunk of a picture no longer shown
        }
        if (drawn) {
          const canvas = document.createElement('canvas');
          canvas.style.position = 'absolute';
          canvas.style.imageRendering = 'pixelated';
          canvas.width = drawn.bitmap.width;
          canvas.height = drawn.bitmap.height;
          canvas.dataset.x = String(drawn.x);
          canvas.dataset.y = String(drawn.y);
          canvas.dataset.scale = String(drawn.scale);
          canvas.getContext('bitmaprenderer')!.transferFromImageBitmap(drawn.bitmap);
          const chunk = { key: w.key, canvas, pixels: canvas.width * canvas.height, scale: w.scale };
          place(chunk, drawn.x, drawn.y);
          cache.set(w.key, chunk);
          trim();
        }
        show();
        pump();
      });
    }
    layer.dataset.pending = String(asked.size + wanted.length);
  };

  /** Puts the chunks in sight at the wanted scale on the layer and asks for the missing ones. */
  const show = () => {
    const scale = wantedScale();
    layer.dataset.scale = String(scale);
    if (!base || !scale) {
      layer.replaceChildren();
      wanted = [];
      layer.dataset.pending = String(asked.size);
      return;
    }
    const rect = viewport.getBoundingClientRect();
    const perTile = base.scale * view.zoom;
    const T = chunkTiles(scale);
    const clamp = (v: number, hi: number) => Math.max(0, Math.min(hi, v));
    const tx0 = clamp(Math.floor(-view.x / perTile), base.tilesWide);
    const ty0 = clamp(Math.floor(-view.y / perTile), base.tilesHigh);
    const tx1 = clamp(Math.ceil((rect.width - view.x) / perTile), base.tilesWide);
    const ty1 = clamp(Math.ceil((rect.height - view.y) / perTile), base.tilesHigh);
    // The layer's pixels are chunk pixels: `scale` per tile, shrunk or grown to the view's.
    layer.style.transform = `translate(${view.x}px, ${view.y}px) scale(${perTile / scale})`;
    const inSight: Chunk[] = [];
    const missing: typeof wanted = [];
    const cx = (tx0 + tx1) / 2;
    const cy = (ty0 + ty1) / 2;
    for (let y = Math.floor(ty0 / T) * T; y < ty1; y += T)
      for (let x = Math.floor(tx0 / T) * T; x < tx1; x += T) {
        const key = `${scale}:${x}:${y}`;
        const hit = cache.get(key);
        if (hit) {
          // Most recently used last.
          cache.delete(key);
          cache.set(key, hit);
          inSight.push(hit);
        } else missing.push({ key, scale, x, y, size: T });
      }
    missing.sort((a, b) => Math.hypot(a.x + T / 2 - cx, a.y + T / 2 - cy) - Math.hypot(b.x + T / 2 - cx, b.y + T / 2 - cy));
    // Only what is in sight now is asked for: what scrolled away before its turn is dropped.
    wanted = missing;
    const keep = new Set(inSight.map((c) => c.canvas));
    for (const c of [...layer.children]) if (!keep.has(c as HTMLCanvasElement)) c.remove();
    for (const c of inSight) if (!c.canvas.isConnected) layer.append(c.canvas);
    pump();
  };

  return {
    reset(next) {
      generation++;
      dropAll();
      base = next;
      show();
    },
    update(next) {
      view = next;
      show();
    },
  };
}
