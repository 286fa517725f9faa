// `levelkit render`: each level's preview (the page's drawing code, src/render) as PNG via
// fast-png (png.ts): one file to -o out.png, many into -o dir/ (tree mirrored, `.png` appended to each
// name), and/or one contact sheet of them all with --sheet. A level with no grid says so and
// writes nothing.
import { decode, MAX_PREVIEW_PIXELS, type Preview, type RenderOptions, render, shrinkPicture } from '../../index.js';
import { displayName, extOf, fileFields, pathBytes, printable } from '../../scan/names.js';
import { errorRecord, type FailedRecord, recordFromError } from '../../scan/record.js';
import { walk } from '../../scan/walk.js';
import { exists, findClashes, namedOutput, OutputError, outputIn, writeNew } from '../../scan/write.js';
import { BundledAssets } from '../assets.js';
import type { Command } from '../command.js';
import { loadEntry } from '../load.js';
import { decodeOptions, UsageError } from '../options.js';
import { refuseSharedOutputs, STDOUT } from '../outputs.js';
import { type PngEncode, pngEncoder } from '../png.js';
import type { Reporter } from '../report.js';
import { stdoutGone, stdoutReady, writeStdout } from '../stdout.js';

/** Side of one contact-sheet cell, in pixels (a preview is scaled down to fit, never up). */
const SHEET_CELL = 256;
const SHEET_GAP = 8;

