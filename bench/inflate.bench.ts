// zlib inflaters on the corpus's own blocks: the WASM inflater (assembly/inflate.ts) against pako
// (its TS twin) and node:zlib (the physical limit), per set (Teeworlds data blocks, WWD main
// blocks); then a whole Teeworlds corpus decode, backend 'wasm' + inflate 'wasm' against backend
// 'js' + inflate 'pako'. Outputs are checked equal before anything is timed.
// Run alone: npx tsx bench/index.ts inflate   (LEVELKIT_BENCH_ROUNDS=n for more alternating rounds)
import { inflateSync } from 'node:zlib';
import { summarize, teeworlds } from '../src/index.js';
import { jsKernels } from '../src/kernels/js/index.js';
import type { Kernels } from '../src/kernels/types.js';
import { wasmKernels } from '../src/kernels/wasm/index.js';
import { corpusDir, listFiles, readBytes } from '../test/helpers/paths.js';
import { distinctSample, teeworldsBlocks, wwdBlocks, type ZlibBlock } from '../test/helpers/zlib-blocks.js';
import { interleavedRatios, printTable } from './lib.js';

const wasm = wasmKernels();
const ROUNDS = Number(process.env.LEVELKIT_BENCH_ROUNDS ?? 3);

// Each pass allocates its outputs, as decode does (core/inflate.ts): the same work on every side.
const viaKernel = (k: Kernels, blocks: ZlibBlock[]) => () => {
  for (const b of blocks) if (k.inflateZlib(b.src, new Uint8Array(b.size)) < 0) throw new Error(`${k.name}: ${b.name} failed`);
};
const viaNode = (blocks: ZlibBlock[]) => () => {
  for (const b of blocks) inflateSync(b.src, { chunkSize: Math.max(64, b.size + 1) });
};

function blockRows(set: string, blocks: ZlibBlock[]): void {
  for (const b of blocks) {
    const want = inflateSync(b.src);
    for (const k of [wasm, jsKernels]) {
      const out = new Uint8Array(b.size);
      if (k.inflateZlib(b.src, out) < 0 || Buffer.compare(out, want) !== 0)
        throw new Error(`${set}: ${b.name}: ${k.name} differs from node:zlib; not timing it`);
    }
  }
  const bytes = blocks.reduce((n, b) => n + b.size, 0);
  const passes: [string, () => void][] = [
    ['WASM inflater', viaKernel(wasm, blocks)],
    ['pako', viaKernel(jsKernels, blocks)],
    ['node:zlib', viaNode(blocks)],
  ];
  // Throughput of each from its fastest of three passes (load only ever adds time).
  const fastest = passes.map(([name, f]) => {
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      f();
      best = Math.min(best, performance.now() - t0);
    }
    return [name, `${(bytes / 1e3 / best).toFixed(0)}`] as [string, string];
  });
  printTable(`${set}: ${blocks.length} blocks, ${(bytes / 1e6).toFixed(1)} MB inflated (MB/s of output, fastest of 3 passes)`, ['inflater', 'MB/s'], fastest);
  interleavedRatios(`${set}: time ÷ WASM inflater's`, passes[0]!, passes.slice(1), ROUNDS);
}

const tw = corpusDir('teeworlds');
const wwdDir = corpusDir('wwd');
if (tw) {
  const files = listFiles(tw, /\.map$/);
  const blocks = files.flatMap((p) => {
    try {
      return teeworldsBlocks(p, readBytes(p));
    } catch {
      return [];
    }
  });
  blockRows('Teeworlds data blocks (distinct, sampled to ~150 MB)', distinctSample(blocks, 150e6));
}
if (wwdDir) {
  const blocks = listFiles(wwdDir, /\.wwd$/i).flatMap((p) => wwdBlocks(p, readBytes(p)));
  blockRows('WWD main blocks (distinct)', distinctSample(blocks, Infinity));
}

if (tw) {
  // Whole corpus, every map: each pass keeps each map's summary (grid digests included), and the
  // two paths must agree on all of them before the ratio is printed. Pako's pass is the long one
  // (~25 s on a quiet machine), so this runs one alternating round unless asked for more.
  const maps = listFiles(tw, /\.map$/).map(readBytes);
  const seen: Record<string, string[]> = {};
  const decodeAll = (name: string, opts: Parameters<typeof teeworlds.decode>[1]) => () => {
    const out: string[] = [];
    for (const b of maps) {
      try {
        out.push(JSON.stringify(summarize(teeworlds.decode(b, opts))));
      } catch (e) {
        out.push(`error ${(e as { code?: string }).code}`);
      }
    }
    seen[name] = out;
  };
  const r = interleavedRatios(
    `Teeworlds corpus (${maps.length} maps), full decode: time ÷ backend 'wasm' + inflate 'wasm'`,
    ['wasm + wasm', decodeAll('wasm', { backend: 'wasm', inflate: 'wasm' })],
    [['js + pako', decodeAll('pako', { backend: 'js', inflate: 'pako' })]],
    Number(process.env.LEVELKIT_BENCH_ROUNDS ?? 1),
  );
  const differ = seen.wasm!.findIndex((s, i) => s !== seen.pako![i]);
  if (differ >= 0) throw new Error(`map ${differ}: the two paths decode to different summaries; the ratio above is void`);
  console.log(`\nfull decode, js + pako ÷ wasm + wasm: ${r['js + pako']!.median.toFixed(2)}× (summaries of all ${maps.length} maps equal)`);
}
