// The page's decode worker: decoding, drawing and unzipping happen here, so the page stays
// responsive on a big map or a zip of hundreds of levels. Loads nothing but the library and unzipit.

import { unzipRaw } from 'unzipit';
import {
  asyncInflater,
  DEFAULT_LIMITS,
  DecodeError,
  type DecodeOptions,
  decode,
  decodeAsync,
  detect,
  LEVEL_EXTENSIONS,
  mediaOf,
  render,
  summarize,
  tablesOf,
  textsOf,
  wasmAvailable,
  zipInflateBudget,
} from '../src/index.js';
import { imageThumbnails } from '../src/render/thumbnails.js';
import type { BenchRow, DecodedFile, Reply, Request, ZipMember } from './protocol.js';
import { resourcesFor, setGraalTileset } from './resources.js';

interface WorkerScope {
  onmessage: ((e: { data: Request }) => void) | null;
  postMessage(message: Reply, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

/** A name with a level file's extension (`levelkit scan` lists such files even when their content is no level). */
const namedLikeLevel = (name: string) => LEVEL_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

/**
 * The files of a zip that are levels by content, or named like one (as `levelkit scan` counts
 * them). The members come as a list, not an object keyed by name: a member named `__proto__`
 * would vanish from one. A dropped zip is untrusted: like the scan, the page inflates at most
 * `maxZipRatio` (100) times the zip's size (at least 1 MiB) over all members, and no member past
 * `maxInflatedBytes`; a member over either is listed as refused, not read (a zip bomb would
 * otherwise fill the tab's memory).
 */
async function levelFilesIn(bytes: Uint8Array): Promise<ZipMember[]> {
  const { entries } = await unzipRaw(bytes);
  const out: ZipMember[] = [];
  let budget = zipInflateBudget(bytes.length, DEFAULT_LIMITS.maxZipRatio);
  for (const e of entries) {
    if (e.isDirectory || e.name.endsWith('/')) continue;
    // An empty member can only be listed (named like a level: the scan's UNKNOWN_FORMAT).
    if (e.size === 0 && !namedLikeLevel(e.name)) continue;
    const refuse = (message: string) => out.push({ name: e.name, bytes: new Uint8Array(0), refused: { code: 'LIMIT_EXCEEDED', message } });
    if (e.size > DEFAULT_LIMITS.maxInflatedBytes) {
      refuse(`${e.size} bytes declared, over the ${DEFAULT_LIMITS.maxInflatedBytes}-byte limit per member`);
      continue;
    }
    if (e.size > budget) {
      refuse(`inflating ${e.size} more bytes would take the zip over ${DEFAULT_LIMITS.maxZipRatio} × its size`);
      continue;
    }
    const b = new Uint8Array(await e.arrayBuffer());
    // A member that inflated to more than it declared is charged what it took.
    budget -= Math.max(e.size, b.length);
    if (b.length !== e.size) {
      refuse(`inflated to ${b.length} bytes, ${e.size} declared`);
      continue;
    }
    if (detect(b) !== undefined || namedLikeLevel(e.name)) out.push({ name: e.name, bytes: b });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

async function decodeOne(bytes: Uint8Array, settings: { backend: DecodeOptions['backend']; inflater: 'wasm' | 'stream' | 'pako' }) {
  const t0 = performance.now();
  const value =
    settings.inflater === 'stream'
      ? await decodeAsync(bytes, { backend: settings.backend, inflate: 'pako' })
      : decode(bytes, { backend: settings.backend, inflate: settings.inflater });
  return { value, ms: performance.now() - t0 };
}

/** Mean ms per run of `fn`, run for at least `budget` ms (and at least 3 times). */
async function time(fn: () => unknown, budget = 250): Promise<number> {
  await fn(); // warm-up: WASM instantiation and JIT are not what is measured
  const t0 = performance.now();
  let n = 0;
  while (n < 3 || performance.now() - t0 < budget) {
    await fn();
    n++;
  }
  return (performance.now() - t0) / n;
}

async function bench(bytes: Uint8Array): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const wasm = wasmAvailable();
  rows.push({ label: 'TypeScript kernels, pako', ms: await time(() => decode(bytes, { backend: 'js', inflate: 'pako' })) });
  rows.push(
    wasm
      ? { label: 'WASM kernels, pako', ms: await time(() => decode(bytes, { backend: 'wasm', inflate: 'pako' })) }
      : { label: 'WASM kernels, pako', ms: null, note: 'WebAssembly unavailable' },
  );
  if (wasm) {
    rows.push({ label: 'TypeScript kernels, WASM inflate', ms: await time(() => decode(bytes, { backend: 'js', inflate: 'wasm' })) });
    rows.push({ label: 'WASM kernels, WASM inflate', ms: await time(() => decode(bytes, { backend: 'wasm', inflate: 'wasm' })) });
  }
  const stream = asyncInflater({ inflate: 'pako' }) === 'stream';
  const note = stream ? undefined : 'DecompressionStream unavailable: pako';
  rows.push({
    label: 'TypeScript kernels, native inflate (decodeAsync)',
    ms: await time(() => decodeAsync(bytes, { backend: 'js', inflate: 'pako' })),
    ...(note ? { note } : {}),
  });
  if (wasm)
    rows.push({
      label: 'WASM kernels, native inflate (decodeAsync)',
      ms: await time(() => decodeAsync(bytes, { backend: 'wasm', inflate: 'pako' })),
      ...(note ? { note } : {}),
    });
  return rows;
}

function errorOf(e: unknown): Extract<Reply, { ok: false }>['error'] {
  if (e instanceof DecodeError) return { code: e.code, message: e.message, offset: e.offset ?? null, path: e.path ?? null };
  return { code: (e as Error)?.name ?? 'Error', message: String((e as Error)?.message ?? e) };
}

scope.onmessage = async ({ data: req }) => {
  try {
    if (req.type === 'unzip') {
      const files = await levelFilesIn(req.bytes);
      scope.postMessage(
        { id: req.id, ok: true, files },
        files.map((f) => f.bytes.buffer as ArrayBuffer),
      );
      return;
    }
    if (req.type === 'tileset') {
      setGraalTileset(req.image ?? undefined);
      scope.postMessage({ id: req.id, ok: true, tileset: req.image !== null });
      return;
    }
    if (req.type === 'bench') {
      scope.postMessage({ id: req.id, ok: true, bench: await bench(req.bytes) });
      return;
    }
    if (detect(req.bytes) === undefined) {
      // What `levelkit scan` records for such a file, so the table's counts are the scan's.
      const why = namedLikeLevel(req.name) ? 'named like a level, but no levelkit format recognises its content' : 'no levelkit format recognises its content';
      scope.postMessage({ id: req.id, ok: false, error: { code: 'UNKNOWN_FORMAT', message: why } });
      return;
    }
    const { value, ms } = await decodeOne(req.bytes, req.settings);
    const { version, summary } = summarize(value);
    const decoded: DecodedFile = { format: value.format, version, summary, warnings: value.warnings, ms };
    const transfer: Transferable[] = [];
    if (req.preview) {
      // Bundled pictures the level names (fetched once per session) and the session's Graal tileset.
      const { resources, report } = await resourcesFor(value);
      let p = render(value, { layer: req.layer ?? 'main', resources });
      // A map whose tile layers carry their tilesets looks like the game when every layer is drawn.
      if (req.layer === undefined && p.layers.some((l) => l.tileset)) p = render(value, { layer: 'all', resources });
      decoded.preview = {
        width: p.width,
        height: p.height,
        rgba: p.rgba,
        scale: p.scale,
        tilesWide: p.tilesWide,
        tilesHigh: p.tilesHigh,
        layers: p.layers,
        drawn: p.drawn,
        markers: p.markers,
        legend: p.legend,
        tables: tablesOf(value),
        media: mediaOf(value),
        texts: textsOf(value),
        thumbnails: imageThumbnails(value),
        resources: report,
        ...(p.empty ? { empty: p.empty } : {}),
      };
      transfer.push(p.rgba.buffer as ArrayBuffer);
    }
    scope.postMessage({ id: req.id, ok: true, decoded }, transfer);
  } catch (e) {
    scope.postMessage({ id: req.id, ok: false, error: errorOf(e) });
  }
};