export const renderCommand: Command = {
  usage: 'levelkit render <file|folder…> -o <out.png|dir> [options]',
  summary: 'Draws each level (tile grid and markers) as PNG; --sheet draws all of them on one contact sheet.',
  options: [
    'out',
    'scale',
    'layer',
    'sheet',
    'json',
    'strict',
    'backend',
    'inflate',
    'encoding',
    'max-bytes',
    'max-zip-ratio',
    'max-cells',
    'max-inflated',
    'limit',
    'follow',
    'force',
  ],
  optionValue: { out: 'out.png|dir' },
  optionHelp: {
    out: 'a .png for one level (- writes it to stdout), else a folder (created when missing; files found in a folder keep their path below it, named files their name; .png appended)',
  },
  async run({ options, positionals }, out) {
    if (positionals.length === 0) throw new UsageError('render needs at least one file or folder');
    if (!options.out && !options.sheet) throw new UsageError('render needs -o <out.png|dir> or --sheet <sheet.png>');
    const opts: RenderOptions = {};
    if (options.scale !== undefined) {
      const s = Number(options.scale);
      if (!/^\d+$/.test(options.scale) || s < 1 || s > 64)
        throw new UsageError(`--scale must be a whole number of pixels per tile, 1…64; got '${options.scale}'`);
      opts.scale = s;
    }
    if (options.layer !== undefined) {
      if (options.layer === 'main' || options.layer === 'all') opts.layer = options.layer;
      else if (/^\d+$/.test(options.layer)) opts.layer = Number(options.layer);
      else throw new UsageError(`--layer must be main, all or a layer number; got '${options.layer}'`);
    }
    const entries = [...walk(positionals, { follow: options.follow })];
    const single = entries.length === 1 && entries[0]!.kind === 'file' && entries[0]!.named;
    const toStdout = options.out === STDOUT;
    const toFile = options.out !== undefined && (toStdout || extOf(pathBytes(options.out)) === '.png');
    if (toFile && !single)
      throw new UsageError(
        `-o ${toStdout ? '- writes one PNG to standard output' : 'names a .png'}, so render needs exactly one level file (a folder of them needs -o <dir>)`,
      );
    refuseSharedOutputs([
      { option: '--json', path: options.json ? STDOUT : undefined },
      { option: '-o', path: toFile ? options.out : undefined },
      { option: '--sheet', path: options.sheet },
    ]);
    // The PNG is the data on stdout: the lines saying what was drawn move to stderr.
    if (toStdout || options.sheet === STDOUT) out.textToStderr();
    const plan = entries.flatMap((e) =>
      e.kind === 'file' && options.out && !toStdout
        ? [
            {
              input: e.path,
              output: toFile
                ? namedOutput(pathBytes(options.out))
                : outputIn(pathBytes(options.out), Buffer.concat([e.named ? e.rel.subarray(e.rel.lastIndexOf(0x2f) + 1) : e.rel, Buffer.from('.png')])),
            },
          ]
        : [],
    );
    const sheetPath = options.sheet === undefined || options.sheet === STDOUT ? undefined : pathBytes(options.sheet);
    const clashes = findClashes([
      ...plan.map((p) => ({ input: p.input, output: p.output.path })),
      ...(sheetPath ? [{ input: Buffer.from('--sheet'), output: sheetPath }] : []),
    ]);
    if (clashes.length) throw new UsageError(`${clashes.map((c) => displayName(c.output)).join(', ')} would be written twice`);
    // Files the user named are checked before anything is drawn, so a refusal writes nothing.
    const present = options.force ? [] : [...(toFile ? plan : []).map((p) => p.output.path), ...(sheetPath ? [sheetPath] : [])].filter(exists);
    if (present.length) {
      for (const p of present)
        if (p === sheetPath) sheetRefusal(out, 'OUTPUT_EXISTS', `${displayName(p)} already exists (--force overwrites); nothing was written`);
        else out.fail(errorRecord(plan[0]!.input, 'OUTPUT_EXISTS', `${displayName(p)} already exists (--force overwrites); nothing was written`));
      return out.finish();
    }
    if (options.out !== undefined) out.tally.written = 0;
    // Lazy layers: only the grids drawn are inflated, one at a time (each dropped after drawing), so
    // a big map's preview never holds every layer at once. A damaged grid not drawn is not reported.
    const decodeOpts = { ...decodeOptions(options), layers: 'lazy' as const };
    const encodePng = await pngEncoder();
    const assets = new BundledAssets((message) => process.stderr.write(`levelkit render: ${printable(message)}\n`));
    const sheet: { name: string; thumb: Thumb }[] = [];
    let sheetOverflow = 0;
    for (const entry of entries) {
      if (!(await stdoutReady())) break;
      const loaded = loadEntry(entry, out, options.maxBytes);
      if (!loaded) continue;
      let preview: Preview;
      let format: string;
      try {
        const value = decode(loaded.bytes, decodeOpts);
        format = value.format;
        const resources = assets.resourcesFor(value);
        preview = render(value, { ...opts, ...(resources ? { resources } : {}) });
        // As the page does: a level whose layers have real tiles looks like the game with every layer drawn.
        if (opts.layer === undefined && preview.layers.some((l) => l.tileset))
          preview = render(value, { ...opts, layer: 'all', ...(resources ? { resources } : {}) });
        out.tally.decoded(value.format, value.warnings.length);
      } catch (e) {
        out.fail(e instanceof RangeError ? renderRefusal(entry.path, e) : recordFromError(entry.path, e));
        continue;
      }
      const base = { ...fileFields(entry.path), format, layers: preview.drawn.map((i) => preview.layers[i]!.name), markers: preview.markers.length };
      if (preview.empty) {
        out.ok({ ...base, empty: preview.empty }, `${printable(displayName(entry.path))}: nothing to draw: ${printable(preview.empty)}\n`);
        continue;
      }
      if (options.sheet) {
        if (sheet.length < MAX_SHEET_LEVELS) sheet.push({ name: displayName(entry.path), thumb: thumbnail(preview) });
        else sheetOverflow++;
      }
      if (toStdout) {
        writeStdout(pngOf(preview, encodePng));
        out.tally.written!++;
        out.ok(
          { ...base, output: STDOUT, width: preview.width, height: preview.height },
          `${printable(displayName(entry.path))}: ${drawnText(preview)} → standard output\n`,
        );
        continue;
      }
      const target = plan.find((p) => p.input.equals(entry.path))?.output;
      if (!target) {
        out.ok({ ...base, width: preview.width, height: preview.height }, '');
        continue;
      }
      try {
        if (!writeNew(target, pngOf(preview, encodePng), options.force)) {
          out.fail(errorRecord(entry.path, 'OUTPUT_EXISTS', `${displayName(target.path)} already exists (--force overwrites)`));
          continue;
        }
      } catch (e) {
        out.fail(recordFromError(entry.path, e));
        continue;
      }
      out.tally.written!++;
      const record = { ...base, output: displayName(target.path), width: preview.width, height: preview.height };
      out.ok(record, `${printable(displayName(entry.path))}: ${drawnText(preview)} → ${printable(displayName(target.path))}\n`);
    }
    // The reader of stdout left (`render dir -o out | head -1`): nothing more is drawn or written.
    if (stdoutGone.aborted) return out.finish();
    if (sheetOverflow)
      process.stderr.write(
        `levelkit render: --sheet: a sheet holds at most ${MAX_SHEET_LEVELS} levels (${MAX_PREVIEW_PIXELS} pixels); the last ${sheetOverflow} are not on it\n`,
      );
    if (options.sheet) writeSheet(options.sheet === STDOUT ? STDOUT : pathBytes(options.sheet), sheet, options.force, out, encodePng);
    return out.finish();
  },
};

