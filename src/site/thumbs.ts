// Thumbnails of every level, drawn by `levelkit render`'s code on its worker pool (RenderRunner),
// kept by content: a thumbnail's key is the file's sha256 and a digest of what shapes the drawing
// (sizes, --scale, the --tileset's bytes, the --graphics folder), so the same level in two places
// is drawn once and a re-run draws only keys not yet in thumbs/. A level with nothing to draw (or
// that does not decode) leaves `thumbs/<key>.none`, so it is not tried again either.
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import type { BundledAssets } from '../cli/assets.js';
import type { LevelInput } from '../cli/inputs.js';
import type { PngEncode } from '../cli/png.js';
import { type RenderAnswer, type RenderJob, renderLevel } from '../cli/render-level.js';
import { RenderRunner, type RenderWork } from '../cli/render-pool.js';
import type { DecodeOptions } from '../index.js';
import { printable } from '../scan/names.js';
import type { SiteFolder } from './out-folder.js';

/** Longest side of the thumbnail in lists, and of the preview on a level's page (pixels). */
export const SMALL_SIDE = 128;
export const LARGE_SIDE = 1024;

/** Bumped when the drawing changes, so old thumbnails are not taken for new ones. */
const DRAWING_VERSION = 1;

export interface DrawingOptions {
  /** --scale (pixels per tile); without it the preview fits LARGE_SIDE. */
  scale?: number;
  tileset?: string;
  graphics?: string;
}

/** The digest of what shapes a drawing besides the level: 12 hex digits of the thumbnail's key. */
export function drawingDigest(o: DrawingOptions): string {
  const shape = {
    v: DRAWING_VERSION,
    sides: [SMALL_SIDE, LARGE_SIDE],
    scale: o.scale ?? null,
    // The tileset by its bytes (a new pics1.png under the same name draws differently); the
    // graphics folder by its real path (reading every image of it would cost a re-run too much).
    tileset: o.tileset === undefined ? null : createHash('sha256').update(readFileSync(o.tileset)).digest('hex'),
    graphics: o.graphics === undefined ? null : realpathSync(o.graphics),
  };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 12);
}

export function thumbKey(sha256: string, digest: string): string {
  return `${sha256}-${digest}`;
}

export interface ThumbOptions {
  out: SiteFolder;
  decode: DecodeOptions;
  drawing: DrawingOptions;
  workers: number;
  timeoutMs: number;
  assets: BundledAssets;
  encodePng: PngEncode;
  /** Said once per distinct note (a bundled asset missing). */
  say: (note: string) => void;
  /** After each drawing. */
  progress?: () => void;
}

/** Draws the thumbnails not yet in thumbs/; calls back with each key's thumb ('' = no picture). */
export class ThumbDrawer {
  /** Thumbnails drawn by this run, and the keys asked for (each once). */
  drawn = 0;
  asked = 0;
  private readonly pending = new Map<string, ((thumb: string) => void)[]>();
  private readonly runner: RenderRunner;
  /** A write that failed inside an answer (a full disk): thrown at the next add or at finish. */
  private failure: unknown;
  private index = 0;
  /** The key each drawing in flight is for, by its work's index. */
  private readonly keys = new Map<number, string>();

  constructor(private readonly o: ThumbOptions) {
    const job: RenderJob = {
      decode: o.decode,
      render: o.drawing.scale === undefined ? { maxSide: LARGE_SIDE } : { scale: o.drawing.scale },
      png: false,
      thumb: false,
      sizes: [SMALL_SIDE, LARGE_SIDE],
      user: { ...(o.drawing.tileset ? { tileset: o.drawing.tileset } : {}), ...(o.drawing.graphics ? { graphics: o.drawing.graphics } : {}) },
    };
    this.runner = new RenderRunner({
      workers: o.workers,
      timeoutMs: o.timeoutMs,
      job,
      answer: (work, a) => this.answer(work, a),
      inProcess: (work) => renderLevel(work.level.bytes, job, o.assets, o.encodePng),
    });
  }

  /** The thumb of `key` when thumbs/ has it already (kept: the prune leaves it), '' when it has nothing to draw, undefined when it must be drawn. */
  known(key: string): string | undefined {
    const { out } = this.o;
    if (out.has(`thumbs/${key}-s.png`) && out.has(`thumbs/${key}-l.png`)) {
      out.keep(`thumbs/${key}-s.png`);
      out.keep(`thumbs/${key}-l.png`);
      return key;
    }
    if (out.has(`thumbs/${key}.none`)) {
      out.keep(`thumbs/${key}.none`);
      return '';
    }
    return undefined;
  }

  /** Whether `key` is being drawn: `done` is called with it too. */
  joins(key: string, done: (thumb: string) => void): boolean {
    const waiting = this.pending.get(key);
    if (waiting) waiting.push(done);
    return waiting !== undefined;
  }

  /** Draws `level` as `key` (once, however many levels share it); `done` gets the thumb when drawn. */
  async draw(key: string, level: LevelInput, done: (thumb: string) => void): Promise<void> {
    this.rethrow();
    if (this.joins(key, done)) return;
    this.pending.set(key, [done]);
    this.asked++;
    const index = this.index++;
    this.keys.set(index, key);
    await this.runner.add({ level, target: undefined, index });
  }

  async finish(): Promise<void> {
    await this.runner.finish();
    this.rethrow();
  }

  private rethrow(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private answer(work: RenderWork, a: RenderAnswer): void {
    const key = this.keys.get(work.index)!;
    this.keys.delete(work.index);
    const waiting = this.pending.get(key) ?? [];
    this.pending.delete(key);
    let thumb = '';
    try {
      for (const note of a.notes ?? []) this.o.say(note);
      if ('drawn' in a && a.drawn.sized) {
        this.o.out.write(`thumbs/${key}-s.png`, a.drawn.sized[0]!);
        this.o.out.write(`thumbs/${key}-l.png`, a.drawn.sized[1]!);
        this.drawn++;
        thumb = key;
      } else {
        const why = 'error' in a ? `${a.error.code}: ${a.error.message}` : (a.drawn.empty ?? 'nothing drawn');
        this.o.out.write(`thumbs/${key}.none`, `${printable(why)}\n`);
      }
    } catch (e) {
      this.failure ??= e;
    }
    for (const done of waiting) done(thumb);
    this.o.progress?.();
  }
}
