// Pixel digests by the digest of what the pixels were inflated from (formats/pixel-source.ts),
// shared by every worker of a scan: a fixed table in a SharedArrayBuffer, so a tileset embedded in
// a thousand maps is hashed as pixels about once per scan, whichever worker meets it. A cache,
// not a record: a slot being written is skipped, a full probe window drops the entry, and a miss
// only costs the hash it would have cost anyway.

const SLOTS = 8192;
/** Probes per lookup: enough for a table run at most half full. */
const PROBES = 8;
const SLOT_BYTES = 64;
const EMPTY = 0;
const WRITING = 1;
const READY = 2;

export class DigestCache {
  private readonly states: Int32Array;
  private readonly data: Uint8Array;
  private readonly slots: number;

  /** Over `buffer` (from newDigestBuffer(), possibly made by another thread). */
  constructor(readonly buffer: SharedArrayBuffer | ArrayBuffer) {
    this.slots = Math.floor(buffer.byteLength / (4 + SLOT_BYTES));
    this.states = new Int32Array(buffer, 0, this.slots);
    this.data = new Uint8Array(buffer, this.slots * 4, this.slots * SLOT_BYTES);
  }

  /** The value stored under `key` (64 hex digits each), if any. */
  get(key: string): string | undefined {
    const k = hexBytes(key);
    for (let p = 0, i = this.home(k); p < PROBES; p++, i = (i + 1) % this.slots) {
      const state = Atomics.load(this.states, i);
      if (state === EMPTY) return undefined;
      if (state === READY && this.keyAt(i, k)) return hexOf(this.data.subarray(i * SLOT_BYTES + 32, i * SLOT_BYTES + 64));
    }
    return undefined;
  }

  set(key: string, value: string): void {
    const k = hexBytes(key);
    for (let p = 0, i = this.home(k); p < PROBES; p++, i = (i + 1) % this.slots) {
      const state = Atomics.compareExchange(this.states, i, EMPTY, WRITING);
      if (state === EMPTY) {
        this.data.set(k, i * SLOT_BYTES);
        this.data.set(hexBytes(value), i * SLOT_BYTES + 32);
        Atomics.store(this.states, i, READY);
        return;
      }
      if (state === READY && this.keyAt(i, k)) return;
    }
  }

  private home(k: Uint8Array): number {
    return (((k[0]! << 24) | (k[1]! << 16) | (k[2]! << 8) | k[3]!) >>> 0) % this.slots;
  }

  private keyAt(i: number, k: Uint8Array): boolean {
    const at = i * SLOT_BYTES;
    for (let j = 0; j < 32; j++) if (this.data[at + j] !== k[j]) return false;
    return true;
  }
}

/** A table for DigestCache, shared between threads where the host can (else a plain buffer: one thread's cache). */
export function newDigestBuffer(slots = SLOTS): SharedArrayBuffer | ArrayBuffer {
  const bytes = slots * (4 + SLOT_BYTES);
  return typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function hexOf(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i]!.toString(16).padStart(2, '0');
  return s;
}
