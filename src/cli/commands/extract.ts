// `levelkit extract`: any level as files in a folder — the model as JSON plus what the format
// embeds (Teeworlds images as PNG via fast-png and sounds as .opus, GWC Lua bytecode and media,
// the .nw text of a Graal level). What each format gives is its library extract().
import { decode, type ExtractedFile, extract as extractFiles } from '../../index.js';
import { displayName, fileFields, pathBytes, printable } from '../../scan/names.js';
import { errorRecord, loadNamed, recordFromError } from '../../scan/record.js';
import { type OutputTarget, outputIn, targetExists, unsafeReason, writeNew } from '../../scan/write.js';
import type { Command } from '../command.js';
import { decodeOptions, UsageError } from '../options.js';
import { STDOUT } from '../outputs.js';
import { type PngEncode, pngEncoder } from '../png.js';

export const extract: Command = {
  usage: 'levelkit extract <file> -o <dir> [options]',
  summary: 'Writes a level as files into a folder: the model as JSON plus what it embeds (images as PNG, sounds, media, scripts, .nw text).',
  options: ['out', 'json', 'strict', 'backend', 'inflate', 'encoding', 'max-bytes', 'max-zip-ratio', 'max-cells', 'max-inflated', 'limit', 'force'],
  optionValue: { out: 'dir' },
  optionHelp: { out: 'folder to write into (created when missing); existing files in it are kept unless --force' },
  async run({ options, positionals }, out) {
    if (positionals.length !== 1) throw new UsageError('extract needs exactly one file');
    if (!options.out) throw new UsageError('extract needs -o <dir>');
    if (options.out === STDOUT) throw new UsageError('extract writes a folder of files; -o - (standard output) cannot hold them');
    const encodePng = await pngEncoder();
    const file = pathBytes(positionals[0]!);
    const loaded = loadNamed(file, { maxBytes: options.maxBytes });
    if ('error' in loaded) {
      out.fail(loaded);
      return out.finish();
    }
    let outputs: { path: string; data: Uint8Array }[];
    let value: ReturnType<typeof decode>;
    try {
      value = decode(loaded.bytes, decodeOptions(options));
      outputs = extractFiles(value).map((f) => ({ path: f.path, data: fileBytes(f, encodePng) }));
    } catch (e) {
      out.fail(recordFromError(file, e));
      return out.finish();
    }
    out.tally.decoded(value.format, value.warnings.length);
    out.tally.written = 0;
    // Every output is known and checked before the first is written: a name that would leave the
    // folder, a link in the way or a file that exists stops the whole extraction, so a folder is
    // never left half old and half new.
    const dir = pathBytes(options.out);
    let targets: { rel: string; target: OutputTarget; data: Uint8Array }[];
    try {
      targets = outputs.map((o) => ({ rel: o.path, target: outputIn(dir, o.path), data: o.data }));
    } catch (e) {
      out.fail(recordFromError(file, e));
      return out.finish();
    }
    const twice = targets.find((t, i) => targets.findIndex((u) => u.rel === t.rel) !== i);
    if (twice) {
      out.fail(errorRecord(file, 'OUTPUT_CLASH', `the level names two files ${printable(twice.rel)}; nothing was written`));
      return out.finish();
    }
    const unsafe = targets.map((t) => unsafeReason(t.target)).find((why) => why !== undefined);
    if (unsafe) {
      out.fail(errorRecord(file, 'UNSAFE_PATH', `${unsafe}; nothing was written`));
      return out.finish();
    }
    const present = options.force ? [] : targets.filter((t) => targetExists(t.target));
    if (present.length) {
      out.fail(
        errorRecord(
          file,
          'OUTPUT_EXISTS',
          `${present.map((t) => displayName(t.target.path)).join(', ')} already exist${present.length === 1 ? 's' : ''} (--force overwrites)`,
        ),
      );
      return out.finish();
    }
    try {
      for (const t of targets) {
        if (!writeNew(t.target, t.data, options.force)) {
          out.fail(errorRecord(file, 'OUTPUT_EXISTS', `${displayName(t.target.path)} appeared while extracting; it was kept`));
          return out.finish();
        }
        out.tally.written++;
      }
    } catch (e) {
      out.fail(recordFromError(file, e));
      return out.finish();
    }
    const record = { ...fileFields(file), output: options.out, files: targets.map((t) => t.rel) };
    out.ok(record, `${printable(record.file)}: wrote ${targets.length} files to ${printable(options.out)}\n`);
    return out.finish();
  },
};

/** The bytes to write for one extracted file: images become PNG here, the library's files are written as they are. */
function fileBytes(f: ExtractedFile, encodePng: PngEncode): Uint8Array {
  if ('bytes' in f) return f.bytes;
  const { width, height, channels, pixels } = f.image;
  return encodePng({ width, height, data: pixels, channels, depth: 8 });
}
