// What the writer reads of the batches it holds (parquet/columns.ts): their sizes, the file ids of
// a worker's message, and a copy of a small batch out of the message's shared buffer (so holding
// it does not keep the whole message alive).
import type { TableBatch } from './parquet/columns.js';

/** The values of a batch's first column, `id` (VARCHAR, always present: a 4-byte length, then the text). */
export function idsOf(b: TableBatch): string[] {
  const v = b.columns[0]!.values;
  const view = new DataView(v.buffer, v.byteOffset, v.byteLength);
  const out: string[] = [];
  let last = '';
  for (let at = 0; at + 4 <= v.length; ) {
    const n = view.getUint32(at, true);
    const id = latin1(v, at + 4, n);
    if (id !== last) out.push(id);
    last = id;
    at += 4 + n;
  }
  return out;
}

function latin1(b: Uint8Array, at: number, n: number): string {
  return Buffer.from(b.buffer, b.byteOffset + at, n).toString('latin1');
}

/** `b` copied into one buffer of its own (`bytes`: batchBytes(b)). */
export function ownBuffer(b: TableBatch, bytes: number): TableBatch {
  const arena = new Uint8Array(bytes);
  let at = 0;
  const copy = (a: Uint8Array) => {
    const out = arena.subarray(at, at + a.length);
    out.set(a);
    at += a.length;
    return out;
  };
  return { rows: b.rows, columns: b.columns.map((c) => ({ defs: copy(c.defs), values: copy(c.values), present: c.present })) };
}

export function batchBytes(b: TableBatch): number {
  let n = 0;
  for (const c of b.columns) n += c.defs.length + c.values.length;
  return n;
}
