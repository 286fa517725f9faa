// `levelkit render`: each level's preview (the page's drawing code, src/render) as PNG via
// fast-png (png.ts): one file to -o out.png, many into -o dir/ (tree mirrored, a zip's members below
// `archive.zip/`, `.png` appended to each name), and/or one contact sheet of them all with --sheet
// (sheet.ts). More than one level is drawn on a worker pool (render-pool.ts). A level with no grid
// says so and writes nothing.

import { displayName, extOf, fileFields, pathBytes, printable } from '../../scan/names.js';
import { errorRecord } from '../../scan/record.js';
import { maxWorkers } from '../../scan/workers.js';
import { exists, namedOutput, OutputError, type OutputTarget, outputIn, outputKeys, targetExists, writeNew } from '../../scan/write.js';
import { BundledAssets } from '../assets.js';
import type { Command } from '../command.js';
import { checkInputs, inputName, inputOptions, type LevelInput, levelInputs, takeLevel, withMember } from '../inputs.js';
import { decodeOptions, UsageError } from '../options.js';
import { refuseSharedOutputs, STDOUT } from '../outputs.js';
import { type PngEncode, pngEncoder } from '../png.js';
import { type Picture, pngOf, type RenderAnswer, type RenderJob, renderLevel } from '../render-level.js';
import { RenderRunner, type RenderWork } from '../render-pool.js';
import { isWorld, renderWorld, type WorldReading } from '../render-world.js';
import type { Reporter } from '../report.js';
import { askedWorkers, positiveNumber } from '../scan-args.js';
import { contactSheet, MAX_SHEET_LEVELS } from '../sheet.js';
import { stdoutGone, stdoutReady, writeStdout } from '../stdout.js';
import { checkGraphicsFolder, loadTileset } from '../user-graphics.js';

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
    'time',
    'tileset',
    'graphics',
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
    out: 'a .png for one level (- writes it to stdout), else a folder (created when missing; files found in a folder keep their path below it, named files their name, zip members archive.zip/path; .png appended)',
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
    if (raw.time !== undefined) job.render.time = renderTime(raw.time as string);
    // Checked here, before anything is drawn: a wrong path is the user's mistake, said once.
    const tileset = raw.tileset === undefined ? undefined : loadTileset(raw.tileset as string);
    if (raw.graphics !== undefined) checkGraphicsFolder(raw.graphics as string);
    job.user = {
      ...(raw.tileset === undefined ? {} : { tileset: raw.tileset as string }),
      ...(raw.graphics === undefined ? {} : { graphics: raw.graphics as string }),
    };
    const workers = Math.min(askedWorkers(raw.workers as string | undefined), maxWorkers());
    const timeout = raw.timeout === undefined ? DEFAULT_TIMEOUT_S : positiveNumber('timeout', raw.timeout as string);
    const skipExisting = raw['skip-existing'] === true;
    if (skipExisting && options.force) throw new UsageError('--skip-existing and --force contradict each other (keep, or overwrite, what is there)');
    const toStdout = options.out === STDOUT;
    const toFile = options.out !== undefined && (toStdout || extOf(pathBytes(options.out)) === '.png');
    refuseSharedOutputs([
      { option: '--json', path: options.json ? STDOUT : undefined },
      { option: '-o', path: toFile ? options.out : undefined },
      { option: '--sheet', path: options.sheet },
    ]);
    // The PNG is the data on stdout: the lines saying what was drawn move to stderr.
    if (toStdout || options.sheet === STDOUT) out.textToStderr();
    const sheetPath = options.sheet === undefined || options.sheet === STDOUT ? undefined : pathBytes(options.sheet);
    // The sheet is checked before anything is drawn, so a refusal draws and writes nothing.
    if (sheetPath && !options.force && exists(sheetPath)) {
      sheetRefusal(out, 'OUTPUT_EXISTS', `${displayName(sheetPath)} already exists (--force overwrites); nothing was written`);
      return out.finish();
    }
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
    const assets = new BundledAssets(say, job.user);
    const sheet: { index: number; name: string; thumb: Picture }[] = [];
    const answer = (work: RenderWork, a: RenderAnswer) => {
      for (const note of a.notes ?? []) say(note);
      const thumb = handleAnswer(work, a, out, { force: options.force || false, skipExisting, toStdout });
      if (thumb) sheet.push({ index: work.index, name: captionName(work.level), thumb });
    };
    // The reader of stdout left (`render dir -o out | head -1`): levels not yet drawn are dropped.
    const runner = new RenderRunner({
      workers,
      timeoutMs: timeout * 1000,
      job,
      signal: stdoutGone,
      answer,
      inProcess: (work) => renderLevel(work.level.bytes, job, assets, encodePng),
    });
    // Every output path so far, by each name it is known as (outputKeys: resolved, links followed), with whose it is.
    const outputs = new Map<string, string>();
    const folders = new Map<string, string>();
    if (sheetPath) for (const k of outputKeys(sheetPath, folders)) outputs.set(k, '--sheet');
    // A .gmap is drawn as its world on this thread: its levels are read from beside it.
    const reading: WorldReading = { ...inputOptions(options), ...(tileset ? { tileset } : {}) };
    let index = 0;
    for await (const input of levelInputs(positionals, inputOptions(options, counts))) {
      if (!(await stdoutReady())) break;
      const level = takeLevel(input, out);
      if (!level) continue;
      if (toFile && index > 0)
        throw new UsageError(
          `-o ${toStdout ? '- writes one PNG to standard output' : 'names a .png'}, so render needs exactly one level file (a folder or zip of them needs -o <dir>)`,
        );
      let target: OutputTarget | undefined;
      try {
        target =
          options.out === undefined || toStdout
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
        const keys = outputKeys(target.path, folders);
        const before = keys.map((k) => outputs.get(k)).find((o) => o !== undefined);
        if (before !== undefined) {
          const shown = displayName(target.path);
          out.fail(withMember(errorRecord(level.path, 'OUTPUT_CLASH', `${shown} is also the output of ${before}; not drawn`), level.member));
          continue;
        }
        const owner = inputName(withMember(fileFields(level.path), level.member));
        for (const k of keys) outputs.set(k, owner);
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
      if (isWorld(level.bytes)) answer({ level, target, index }, await renderWorld(level, job, reading, encodePng));
      else await runner.add({ level, target, index });
      index++;
    }
    await runner.finish();
    // The reader of stdout left: nothing more is drawn or written.
    if (stdoutGone.aborted) return out.finish();
    sheet.sort((a, b) => a.index - b.index);
    if (sheet.length > MAX_SHEET_LEVELS)
      process.stderr.write(
        `levelkit render: --sheet: a sheet holds at most ${MAX_SHEET_LEVELS} levels; the last ${sheet.length - MAX_SHEET_LEVELS} are not on it\n`,
      );
    if (options.sheet) writeSheet(sheetPath ?? STDOUT, sheet.slice(0, MAX_SHEET_LEVELS), options.force, out, encodePng);
    return out.finish();
  },
};

