// `levelkit extract`: a Teeworlds/DDNet map's embedded images as PNG (fast-png), its sounds as
// .opus, and everything else as map.json (typed arrays as numbers, or base64 of their
// little-endian bytes when long). Other formats have nothing to extract yet.
import { encode as encodePng } from 'fast-png';
import { teeworlds } from '../../index.js';
import { displayName, fileFields, joinBytes, pathBytes, printable } from '../../scan/names.js';
import { errorRecord, loadNamed, recordFromError } from '../../scan/record.js';
import { exists, writeNew } from '../../scan/write.js';
import type { Command } from '../command.js';
import { decodeOptions, UsageError } from '../options.js';

/** Typed arrays up to this length are written to map.json as plain number arrays. */
const INLINE_MAX = 256;

export const extract: Command = {
  usage: 'levelkit extract <map> -o <dir> [options]',
  summary: 'Writes a Teeworlds/DDNet map\'s images (PNG), sounds (.opus) and the rest (map.json) into a folder.',
  options: ['out', 'json', 'strict', 'backend', 'inflate', 'encoding', 'max-bytes', 'force'],
  optionHelp: { out: 'folder to write into (created when missing); existing files in it are kept unless --force' },
  run({ options, positionals }, out) {
    if (positionals.length !== 1) throw new UsageError('extract needs exactly one map file');
    if (!options.out) throw new UsageError('extract needs -o <dir>');
    const file = pathBytes(positionals[0]!);
    const loaded = loadNamed(file, { maxBytes: options.maxBytes });
    if ('error' in loaded) { out.fail(loaded); return out.finish(); }
    if (!teeworlds.sniff(loaded.bytes.subarray(0, 64))) {
      out.fail(errorRecord(file, 'NOT_SUPPORTED', 'not a Teeworlds/DDNet map (extract handles maps only)'));
      return out.finish();
    }
    let outputs: Map<string, Uint8Array | string>;
    let map: teeworlds.TeeworldsMap;
    try {
      map = teeworlds.decode(loaded.bytes, decodeOptions(options));
      outputs = extractedFiles(map);
    } catch (e) {
      out.fail(recordFromError(file, e));
      return out.finish();
    }
    out.tally.decoded(map.format, map.warnings.length);
    // Every output is known before the first is written: one that exists stops the whole
    // extraction, so a folder is never left half old and half new.
    const dir = pathBytes(options.out);
    const targets = [...outputs].map(([rel, data]) => ({ rel, path: joinBytes(dir, Buffer.from(rel)), data }));
    const present = options.force ? [] : targets.filter((t) => exists(t.path));
    out.tally.written = 0;
    if (present.length) {
      out.fail(errorRecord(file, 'OUTPUT_EXISTS', `${present.map((t) => displayName(t.path)).join(', ')} already exist${present.length === 1 ? 's' : ''} (--force overwrites)`));
      return out.finish();
    }
    try {
      for (const t of targets) {
        if (!writeNew(t.path, typeof t.data === 'string' ? Buffer.from(t.data) : t.data, options.force)) {
          out.fail(errorRecord(file, 'OUTPUT_EXISTS', `${displayName(t.path)} appeared while extracting; it was kept`));
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

/** Output files by their path below the output folder. */
function extractedFiles(map: teeworlds.TeeworldsMap): Map<string, Uint8Array | string> {
  const files = new Map<string, Uint8Array | string>();
  const images = map.images.map((img, k) => {
    const { pixels, ...rest } = img;
    if (!pixels) return rest;
    const rel = `images/${k}-${safeName(img.name.text)}.png`;
    files.set(rel, encodePng({ width: img.width, height: img.height, data: pixels, channels: img.format === 0 ? 3 : 4, depth: 8 }));
    return { ...rest, file: rel };
  });
  const sounds = map.sounds.map((s, k) => {
    const { data, ...rest } = s;
    if (!data) return rest;
    const rel = `sounds/${k}-${safeName(s.name.text)}.opus`;
    files.set(rel, data);
    return { ...rest, file: rel };
  });
  files.set('map.json', JSON.stringify({ ...map, images, sounds }, jsonValue, 1) + '\n');
  return files;
}

/** A file-name-safe form of an image or sound name. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64) || 'unnamed';
}

/** JSON replacer: texts as their string, typed arrays as numbers or {type, length, base64}. */
function jsonValue(_key: string, v: unknown): unknown {
  if (v && typeof v === 'object' && 'text' in v && 'bytes' in v && (v as { bytes: unknown }).bytes instanceof Uint8Array) return (v as { text: string }).text;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const a = v as unknown as ArrayLike<number> & ArrayBufferView;
    if (a.length <= INLINE_MAX) return Array.from(a);
    return { type: a.constructor.name, length: a.length, base64: Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64') };
  }
  return v;
}
