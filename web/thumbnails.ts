// Thumbnails for the files table, made on demand: only rows in sight ask for one, one file at a
// time (the worker decodes it and draws it at most THUMB_SIDE pixels a side), nearest first.
// Pictures are kept per file; rows scrolled away before their turn are not drawn at all.

import type { Drawn, Reply, Request } from './protocol.js';

type Ask = (req: Omit<Extract<Request, { type: 'thumb' }>, 'id'>) => Promise<Reply>;

/** Longest side of a thumbnail in pixels: large enough to tell maps apart (the row is 64 px high; CSS fits it in). */
export const THUMB_SIDE = 112;

export interface Thumbnails {
  /** Forget every picture (other files were loaded). */
  reset(): void;
  /** Rows `indexes` are in sight (in order): their canvases are in the document with data-thumb set. */
  want(indexes: number[]): void;
  /** Paints file `index`'s picture on `canvas` if there is one yet. */
  paint(index: number, canvas: HTMLCanvasElement): void;
}

/** `source(index)` gives a file's name and bytes (undefined when it has none to draw, e.g. refused). */
export function thumbnails(ask: Ask, source: (index: number) => Omit<Extract<Request, { type: 'thumb' }>, 'id' | 'type' | 'maxSide'> | undefined): Thumbnails {
  const done = new Map<number, Drawn | null>();
  let queue: number[] = [];
  let busy = false;
  let generation = 0;

  const paint = (index: number, canvas: HTMLCanvasElement) => {
    const d = done.get(index);
    canvas.dataset.state = d ? 'drawn' : d === null ? 'none' : 'waiting';
    if (!d) return;
    canvas.width = d.bitmap.width;
    canvas.height = d.bitmap.height;
    canvas.getContext('2d')!.drawImage(d.bitmap, 0, 0);
  };

  const next = async () => {
    if (busy) return;
    const index = queue.shift();
    if (index === undefined) return;
    const req = source(index);
    if (!req) {
      done.set(index, null);
      void next();
      return;
    }
    busy = true;
    const gen = generation;
    const r = await ask({ type: 'thumb', maxSide: THUMB_SIDE, ...req });
    busy = false;
    if (gen !== generation) {
      if (r.ok && 'drawn' in r) r.drawn?.bitmap.close();
    } else {
      done.set(index, r.ok && 'drawn' in r ? r.drawn : null);
      for (const c of document.querySelectorAll<HTMLCanvasElement>(`canvas[data-thumb="${index}"]`)) paint(index, c);
    }
    void next();
  };

  return {
    reset() {
      generation++;
      for (const d of done.values()) d?.bitmap.close();
      done.clear();
      queue = [];
    },
    want(indexes) {
      // Rows no longer in sight lose their place: only these are drawn, in this order.
      queue = indexes.filter((i) => !done.has(i));
      void next();
    },
    paint,
  };
}
