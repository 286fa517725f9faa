// `levelkit extract <map> -o <dir>`: a Teeworlds/DDNet map's embedded images as PNG (fast-png),
// its sounds as .opus, and everything else as map.json (typed arrays as numbers, or base64 of
// their little-endian bytes when long). Other formats have nothing to extract yet.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode as encodePng } from 'fast-png';
import { DecodeError, teeworlds, type Backend, type InflaterChoice } from '../../index.js';
import { parseArgs, UsageError } from '../args.js';

export const usage = 'levelkit extract <map> -o <dir> [--backend auto|wasm|js] [--inflate auto|native|pako] [--strict]';

/** Typed arrays up to this length are written to map.json as plain number arrays. */
const INLINE_MAX = 256;

export async function run(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, { bool: ['--strict'], valued: ['-o', '--out', '--backend', '--inflate'] });
  if (positionals.length !== 1) throw new UsageError('extract needs exactly one map file');
  const out = (flags.get('-o') ?? flags.get('--out')) as string | undefined;
  if (!out) throw new UsageError('extract needs -o <dir>');
  const backend = (flags.get('--backend') ?? 'auto') as Backend;
  if (!['auto', 'wasm', 'js'].includes(backend)) throw new UsageError('--backend must be auto, wasm or js');
  const inflate = (flags.get('--inflate') ?? 'auto') as InflaterChoice;
  if (!['auto', 'native', 'pako'].includes(inflate)) throw new UsageError('--inflate must be auto, native or pako');
  const file = positionals[0]!;
  const bytes = readFileSync(file);
  if (!teeworlds.sniff(bytes.subarray(0, 64))) {
    process.stderr.write(`levelkit extract: ${file}: not a Teeworlds/DDNet map (extract handles maps only)\n`);
    return 2;
  }
  let map: teeworlds.TeeworldsMap;
  try {
    map = teeworlds.decode(bytes, { backend, inflate, strict: flags.has('--strict') });
  } catch (e) {
    if (e instanceof DecodeError) {
      process.stderr.write(`levelkit extract: ${file}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  mkdirSync(out, { recursive: true });
  const written: string[] = [];
  const put = (rel: string, data: Uint8Array | string) => {
    mkdirSync(join(out, rel, '..'), { recursive: true });
    writeFileSync(join(out, rel), data);
    written.push(rel);
    return rel;
  };
  const images = map.images.map((img, k) => {
    const { pixels, ...rest } = img;
    if (!pixels) return rest;
    const png = encodePng({ width: img.width, height: img.height, data: pixels, channels: img.format === 0 ? 3 : 4, depth: 8 });
    return { ...rest, file: put(`images/${k}-${safeName(img.name.text)}.png`, png) };
  });
  const sounds = map.sounds.map((s, k) => {
    const { data, ...rest } = s;
    return data ? { ...rest, file: put(`sounds/${k}-${safeName(s.name.text)}.opus`, data) } : rest;
  });
  put('map.json', JSON.stringify({ ...map, images, sounds }, jsonValue, 1) + '\n');
  process.stdout.write(`${file}: wrote ${written.length} files to ${out}\n`);
  return 0;
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
