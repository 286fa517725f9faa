// Graal: the tile-stream, BOARD and NPC-script kernels, WASM vs TS, over every level of the corpus
// (one timed call = every stream, every level's rows or every script in turn; every level's whole
// output checked equal first), then whole-corpus decode per backend in alternating passes.
// Run alone: npx tsx bench/index.ts graal

import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Bench } from 'tinybench';
import { BINARY_LAYOUTS } from '../src/formats/graal/level.js';
import { graal } from '../src/index.js';
import { jsKernels } from '../src/kernels/js/index.js';
import type { Kernels } from '../src/kernels/types.js';
import { wasmKernels } from '../src/kernels/wasm/index.js';
import { corpusDir, listFiles, readBytes } from '../test/helpers/paths.js';
import { assertSameOutputs, comparePair, interleavedRatios, printTable } from './lib.js';

const dir = corpusDir('graal');

/** One timed pass: `call` over every level into one reused 4,096-tile buffer; returns a sum of the results. */
function runAll<T>(k: Kernels, levels: T[], call: (k: Kernels, level: T, dst: Uint16Array) => number): () => number {
  return () => {
    const dst = new Uint16Array(4096);
    let check = 0;
    for (const level of levels) check = (check + call(k, level, dst)) | 0;
    return check;
  };
}
const wasm = wasmKernels();

/**
 * Before anything is timed: for every level, both kernel sets must return the same value and
 * write the same whole 4,096-tile output. Each gets a fresh buffer filled with the same sentinel,
 * so a cell one of them skips shows up too. The timed runs only sum return values.
 */
function checkEveryLevel<L>(what: string, levels: L[], run: (k: Kernels, level: L, dst: Uint16Array) => number): void {
  const out = (k: Kernels, level: L) => {
    const dst = new Uint16Array(4096).fill(0xbeef);
    return { ret: run(k, level, dst), dst };
  };
  levels.forEach((level, i) => {
    const a = out(jsKernels, level),
      b = out(wasm, level);
    if (a.ret !== b.ret || !Buffer.from(a.dst.buffer).equals(Buffer.from(b.dst.buffer))) {
      throw new Error(`${what}: level ${i}: js and wasm outputs differ (returned ${a.ret} and ${b.ret}); not timing a broken kernel`);
    }
  });
  console.log(`${what}: js and wasm agree on all ${levels.length} levels (return values and every output tile)`);
}