/** --time in seconds: a plain decimal number 0…86400 (what render()'s `time` takes). */
function renderTime(s: string): number {
  const n = Number(s);
  if (!/^\d+(\.\d+)?$/.test(s) || !(n <= 86_400)) throw new UsageError(`--time must be a number of seconds 0…86400; got '${printable(s)}'`);
  return n;
}

/** A level's record (and its PNG written) from its answer; returns its sheet cell, if it has one. */
function handleAnswer(
  work: RenderWork,
  a: RenderAnswer,
  out: Reporter,
  { force, skipExisting, toStdout }: { force: boolean; skipExisting: boolean; toStdout: boolean },
): Picture | undefined {
  const { level, target } = work;
  if ('error' in a) {
    out.fail(withMember({ ...fileFields(level.path), error: a.error }, level.member));
    return undefined;
  }
  const d = a.drawn;
  out.tally.decoded(d.format, d.warnings);
  const base = { ...withMember(fileFields(level.path), level.member), format: d.format, layers: d.layers, markers: d.markers, ...d.world };
  const name = printable(inputName(base));
  if (d.empty) {
    out.ok({ ...base, empty: d.empty }, `${name}: nothing to draw: ${printable(d.empty)}\n`);
    return undefined;
  }
  const drawn = d.world
    ? `${d.width}×${d.height} px (a world of ${d.world.columns}×${d.world.rows} levels, ${d.world.missing.length} missing, ${d.world.errors.length} not decoded)`
    : `${d.width}×${d.height} px (${d.tilesWide}×${d.tilesHigh} tiles, ${d.markers} markers)`;
  if (toStdout && d.png) {
    writeStdout(d.png);
    out.tally.written!++;
    out.ok({ ...base, output: STDOUT, width: d.width, height: d.height }, `${name}: ${drawn} → standard output\n`);
    return d.thumb;
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
  out.ok(record, `${name}: ${drawn} → ${printable(displayName(target.path))}\n`);
  return d.thumb;
}

/** The caption of a level's cell: its file name (a member's own name). */
function captionName(level: LevelInput): string {
  const full = level.member ?? displayName(level.path);
  return full.slice(full.lastIndexOf('/') + 1);
}

/** A --sheet that is not written: one line on stderr, counted as a failure under `code`. */
function sheetRefusal(out: Reporter, code: string, message: string): void {
  process.stderr.write(`levelkit render: --sheet: ${code}: ${printable(message)}\n`);
  out.tally.errors.set(code, (out.tally.errors.get(code) ?? 0) + 1);
}

function writeSheet(path: Buffer | typeof STDOUT, sheet: { name: string; thumb: Picture }[], force: boolean, out: Reporter, encodePng: PngEncode): void {
  const shown = path === STDOUT ? 'standard output' : displayName(path);
  if (sheet.length === 0) {
    process.stderr.write(`levelkit render: --sheet: no level had anything to draw; ${printable(shown)} not written\n`);
    return;
  }
  const s = contactSheet(sheet);
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
