// The page's decode worker: decoding, drawing and unzipping happen here, so the page stays
// responsive on a big map or a zip of hundreds of levels. Loads nothing but the library.

import {
  asyncInflater,
  DecodeError,
  type DecodeOptions,
  decode,
  decodeAsync,
  detect,
  mediaOf,
  render,
  summarize,
  tablesOf,
  textsOf,
  wasmAvailable,
} from '../src/index.js';
import type { BenchRow, DecodedFile, Reply, Request } from './protocol.js';
import { levelFilesIn, namedLikeLevel } from './unzip.js';

interface WorkerScope {
  onmessage: ((e: { data: Request }) => void) | null;
  postMessage(message: Reply, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

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
      let p = render(value, { layer: req.layer ?? 'main' });
      // A map whose tile layers carry their tilesets looks like the game when every layer is drawn.
      if (req.layer === undefined && p.layers.some((l) => l.tileset)) p = render(value, { layer: 'all' });
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
        ...(p.empty ? { empty: p.empty } : {}),
      };
      transfer.push(p.rgba.buffer as ArrayBuffer);
    }
    scope.postMessage({ id: req.id, ok: true, decoded }, transfer);
  } catch (e) {
    scope.postMessage({ id: req.id, ok: false, error: errorOf(e) });
  }
};
