// Rusty Hearts .wdata: box-table extraction (the walkRecords kernel), WASM vs TS, on the largest
// generated fixture (every table of the file in one timed call), on ~64 KB of records and on a
// synthetic map with 100,000 boxes; outputs checked equal before timing. Then whole-file decode
// of the 100,000-box map per backend.
// Run alone: npx tsx bench/index.ts wdata

import { isDeepStrictEqual } from 'node:util';
import { buildWdata, WDATA_FIXTURES } from '../fixtures/generators/wdata.js';
import { ANIBG_FIELDS, EVENT_BOX_FIELDS, type FieldSpec, fieldsAt, GIMMICK_FIELDS, ITEMBOX_FIELDS, programFor } from '../src/formats/wdata/layout.js';
import type { WdataBoxTable, WdataLevel } from '../src/formats/wdata/types.js';
import { wdata } from '../src/index.js';
import { jsKernels } from '../src/kernels/js/index.js';
import type { Kernels } from '../src/kernels/types.js';
import { wasmKernels } from '../src/kernels/wasm/index.js';
import { compareMany, comparePair } from './lib.js';

const wasm = wasmKernels();

/** One kernel call: a table's records at `offset`. */
interface Walk {
  src: Uint8Array;
  offset: number;
  count: number;
  program: Int32Array;
  columns: Int32Array;
}

/** Every table of `bytes` walked in turn; returns the ends summed (so nothing is optimised away). */
const walkAll = (k: Kernels) => (walks: Walk[]) => {
  let check = 0;
  for (const w of walks) check = (check + k.walkRecords(w.src, w.offset, w.count, w.program, w.columns)) | 0;
  return check;
};

/** The walks a decode of `v` (from `bytes`) makes: each non-camera EventBox group, AniBG, ItemBox, Gimmick. */
function walksOf(bytes: Uint8Array, v: WdataLevel): { walks: Walk[]; recordBytes: number } {
  const walks: Walk[] = [];
  const ev = v.eventBoxVersion ?? 0;
  const add = (offset: number, count: number, fields: readonly FieldSpec[]) => {
    const program = programFor(fields);
    walks.push({ src: bytes, offset, count, program, columns: new Int32Array((program.length / 3) * count) });
  };
  v.eventBoxes?.order.forEach((t) => {
    if (t !== 0) add(v.eventBoxes!.offsets[t]!, v.eventBoxes!.tables[t]!.count, fieldsAt(EVENT_BOX_FIELDS[t]!, ev));
  });
  // The three sequential sections: find each by walking (as the decoder does).
  let at = Math.max(...walks.map((w) => jsKernels.walkRecords(w.src, w.offset, w.count, w.program, w.columns)));
  for (const fields of [fieldsAt(ANIBG_FIELDS, v.aniBGVersion ?? 0), fieldsAt(ITEMBOX_FIELDS, v.itemBoxVersion ?? 0), GIMMICK_FIELDS]) {
    const count = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true);
    add(at + 4, count, fields);
    const w = walks.at(-1)!;
    at = jsKernels.walkRecords(w.src, w.offset, w.count, w.program, w.columns);
  }
  const recordBytes = walks.reduce((n, w) => n + jsKernels.walkRecords(w.src, w.offset, w.count, w.program, w.columns) - w.offset, 0);
  return { walks, recordBytes };
}

/** `v` with its respawn table grown to `n` boxes (rows repeated), encoded: a big map from real structure. */
function grown(v: WdataLevel, n: number): Uint8Array {
  const t = v.eventBoxes!.tables[1]!;
  const pick = <T>(col: ArrayLike<T>) => Array.from({ length: n }, (_, i) => col[i % t.count]!);
  const big = { ...t, count: n, name: pick(t.name), fields: {} as WdataBoxTable['fields'] } as WdataBoxTable;
  for (const c of wdata.OBB_COLUMNS) big[c] = Float32Array.from(pick(t[c]));
  for (const [k, col] of Object.entries(t.fields)) {
    big.fields[k] = ArrayBuffer.isView(col)
      ? new (col.constructor as Int32ArrayConstructor)(pick(col as Int32Array))
      : (pick(col as unknown[]) as WdataBoxTable['fields'][string]);
  }
  v.eventBoxes!.tables[1] = big;
  return wdata.encode(v);
}

const fixtures = Object.values(WDATA_FIXTURES).map((s) => buildWdata(s).bytes);
const largest = fixtures.reduce((a, b) => (b.length > a.length ? b : a));
const small = walksOf(largest, wdata.decode(largest));
const base = () => wdata.decode(largest);
const mid = grown(base(), 500);
const midWalks = walksOf(mid, wdata.decode(mid));
const huge = grown(base(), 100_000);
const hugeWalks = walksOf(huge, wdata.decode(huge));

const cases = [
  { name: `largest fixture (${largest.length} B, ${small.walks.length} tables)`, bytes: small.recordBytes, input: small.walks },
  { name: `500-box respawn map (${(midWalks.recordBytes / 1024).toFixed(0)} KB of records)`, bytes: midWalks.recordBytes, input: midWalks.walks },
  { name: `100,000-box map (${(hugeWalks.recordBytes / 1048576).toFixed(1)} MB of records)`, bytes: hugeWalks.recordBytes, input: hugeWalks.walks },
];
for (const c of cases) {
  const cols = (k: Kernels) => {
    for (const w of c.input) w.columns.fill(0x5a5a5a5a);
    walkAll(k)(c.input);
    return c.input.map((w) => w.columns.slice());
  };
  const a = cols(jsKernels),
    b = cols(wasm);
  if (!a.every((x, i) => Buffer.from(x.buffer).equals(Buffer.from(b[i]!.buffer))))
    throw new Error(`walkRecords ${c.name}: js and wasm columns differ; not timing a broken kernel`);
}
await comparePair('walkRecords (wdata box tables → columns, MB/s of records)', cases, walkAll(jsKernels), walkAll(wasm), (a, b) => a === b);

// The whole-file rows time two decodes that must give the same level, or the ratio means nothing.
if (!isDeepStrictEqual(wdata.decode(huge, { backend: 'js' }), wdata.decode(huge, { backend: 'wasm' })))
  throw new Error('wdata decode of the 100,000-box map: js and wasm results differ; not timing them');
await compareMany(`wdata decode of the 100,000-box map (${(huge.length / 1048576).toFixed(1)} MB), whole file`, [
  ['js', () => wdata.decode(huge, { backend: 'js' })],
  ['wasm', () => wdata.decode(huge, { backend: 'wasm' })],
  ["wasm, sections: 'summary'", () => wdata.decode(huge, { backend: 'wasm', sections: 'summary' })],
]);