if (dir) {
  const files = listFiles(dir, /\.(graal|zelda|nw|gmap)$/).map(readBytes);
  const binary = files.filter((b) => graal.sniff(b) === 'graal');
  const text = files.filter((b) => graal.sniff(b) === 'graal-nw');

  // Tile streams: every binary level's layer-0 stream, decoded into one reused 4,096-tile buffer.
  const streams = binary.map((bytes) => ({ bytes, bits: BINARY_LAYOUTS[Buffer.from(bytes.subarray(0, 8)).toString('latin1')]!.codeBits }));
  const streamBytes = streams.reduce((n, s) => n + jsKernels.graalTileStream(s.bytes, 8, s.bits, new Uint16Array(4096)) - 8, 0);
  const stream = (k: Kernels, s: (typeof streams)[number], dst: Uint16Array) => k.graalTileStream(s.bytes, 8, s.bits, dst);
  checkEveryLevel('graalTileStream', streams, stream);
  const runStreams = (k: Kernels) => runAll(k, streams, stream);
  await comparePair(
    `graalTileStream over the corpus (${streams.length} binary levels, MB/s of stream bytes)`,
    [{ name: 'whole corpus', bytes: streamBytes, input: null }],
    runStreams(jsKernels),
    runStreams(wasm),
    (a, b) => a === b,
  );

  // BOARD rows: the row table of every .nw level (as the decoder builds it), one call per level.
  const boards = text.map((bytes) => {
    const s = Buffer.from(bytes).toString('latin1');
    const rows: number[] = [];
    for (const m of s.matchAll(/^BOARD (\d+) (\d+) (\d+) 0 ([A-Za-z0-9+/]+)\r?$/gm)) {
      rows.push(m.index + m[0].indexOf(m[4]!, 6 + m[1]!.length + m[2]!.length + m[3]!.length), Number(m[3]), Number(m[2]) * 64 + Number(m[1]));
    }
    return { bytes, rows: Int32Array.from(rows) };
  });
  const boardChars = boards.reduce((n, b) => n + b.rows.reduce((s, v, i) => (i % 3 === 1 ? s + 2 * v : s), 0), 0);
  const board = (k: Kernels, b: (typeof boards)[number], dst: Uint16Array) => k.decodeBoardRows(b.bytes, b.rows, b.rows.length / 3, dst);
  checkEveryLevel('decodeBoardRows', boards, board);
  const runBoards = (k: Kernels) => runAll(k, boards, board);
  await comparePair(
    `decodeBoardRows over the corpus (${boards.length} .nw levels, MB/s of BOARD characters)`,
    [{ name: 'whole corpus', bytes: boardChars, input: null }],
    runBoards(jsKernels),
    runBoards(wasm),
    (a, b) => a === b,
  );

  // NPC scripts: one buffer per binary level holding its scripts (their decoded text back as
  // bytes, LF as 0xA7 again), 0xA7 → LF in place, one call per level. (The decoder itself no
  // longer calls this kernel: since issue 21 it rewrites each script inside its own copy of the
  // file with native indexOf, which beats a trip into WASM for ~100-byte scripts.)
  // Each timed pass first restores the buffers (one copy on both sides).
  const npcsOf = (bytes: Uint8Array) => {
    const d = graal.decode(bytes, { backend: 'js' });
    return 'npcs' in d ? d.npcs : [];
  };
  const scripts = binary
    .map((bytes) =>
      Buffer.from(
        npcsOf(bytes)
          .map((n) => n.script.text.replaceAll('\n', '\u00a7'))
          .join('\n'),
        'latin1',
      ),
    )
    .filter((b) => b.length > 0)
    .map((b) => new Uint8Array(b));
  const scriptBytes = scripts.reduce((n, b) => n + b.length, 0);
  const work = scripts.map((b) => b.slice());
  const replaceAll = (k: Kernels) => () => {
    let n = 0;
    for (let i = 0; i < work.length; i++) {
      work[i]!.set(scripts[i]!);
      n += k.replaceByte(work[i]!, 0xa7, 0x0a);
    }
    return n;
  };
  await comparePair(
    `replaceByte over the corpus NPC scripts (${scripts.length} levels with scripts, one call each, MB/s of script bytes)`,
    [{ name: 'whole corpus', bytes: scriptBytes, input: null }],
    replaceAll(jsKernels),
    replaceAll(wasm),
    (a, b) => a === b,
  );

  const decodeAll = (list: Uint8Array[], backend: 'js' | 'wasm') => () => {
    for (const b of list) graal.decode(b, { backend });
  };
  for (const [what, list] of [
    ['binary', binary],
    ['.nw', text],
  ] as const) {
    assertSameOutputs(
      `graal ${what} corpus`,
      list,
      (b) => graal.decode(b, { backend: 'js' }),
      (b) => graal.decode(b, { backend: 'wasm' }),
    );
  }
  // The end-to-end figure: js time ÷ wasm time per alternating round (the wasm ≥ 1.5× js goal).
  interleavedRatios(`decode every binary level (${binary.length}), time ÷ wasm`, ['wasm', decodeAll(binary, 'wasm')], [['js', decodeAll(binary, 'js')]], 15);
  interleavedRatios(`decode every .nw level (${text.length}), time ÷ wasm`, ['wasm', decodeAll(text, 'wasm')], [['js', decodeAll(text, 'js')]], 9);
}

if (dir) {
  // The scan's cheap path for text levels: `sections: 'summary'` + summarize, in MB/s of .nw bytes
  // (issue 20's floor: ≥ 150 MB/s), beside a full decode of the same files in the same run.
  const text = listFiles(dir, /\.nw$/)
    .map(readBytes)
    .filter((b) => graal.sniff(b) === 'graal-nw');
  const megabytes = text.reduce((n, b) => n + b.length, 0) / 1e6;
  assertSameOutputs(
    '.nw summary vs full decode',
    text,
    (b) => graal.summarize(graal.decode(b, { sections: 'summary' })),
    (b) => graal.summarize(graal.decode(b)),
  );
  // Also the built package (what users run): the TypeScript source through tsx runs this path
  // markedly slower than the bundle rollup builds, so both are shown.
  const builtUrl = new URL('../dist/index.mjs', import.meta.url);
  const built = existsSync(builtUrl) ? ((await import(builtUrl.href)) as typeof import('../src/index.js')).graal : undefined;
  if (built)
    assertSameOutputs(
      '.nw summaries, built package vs source',
      text,
      (b) => built.summarize(built.decode(b, { sections: 'summary' })),
      (b) => graal.summarize(graal.decode(b, { sections: 'summary' })),
    );
  const bench = new Bench({ time: 2000, warmupTime: 500 });
  for (const [name, lib] of [
    ['', graal],
    [' (dist/)', built],
  ] as const) {
    if (!lib) continue;
    bench.add(`summary${name}`, () => {
      for (const b of text) lib.summarize(lib.decode(b, { sections: 'summary' }));
    });
    bench.add(`full${name}`, () => {
      for (const b of text) lib.summarize(lib.decode(b));
    });
  }
  await bench.run();
  printTable(
    `.nw decode throughput (${text.length} levels, ${megabytes.toFixed(1)} MB; load ${loadavg()[0]!.toFixed(1)})`,
    ['sections', 'MB/s (mean)', 'MB/s (fastest pass)'],
    bench.tasks.map((t) => {
      const r = t.result as { latency: { mean: number; min: number } };
      return [t.name, (megabytes / (r.latency.mean / 1000)).toFixed(0), (megabytes / (r.latency.min / 1000)).toFixed(0)];
    }),
  );
}