/** A level render() refuses: LIMIT_EXCEEDED when --scale would draw too many pixels (the message says which scale fits), else NOT_SUPPORTED. */
function renderRefusal(path: Buffer, e: RangeError): FailedRecord {
  const message = e.message.replace(/^levelkit: render: /, '').replace(/\bscale\b/g, '--scale');
  return errorRecord(path, (e as { code?: string }).code === 'LIMIT_EXCEEDED' ? 'LIMIT_EXCEEDED' : 'NOT_SUPPORTED', message);
}

function pngOf(p: { width: number; height: number; rgba: Uint8ClampedArray }, encodePng: PngEncode): Uint8Array {
  return encodePng({ width: p.width, height: p.height, data: new Uint8Array(p.rgba.buffer, p.rgba.byteOffset, p.rgba.byteLength), channels: 4, depth: 8 });
}

/** A preview scaled down (nearest pixel) to fit one SHEET_CELL square: what the contact sheet keeps of each level, so it never holds full previews. */
function thumbnail(p: { width: number; height: number; rgba: Uint8ClampedArray }): Thumb {
  return shrinkPicture(p.rgba, p.width, p.height, 4, SHEET_CELL);
}

interface Thumb {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/** Most levels on one contact sheet: a square of them (31 × 31 cells, 8192 px a side) stays within the pixels a preview may have. */
const MAX_SHEET_LEVELS = Math.floor((Math.sqrt(MAX_PREVIEW_PIXELS) - SHEET_GAP) / (SHEET_CELL + SHEET_GAP)) ** 2;

/** Lays the thumbnails out in a square-ish grid of SHEET_CELL cells. */
export function contactSheet(thumbs: readonly Thumb[]): { width: number; height: number; rgba: Uint8ClampedArray; columns: number } {
  const columns = Math.max(1, Math.ceil(Math.sqrt(thumbs.length)));
  const rows = Math.max(1, Math.ceil(thumbs.length / columns));
  const width = columns * (SHEET_CELL + SHEET_GAP) + SHEET_GAP;
  const height = rows * (SHEET_CELL + SHEET_GAP) + SHEET_GAP;
  const rgba = new Uint8ClampedArray(width * height * 4).fill(255);
  thumbs.forEach((t, i) => {
    const x0 = SHEET_GAP + (i % columns) * (SHEET_CELL + SHEET_GAP) + ((SHEET_CELL - t.width) >> 1);
    const y0 = SHEET_GAP + Math.floor(i / columns) * (SHEET_CELL + SHEET_GAP) + ((SHEET_CELL - t.height) >> 1);
    for (let y = 0; y < t.height; y++) rgba.set(t.rgba.subarray(y * t.width * 4, (y + 1) * t.width * 4), ((y0 + y) * width + x0) * 4);
  });
  return { width, height, rgba, columns };
}

/** `W×H px (w×h tiles, n markers)`: what one level's PNG holds. */
function drawnText(p: Preview): string {
  return `${p.width}×${p.height} px (${p.tilesWide}×${p.tilesHigh} tiles, ${p.markers.length} markers)`;
}

/** A --sheet that is not written: one line on stderr, counted as a failure under `code`. */
function sheetRefusal(out: Reporter, code: string, message: string): void {
  process.stderr.write(`levelkit render: --sheet: ${code}: ${printable(message)}\n`);
  out.tally.errors.set(code, (out.tally.errors.get(code) ?? 0) + 1);
}

function writeSheet(path: Buffer | typeof STDOUT, sheet: { name: string; thumb: Thumb }[], force: boolean, out: Reporter, encodePng: PngEncode): void {
  const shown = path === STDOUT ? 'standard output' : displayName(path);
  if (sheet.length === 0) {
    process.stderr.write(`levelkit render: --sheet: no level had anything to draw; ${printable(shown)} not written\n`);
    return;
  }
  const s = contactSheet(sheet.map((x) => x.thumb));
  if (path === STDOUT) writeStdout(pngOf(s, encodePng));
  else
    try {
      if (!writeNew(namedOutput(path), pngOf(s, encodePng), force)) {
        sheetRefusal(out, 'OUTPUT_EXISTS', `${shown} appeared while drawing; it was kept`);
        return;
      }
    } catch (e) {
      if (!(e instanceof OutputError)) throw e;
      sheetRefusal(out, e.code, e.message);
      return;
    }
  out.tally.written = (out.tally.written ?? 0) + 1;
  const order = sheet.map((x, i) => `  ${i % s.columns},${Math.floor(i / s.columns)}  ${printable(x.name)}`).join('\n');
  process.stderr.write(`levelkit render: contact sheet ${s.width}×${s.height} px, ${sheet.length} levels (column,row) → ${printable(shown)}\n${order}\n`);
}
