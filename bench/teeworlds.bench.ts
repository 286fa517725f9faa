// Teeworlds/DDNet maps: the tilemap kernels (WASM vs TS, on the corpus' own tile blocks and on
// synthetic sizes), then the whole corpus, timed on the built package (dist/; the source through
// tsx runs some paths ~1.7x slower) with alternating passes:
//   floor     full decode (default options) ÷ inflating every data block alone with node:zlib, output pre-sized
//             (chunkSize = size + 1, the fastest such inflate; chunkSize = size as a reference row), and
//             the bound: the same inflates holding what a decode's result holds until the map's last block
//   backends  full decode backend 'js' ÷ 'wasm', both with node:zlib
//   own       full decode js + pako ÷ wasm + the WASM inflater (each kernel family's own inflater)
//   arena     (only when asked) the bound with each map's held bytes in one ArrayBuffer ÷ one per block
// Run alone: npx tsx bench/index.ts teeworlds   (LEVELKIT_TW_BENCH=kernels,floor,backends,own,arena picks
// parts, default all but `arena`; LEVELKIT_BENCH_ROUNDS=n alternating rounds, default 5, 3 for `own`).
import { existsSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { ITEM, LAYER, LAYER_TYPE, TILEMAP } from '../src/formats/teeworlds/items.js';
import { placeTileLayer } from '../src/formats/teeworlds/placement.js';
import { teeworlds as sourceTeeworlds } from '../src/index.js';
import { jsKernels } from '../src/kernels/js/index.js';
import { wasmKernels } from '../src/kernels/wasm/index.js';
import { corpusDir, listFiles, readBytes } from '../test/helpers/paths.js';
import { Prng } from '../test/helpers/prng.js';
import { assertSameOutputs, comparePair, interleavedRatios, SIZES } from './lib.js';

const PARTS = new Set((process.env.LEVELKIT_TW_BENCH ?? 'kernels,floor,backends,own').split(','));
const ROUNDS = process.env.LEVELKIT_BENCH_ROUNDS ? Number(process.env.LEVELKIT_BENCH_ROUNDS) : undefined;
const builtUrl = new URL('../dist/index.mjs', import.meta.url);
const teeworlds = existsSync(builtUrl) ? ((await import(builtUrl.href)) as typeof import('../src/index.js')).teeworlds : sourceTeeworlds;
console.log(teeworlds === sourceTeeworlds ? 'dist/ not built: timing the source through tsx' : 'timing the built package (dist/index.mjs)');

const wasm = wasmKernels();
const rng = new Prng(2026);

// ── kernels on synthetic inputs (sizes are output tiles; outputs preallocated per side) ──
type Cols = { index: Uint8Array; flags: Uint8Array };
interface ExpandInput {
  src: Uint8Array;
  cells: number;
  out: Record<string, Cols>;
}
/** Tile-skip records shaped like 0.7 maps (long empty runs, short runs of solid tiles) covering `cells` tiles. */
function skipInput(cells: number): ExpandInput {
  const recs: number[] = [];
  for (let left = cells; left > 0; ) {
    const empty = rng.int(3) === 0;
    const run = Math.min(left, empty ? 1 + rng.int(256) : 1 + rng.int(3));
    recs.push(empty ? 0 : 1 + rng.int(200), empty ? 0 : rng.int(16), run - 1, 0);
    left -= run;
  }
  const cols = () => ({ index: new Uint8Array(cells), flags: new Uint8Array(cells) });
  return { src: Uint8Array.from(recs), cells, out: { js: cols(), wasm: cols() } };
}
const expandCase = (k: typeof jsKernels) => (i: ExpandInput) => {
  const o = i.out[k.name]!;
  return { n: k.expandTileSkip(i.src, o.index, o.flags), ...o };
};
const sameCols = (a: { n: number } & Cols, b: typeof a) => a.n === b.n && Buffer.compare(a.index, b.index) === 0 && Buffer.compare(a.flags, b.flags) === 0;
if (PARTS.has('kernels'))
  await comparePair(
    'expandTileSkip (0.7 tile-skip → index/flags columns; size = tiles out, MB/s of tiles)',
    SIZES.map(([name, n]) => ({ name, bytes: n, input: skipInput(n) })),
    expandCase(jsKernels),
    expandCase(wasm),
    sameCols,
  );

interface SplitInput {
  src: Uint8Array;
  out: Record<string, Uint8Array>;
}
function ctileInput(cells: number): SplitInput {
  const src = new Uint8Array(cells * 4);
  for (let p = 0; p < src.length; p += 4)
    if (rng.int(3) === 0) {
      src[p] = rng.int(256);
      src[p + 1] = rng.int(16);
    }
  return { src, out: { js: new Uint8Array(cells * 2), wasm: new Uint8Array(cells * 2) } };
}
const splitCase = (k: typeof jsKernels) => (i: SplitInput) => {
  const dst = i.out[k.name]!;
  return { n: k.splitColumns(i.src, 4, 2, i.src.length / 4, dst), dst };
};
if (PARTS.has('kernels'))
  await comparePair(
    'splitColumns (CTile → index/flags columns; size = tiles, MB/s of tiles)',
    SIZES.map(([name, n]) => ({ name, bytes: n, input: ctileInput(n) })),
    splitCase(jsKernels),
    splitCase(wasm),
    (a, b) => a.n === b.n && Buffer.compare(a.dst, b.dst) === 0,
  );

interface InPlaceInput {
  records: Uint8Array;
  buf: Record<string, Uint8Array>;
}
const inPlaceCase = (k: typeof jsKernels) => (i: InPlaceInput) => {
  const buf = i.buf[k.name]!,
    count = i.records.length / 4;
  buf.set(i.records);
  return { n: k.splitTilesInPlace(buf, count), cols: buf.subarray(0, count * 2) };
};
if (PARTS.has('kernels'))
  await comparePair(
    'splitTilesInPlace (CTile → index/flags columns inside the block; every call first restores the records, one memcpy on both sides; size = tiles)',
    SIZES.map(([name, n]) => ({ name, bytes: n, input: { records: ctileInput(n).src, buf: { js: new Uint8Array(n * 4), wasm: new Uint8Array(n * 4) } } })),
    inPlaceCase(jsKernels),
    inPlaceCase(wasm),
    (a, b) => a.n === b.n && Buffer.compare(a.cols, b.cols) === 0,
  );

// ── corpus ──────────────────────────────────────────────────────────────────
const dir = corpusDir('teeworlds');
if (dir) {
  const files = listFiles(dir, /\.map$/).map(readBytes);
  const total = files.reduce((n, b) => n + b.length, 0);

  // Every v4 data block of every map, with its declared size: the inflate-alone floor.
  const blocks: { src: Uint8Array; size: number }[] = [];
  for (const bytes of files) {
    const df = teeworlds.openDatafile(bytes);
    if (df.version !== 4) continue;
    for (const b of df.blocks) if (b.byteLength > 0) blocks.push({ src: bytes.subarray(b.offset, b.offset + b.storedByteLength), size: b.byteLength });
  }
  const inflated = blocks.reduce((n, b) => n + b.size, 0);
  const held = files.map(heldBlocks).filter((m) => m.length > 0);
  console.log(
    `\ncorpus: ${files.length} maps, ${(total / 1e6).toFixed(1)} MB stored, ${blocks.length} v4 data blocks inflating to ${(inflated / 1e6).toFixed(1)} MB`,
  );

  if (PARTS.has('kernels')) await corpusKernels(files);

  const decodeAll = (opts: Parameters<typeof teeworlds.decode>[1]) => () => {
    for (const b of files) teeworlds.decode(b, opts);
  };
  // What no eager decode can avoid on top of the floor: each map's outputs are held until its last
  // block, so they land in memory the previous block did not just free (see heldBlocks). Nothing
  // else of a decode is done: no items, no strings, no split; grid columns are filled in JS.
  // `arena`: the held bytes as views of one ArrayBuffer per map, for the grids alone or for
  // everything (node:zlib cannot write into a given buffer, so pixels and the rest are copied in).
  const inflateHolding = (arena: 'per block' | 'grids' | 'all') => (): void => {
    for (const map of held) {
      const kept: Uint8Array[] = [];
      let bytes = 0;
      for (const b of map) if (arena === 'all' || b.held !== 'block') bytes += b.heldBytes;
      const slab = arena === 'per block' ? undefined : new ArrayBuffer(bytes);
      let at = 0;
      const take = (n: number, zeroed: boolean): Uint8Array => {
        if (!slab) return zeroed ? new Uint8Array(n) : Buffer.allocUnsafeSlow(n);
        at += n;
        return new Uint8Array(slab, at - n, n);
      };
      for (const b of map) {
        const out = inflateSync(b.src, { chunkSize: Math.max(64, b.size + 1) });
        if (b.held === 'written') kept.push(take(b.heldBytes, false).fill(1));
        else if (b.held === 'zeroed') kept.push(take(b.heldBytes, true));
        else if (arena === 'all') take(b.heldBytes, false).set(out);
        else kept.push(out);
      }
    }
  };
  if (PARTS.has('floor')) {
    // Default options pick the inflater per block (WASM for CTile grids and small blocks, node:zlib
    // for the rest): checked equal to node:zlib for every block first.
    assertSameOutputs(
      'teeworlds corpus, default vs wasm kernels + node:zlib',
      files,
      (b) => teeworlds.decode(b),
      (b) => teeworlds.decode(b, { backend: 'wasm', inflate: 'native' }),
    );
    // The floor's denominator is the fastest way to inflate every block alone with its output
    // pre-sized: chunkSize = size + 1. With chunkSize = size exactly, node:zlib sees a full output
    // chunk, allocates a second one for a last call that writes nothing and concatenates the two (a
    // copy of the whole block), which made that baseline ~1.3x slower and flattered the ratio. It
    // stays as a reference row so the two can be compared in the same run.
    const inflateAlone = (chunkSlack: number) => (): void => {
      for (const b of blocks) inflateSync(b.src, { chunkSize: Math.max(64, b.size + chunkSlack) });
    };
    interleavedRatios(
      'FLOOR: whole-corpus full decode ÷ inflating every data block alone (node:zlib, chunkSize = size + 1: the fastest pre-sized inflate)',
      ['inflate alone', inflateAlone(1)],
      [
        ['decode full · default options (auto)', decodeAll(undefined)],
        ['decode full · wasm · native zlib for every block', decodeAll({ backend: 'wasm', inflate: 'native' })],
        ['reference: inflate alone, chunkSize = size (node:zlib allocates a second chunk and concatenates)', inflateAlone(0)],
        ['bound: inflate alone, holding what a decode result holds until the map is done', inflateHolding('per block')],
      ],
      ROUNDS ?? 5,
    );
  }
  if (PARTS.has('arena')) {
    // Not in the default parts: the measure behind "one owned arena per map" (bench/README.md §Teeworlds).
    interleavedRatios(
      'the bound with its held bytes in one ArrayBuffer per map ÷ one buffer per block',
      ['bound, one buffer per block', inflateHolding('per block')],
      [
        ['bound, grid columns in one arena per map', inflateHolding('grids')],
        ['bound, everything in one arena per map (pixels copied in)', inflateHolding('all')],
      ],
      ROUNDS ?? 5,
    );
  }
  if (PARTS.has('backends')) {
    assertSameOutputs(
      'teeworlds corpus, js vs wasm kernels (node:zlib)',
      files,
      (b) => teeworlds.decode(b, { backend: 'js', inflate: 'native' }),
      (b) => teeworlds.decode(b, { backend: 'wasm', inflate: 'native' }),
    );
    interleavedRatios(
      "full decode backend 'js' ÷ 'wasm', the same inflater (node:zlib)",
      ['wasm · native zlib', decodeAll({ backend: 'wasm', inflate: 'native' })],
      [['js · native zlib', decodeAll({ backend: 'js', inflate: 'native' })]],
      ROUNDS ?? 5,
    );
  }
  if (PARTS.has('own')) {
    assertSameOutputs(
      'teeworlds corpus, js + pako vs wasm + wasm',
      files,
      (b) => teeworlds.decode(b, { backend: 'js', inflate: 'pako' }),
      (b) => teeworlds.decode(b, { backend: 'wasm', inflate: 'wasm' }),
    );
    interleavedRatios(
      "full decode backend 'js' ÷ 'wasm', each with its own inflater (pako, WASM)",
      ['wasm · wasm inflater', decodeAll({ backend: 'wasm', inflate: 'wasm' })],
      [['js · pako', decodeAll({ backend: 'js', inflate: 'pako' })]],
      ROUNDS ?? 3,
    );
  }
}

/**
 * A v4 map's data blocks with what a full decode's result holds of each (the floor's bound):
 * - CTile grids (tiles, game, front, InfClass layers; tilemap v2/v3) and tile-skip grids (v4):
 *   their 2-byte-per-tile columns, every byte written;
 * - physics grids (tele, speedup, switch, tune): their columns, zeroed and left untouched (the
 *   decode writes only their non-empty windows), 2, 3 + 2 (angle), 4, 2 bytes per tile;
 * - every other block (pixels, sounds, quads, sources, strings): the inflated block itself.
 * Placement is the decoder's own (placeTileLayer), so a block counts as a grid where the decode reads one.
 */
function heldBlocks(bytes: Uint8Array): { src: Uint8Array; size: number; held: 'block' | 'written' | 'zeroed'; heldBytes: number }[] {
  const df = teeworlds.openDatafile(bytes);
  if (df.version !== 4) return [];
  const grids = new Map<number, { held: 'written' | 'zeroed'; heldBytes: number }>();
  const PHYSICS_BYTES_PER_TILE: Record<string, number> = { tele: 2, speedup: 5, switch: 4, tune: 2 };
  const layers = df.types.get(ITEM.LAYER);
  for (let i = layers?.start ?? 0; layers && i < layers.start + layers.num; i++) {
    const d = df.itemData(i);
    if (d[LAYER.type] !== LAYER_TYPE.TILES) continue;
    const placed = placeTileLayer(d, df.blocks.length);
    if ('reason' in placed) continue;
    const cells = d[TILEMAP.width]! * d[TILEMAP.height]!;
    const perTile = PHYSICS_BYTES_PER_TILE[placed.kind];
    grids.set(placed.dataIndex, perTile ? { held: 'zeroed', heldBytes: cells * perTile } : { held: 'written', heldBytes: cells * 2 });
  }
  return df.blocks.flatMap((b, i) =>
    b.byteLength > 0
      ? [
          {
            src: bytes.subarray(b.offset, b.offset + b.storedByteLength),
            size: b.byteLength,
            ...(grids.get(i) ?? { held: 'block' as const, heldBytes: b.byteLength }),
          },
        ]
      : [],
  );
}

/** The tile kernels on the corpus' real tile blocks: every 0.7 skip block and every DDNet CTile block. */
async function corpusKernels(files: Uint8Array[]): Promise<void> {
  const skipBlocks: ExpandInput[] = [];
  const tileBlocks: SplitInput[] = [];
  for (const bytes of files) {
    const m = sourceTeeworlds.decode(bytes);
    for (const g of m.groups)
      for (const l of g.layers) {
        if (l.kind !== 'tiles' && l.kind !== 'game') continue;
        const cells = l.width * l.height;
        if (l.tilemapVersion >= 4) {
          const recs: number[] = [];
          const { index, flags } = l.tiles!;
          for (let i = 0; i < cells; ) {
            let run = 1;
            while (run < 256 && i + run < cells && index[i + run] === index[i] && flags[i + run] === flags[i]) run++;
            recs.push(index[i]!, flags[i]!, run - 1, 0);
            i += run;
          }
          const cols = () => ({ index: new Uint8Array(cells), flags: new Uint8Array(cells) });
          skipBlocks.push({ src: Uint8Array.from(recs), cells, out: { js: cols(), wasm: cols() } });
        } else if (tileBlocks.reduce((n, b) => n + b.src.length / 4, 0) + cells <= 32 << 20) {
          const src = new Uint8Array(cells * 4);
          for (let i = 0; i < cells; i++) {
            src[i * 4] = l.tiles!.index[i]!;
            src[i * 4 + 1] = l.tiles!.flags[i]!;
          }
          tileBlocks.push({ src, out: { js: new Uint8Array(cells * 2), wasm: new Uint8Array(cells * 2) } });
        }
      }
  }
  // Each block has its own output buffers per side, so after one run every output can be compared.
  const allExpand = (k: typeof jsKernels) => () => skipBlocks.reduce((s, b) => s + expandCase(k)(b).n, 0);
  const allSplit = (k: typeof jsKernels) => () => tileBlocks.reduce((s, b) => s + splitCase(k)(b).n, 0);
  const outputsEqual = () =>
    skipBlocks.every((b) => sameCols({ n: 0, ...b.out.js! }, { n: 0, ...b.out.wasm! })) &&
    tileBlocks.every((b) => Buffer.compare(b.out.js!, b.out.wasm!) === 0);
  await comparePair(
    `corpus tile blocks (${skipBlocks.length} skip blocks, ${tileBlocks.length} CTile blocks; MB/s of tiles)`,
    [
      { name: 'expandTileSkip', bytes: skipBlocks.reduce((n, b) => n + b.cells, 0), input: 'expand' as const },
      { name: 'splitColumns', bytes: tileBlocks.reduce((n, b) => n + b.src.length / 4, 0), input: 'split' as const },
    ],
    (w) => (w === 'expand' ? allExpand(jsKernels) : allSplit(jsKernels))(),
    (w) => (w === 'expand' ? allExpand(wasm) : allSplit(wasm))(),
    (a, b) => a === b && outputsEqual(),
    1500,
  );
}
