// `levelkit render`: each level's preview (the page's drawing code, src/render) as PNG via
// fast-png (png.ts): one file to -o out.png, many into -o dir/ (tree mirrored, a zip's members below
// `archive.zip/`, `.png` appended to each name), and/or one contact sheet of them all with --sheet
// (sheet.ts). More than one level is drawn on a worker pool (render-pool.ts). A level with no grid
// says so and writes nothing.
import { availableParallelism } from 'node:os';
import { displayName, extOf, fileFields, pathBytes, printable } from '../../scan/names.js';
import { errorRecord } from '../../scan/record.js';
import { exists, namedOutput, OutputError, type OutputTarget, outputIn, targetExists, writeNew } from '../../scan/write.js';
import { BundledAssets } from '../assets.js';
import type { Command } from '../command.js';
import { checkInputs, inputName, inputOptions, type LevelInput, levelInputs, takeLevel, withMember } from '../inputs.js';
import { decodeOptions, UsageError } from '../options.js';
import { type PngEncode, pngEncoder } from '../png.js';
import { type Picture, pngOf, type RenderAnswer, type RenderJob, renderLevel } from '../render-level.js';
import { RenderRunner, type RenderWork } from '../render-pool.js';
import type { Reporter } from '../report.js';
import { contactSheet, MAX_SHEET_LEVELS } from '../sheet.js';
import { positiveNumber, wholeNumber } from './scan.js';

/** Default time limit per level (s): drawing a big map takes seconds, a hang never ends. */
const DEFAULT_TIMEOUT_S = 60;

export const renderCommand: Command = {
  usage: 'levelkit render <file|folder|zip|-…> -o <out.png|dir> [options]',
  summary:
    'Draws each level (tile grid and markers) as PNG; --sheet draws all of them on one contact sheet. Folders and zips are walked (a.zip::path names one member), - reads standard input.',
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
    'skip-existing',
    'workers',
    'timeout',
    'quiet',
  ],
  optionValue: { out: 'out.png|dir' },
  optionHelp: {
    out: 'a .png for one level, else a folder (created when missing; files found in a folder keep their path below it, named files their name, zip members archive.zip/path; .png appended)',
    workers: 'worker threads drawing levels in parallel when there is more than one (default: available cores)',
    timeout: `time limit per level, × its size in 8 MiB units above 8 MiB; a slower level is a TIMEOUT error and its worker is replaced (default ${DEFAULT_TIMEOUT_S})`,
    quiet: 'no progress line on stderr',
  },
  async run({ options, positionals, raw }, out) {
    checkInputs(positionals, 'render');
    if (!options.out && !options.sheet) throw new UsageError('render needs -o <out.png|dir> or --sheet <sheet.png>');
    const job: RenderJob = { decode: decodeOptions(options), render: {}, png: options.out !== undefined, thumb: options.sheet !== undefined };
    if (options.scale !== undefined) {
      const s = Number(options.scale);
      if (!/^\d+$/.test(options.scale) || s < 1 || s > 64)
        throw new UsageError(`--scale must be a whole number of pixels per tile, 1…64; got '${options.scale}'`);
      job.render.scale = s;
    }
    if (options.layer !== undefined) {
      if (options.layer === 'main' || options.layer === 'all') job.render.layer = options.layer;
      else if (/^\d+$/.test(options.layer)) job.render.layer = Number(options.layer);
      else throw new UsageError(`--layer must be main, all or a layer number; got '${options.layer}'`);
    }
    const workers = raw.workers === undefined ? availableParallelism() : wholeNumber('workers', raw.workers as string, 1, 1024);
    const timeout = raw.timeout === undefined ? DEFAULT_TIMEOUT_S : positiveNumber('timeout', raw.timeout as string);
    const skipExisting = raw['skip-existing'] === true;
    if (skipExisting && options.force) throw new UsageError('--skip-existing and --force contradict each other (keep, or overwrite, what is there)');
    const toFile = options.out !== undefined && extOf(pathBytes(options.out)) === '.png';
    out.quiet = raw.quiet === true;
    const counts = { found: 0 };
    out.total = counts;
    if (options.out !== undefined) out.tally.written = 0;

    const encodePng = await pngEncoder();
    const notesSaid = new Set<string>();
    const say = (note: string) => {
      if (notesSaid.has(note)) return;
      notesSaid.add(note);
      process.stderr.write(`levelkit render: ${printable(note)}\n`);
    };
    const assets = new BundledAssets(say);
    const sheet: { index: number; name: string; thumb: Picture }[] = [];
    const answer = (work: RenderWork, a: RenderAnswer) => {
      for (const note of a.notes ?? []) say(note);
      const thumb = handleAnswer(work, a, out, options.force || false, skipExisting);
      if (thumb) sheet.push({ index: work.index, name: captionName(work.level), thumb });
    };
    // Stops the run (an EPIPE or a signal handler can abort it): levels not yet drawn are dropped.
    const stop = new AbortController();
    const runner = new RenderRunner({
      workers,
      timeoutMs: timeout * 1000,
      job,
      signal: stop.signal,
      answer,
      inProcess: (work) => renderLevel(work.level.bytes, job, assets, encodePng),
    });
    const outputs = new Map<string, string>();
    let index = 0;
    for await (const input of levelInputs(positionals, inputOptions(options, counts))) {
      if (stop.signal.aborted) break;
      const level = takeLevel(input, out);
      if (!level) continue;
      if (toFile && index > 0) throw new UsageError('-o names a .png, so render needs exactly one level (a folder or zip of them needs -o <dir>)');
      let target: OutputTarget | undefined;
      try {
        target =
          options.out === undefined
            ? undefined
            : toFile
              ? namedOutput(pathBytes(options.out))
              : outputIn(pathBytes(options.out), Buffer.concat([level.rel, Buffer.from('.png')]));
      } catch (e) {
        if (!(e instanceof OutputError)) throw e;
        out.fail(withMember(errorRecord(level.path, e.code, e.message), level.member));
        continue;
      }
      if (target) {
        const key = displayName(target.path);
        const before = outputs.get(key);
        if (before !== undefined) {
          out.fail(withMember(errorRecord(level.path, 'OUTPUT_CLASH', `${key} is also the output of ${before}; not drawn`), level.member));
          continue;
        }
        outputs.set(key, inputName(withMember(fileFields(level.path), level.member)));
        // Checked before drawing, so a run over outputs already there costs no drawing: kept
        // (--skip-existing) or refused, unless the level is drawn for the sheet anyway.
        if (!options.force && targetExists(target)) {
          if (!skipExisting) {
            out.fail(
              withMember(
                errorRecord(level.path, 'OUTPUT_EXISTS', `${displayName(target.path)} already exists (--force overwrites, --skip-existing keeps it)`),
                level.member,
              ),
            );
            continue;
          }
          out.tally.existing++;
          out.tick();
          if (!options.sheet) continue;
          target = undefined;
        }
      }
      await runner.add({ level, target, index: index++ });
    }
    await runner.finish();
    sheet.sort((a, b) => a.index - b.index);
    if (sheet.length > MAX_SHEET_LEVELS)
      process.stderr.write(
        `levelkit render: --sheet: a sheet holds at most ${MAX_SHEET_LEVELS} levels; the last ${sheet.length - MAX_SHEET_LEVELS} are not on it\n`,
      );
    if (options.sheet) writeSheet(pathBytes(options.sheet), sheet.slice(0, MAX_SHEET_LEVELS), options.force, out, encodePng);
    return out.finish();
  },
};

