// `levelkit extract`: any level as files in a folder — the model as JSON plus what the format
// embeds (Teeworlds images as PNG via fast-png and sounds as .opus, GWC Lua bytecode and media,
// the .nw text of a Graal level). What each format gives is its library extract().
import { decode, type ExtractedFile, extract as extractFiles } from '../../index.js';
import { displayName, fileFields, joinBytes, pathBytes, printable } from '../../scan/names.js';
import { errorRecord, type RecordCode, recordFromError } from '../../scan/record.js';
import { type OutputTarget, outputIn, targetExists, unsafeReason, writeNew } from '../../scan/write.js';
import type { Command } from '../command.js';
import { inputName, inputOptions, type LevelInput, levelInputs, takeLevel, withMember } from '../inputs.js';
import { decodeOptions, type Options, UsageError } from '../options.js';
import { STDOUT } from '../outputs.js';
import { type PngEncode, pngEncoder } from '../png.js';
import type { Reporter } from '../report.js';

export const extract: Command = {
  usage: 'levelkit extract <file|zip|-> -o <dir> [options]',
  summary:
    'Writes a level as files into a folder: the model as JSON plus what it embeds (images as PNG, sounds, media, scripts, .nw text). A zip of levels gives a folder per member (a.zip::path names one); - reads standard input.',
  options: ['out', 'json', 'strict', 'backend', 'inflate', 'encoding', 'max-bytes', 'max-zip-ratio', 'max-cells', 'max-inflated', 'limit', 'force'],
  optionValue: { out: 'dir' },
  optionHelp: {
    out: 'folder to write into (created when missing; a zip member found in a zip gets <dir>/<archive.zip>/<path in zip>/); existing files in it are kept unless --force',
  },
  async run({ options, positionals }, out) {
    if (positionals.length !== 1) throw new UsageError('extract needs exactly one file, zip or - (standard input)');
    if (!options.out) throw new UsageError('extract needs -o <dir>');
    if (options.out === STDOUT) throw new UsageError('extract writes a folder of files; -o - (standard output) cannot hold them');
    const encodePng = await pngEncoder();
    const dir = pathBytes(options.out);
    for await (const input of levelInputs(positionals, inputOptions(options))) {
      const level = takeLevel(input, out);
      // A level found in a zip gets a folder of its own, named as the member's path below the archive's.
      if (level) extractLevel(level, { dir, below: level.named ? undefined : level.rel }, options, out, encodePng);
    }
    return out.finish();
  },
};

/**
 * Writes one level's files into `dir` (or its folder `below`: a member's path). Every
 * output is known and checked before the first is written: a name that would leave the folder, a
 * link in the way or a file that exists stops this level's extraction, so a folder is never left
 * half old and half new.
 */
function extractLevel(level: LevelInput, at: { dir: Buffer; below: Buffer | undefined }, options: Options, out: Reporter, encodePng: PngEncode): void {
  const fail = (code: RecordCode, message: string) => out.fail(withMember(errorRecord(level.path, code, message), level.member));
  const failWith = (e: unknown) => out.fail(withMember(recordFromError(level.path, e), level.member));
  let outputs: { path: string; data: Uint8Array }[];
  let value: ReturnType<typeof decode>;
  try {
    value = decode(level.bytes, decodeOptions(options));
    outputs = extractFiles(value).map((f) => ({ path: f.path, data: fileBytes(f, encodePng) }));
  } catch (e) {
    failWith(e);
    return;
  }
  out.tally.decoded(value.format, value.warnings.length);
  out.tally.written ??= 0;
  let targets: { rel: string; target: OutputTarget; data: Uint8Array }[];
  try {
    const rel = (p: string) => (at.below ? Buffer.concat([at.below, Buffer.from(`/${p}`, 'utf8')]) : p);
    targets = outputs.map((o) => ({ rel: o.path, target: outputIn(at.dir, rel(o.path)), data: o.data }));
  } catch (e) {
    failWith(e);
    return;
  }
  const twice = targets.find((t, i) => targets.findIndex((u) => u.rel === t.rel) !== i);
  if (twice) return void fail('OUTPUT_CLASH', `the level names two files ${printable(twice.rel)}; nothing was written`);
  const unsafe = targets.map((t) => unsafeReason(t.target)).find((why) => why !== undefined);
  if (unsafe) return void fail('UNSAFE_PATH', `${unsafe}; nothing was written`);
  const present = options.force ? [] : targets.filter((t) => targetExists(t.target));
  if (present.length)
    return void fail(
      'OUTPUT_EXISTS',
      `${present.map((t) => displayName(t.target.path)).join(', ')} already exist${present.length === 1 ? 's' : ''} (--force overwrites)`,
    );
  try {
    for (const t of targets) {
      if (!writeNew(t.target, t.data, options.force)) return void fail('OUTPUT_EXISTS', `${displayName(t.target.path)} appeared while extracting; it was kept`);
      out.tally.written++;
    }
  } catch (e) {
    failWith(e);
    return;
  }
  const folder = displayName(at.below ? joinBytes(at.dir, at.below) : at.dir);
  const record = { ...withMember(fileFields(level.path), level.member), output: folder, files: targets.map((t) => t.rel) };
  out.ok(record, `${printable(inputName(record))}: wrote ${targets.length} files to ${printable(folder)}\n`);
}

/** The bytes to write for one extracted file: images become PNG here, the library's files are written as they are. */
function fileBytes(f: ExtractedFile, encodePng: PngEncode): Uint8Array {
  if ('bytes' in f) return f.bytes;
  const { width, height, channels, pixels } = f.image;
  return encodePng({ width, height, data: pixels, channels, depth: 8 });
}