/** A level's record (and its PNG written) from its answer; returns its sheet cell, if it has one. */
function handleAnswer(work: RenderWork, a: RenderAnswer, out: Reporter, force: boolean, skipExisting: boolean): Picture | undefined {
  const { level, target } = work;
  if ('error' in a) {
    out.fail(withMember({ ...fileFields(level.path), error: a.error }, level.member));
    return undefined;
  }
  const d = a.drawn;
  out.tally.decoded(d.format, d.warnings);
  const base = { ...withMember(fileFields(level.path), level.member), format: d.format, layers: d.layers, markers: d.markers };
  const name = printable(inputName(base));
  if (d.empty) {
    out.ok({ ...base, empty: d.empty }, `${name}: nothing to draw: ${printable(d.empty)}\n`);
    return undefined;
  }
  if (!target || !d.png) {
    out.ok({ ...base, width: d.width, height: d.height }, '');
    return d.thumb;
  }
  try {
    if (!writeNew(target, d.png, force)) {
      // Appeared since the check before drawing.
      if (skipExisting) {
        out.tally.existing++;
        out.tick();
      } else out.fail(withMember(errorRecord(level.path, 'OUTPUT_EXISTS', `${displayName(target.path)} already exists (--force overwrites)`), level.member));
      return d.thumb;
    }
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    out.fail(withMember(errorRecord(level.path, e.code, e.message), level.member));
    return d.thumb;
  }
  out.tally.written!++;
  const record = { ...base, output: displayName(target.path), width: d.width, height: d.height };
  out.ok(record, `${name}: ${d.width}×${d.height} px (${d.tilesWide}×${d.tilesHigh} tiles, ${d.markers} markers) → ${printable(displayName(target.path))}\n`);
  return d.thumb;
}

/** The caption of a level's cell: its file name (a member's own name). */
function captionName(level: LevelInput): string {
  const full = level.member ?? displayName(level.path);
  return full.slice(full.lastIndexOf('/') + 1);
}

function writeSheet(path: Buffer, sheet: { name: string; thumb: Picture }[], force: boolean, out: Reporter, encodePng: PngEncode): void {
  if (sheet.length === 0) {
    process.stderr.write(`levelkit render: --sheet: no level had anything to draw; ${printable(displayName(path))} not written\n`);
    return;
  }
  const refuse = (code: string, message: string) => {
    process.stderr.write(`levelkit render: --sheet: ${code}: ${printable(message)}\n`);
    out.tally.errors.set(code, (out.tally.errors.get(code) ?? 0) + 1);
  };
  if (!force && exists(path)) {
    refuse('OUTPUT_EXISTS', `${displayName(path)} already exists (--force overwrites)`);
    return;
  }
  const s = contactSheet(sheet);
  try {
    if (!writeNew(namedOutput(path), pngOf(s, encodePng), force)) {
      refuse('OUTPUT_EXISTS', `${displayName(path)} appeared while drawing; it was kept`);
      return;
    }
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    refuse(e.code, e.message);
    return;
  }
  out.tally.written = (out.tally.written ?? 0) + 1;
  const order = sheet.map((x, i) => `  ${i % s.columns},${Math.floor(i / s.columns)}  ${printable(x.name)}`).join('\n');
  process.stderr.write(
    `levelkit render: contact sheet ${s.width}×${s.height} px, ${sheet.length} levels (column,row) → ${printable(displayName(path))}\n${order}\n`,
  );
}
