// Shared by the Lua chunk suites: a builder of Lua 5.1 chunks byte by byte (independent of the
// encoder under test), so tests can write chunks no compiler writes: bad counts, tags, opcodes.

/** A constant: nil, boolean, number, string bytes, or a raw tag with the bytes that follow it. */
export type K = null | boolean | number | string | Uint8Array | { tag: number; bytes: number[] };

/** A prototype; every field defaults to something small and valid. */
export interface P {
  source?: string | Uint8Array | null;
  lines?: [number, number];
  sizes?: [number, number, number, number];
  code?: number[];
  k?: K[];
  p?: P[];
  lineInfo?: number[];
  locs?: { name: string | null; start: number; end: number }[];
  ups?: (string | null)[];
  /** Replaces a count as written (code, k, p, lineInfo, locs, ups) by this value. */
  counts?: Partial<Record<'code' | 'k' | 'p' | 'lineInfo' | 'locs' | 'ups', number>>;
}

export const LUA_HEADER = (sizeT = 4) => [0x1b, 0x4c, 0x75, 0x61, 0x51, 0, 1, 4, sizeT, 4, 8, 0];

/** Instruction words: iABC(op, a, b, c) and iABx(op, a, bx). */
export const iABC = (op: number, a: number, b: number, c: number) => (op | (a << 6) | (c << 14) | (b << 23)) >>> 0;
export const iABx = (op: number, a: number, bx: number) => (op | (a << 6) | (bx << 14)) >>> 0;

/** The bytes of a chunk whose main function is `main`. */
export function luaChunk(main: P, sizeT = 4, tail: number[] = []): Uint8Array {
  const out: number[] = [...LUA_HEADER(sizeT)];
  const int = (v: number) => out.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  const str = (s: string | Uint8Array | null | undefined) => {
    if (s === null || s === undefined) {
      int(0);
      if (sizeT === 8) int(0);
      return;
    }
    const b = typeof s === 'string' ? new TextEncoder().encode(s) : s;
    int(b.length + 1);
    if (sizeT === 8) int(0);
    out.push(...b, 0);
  };
  const fn = (f: P) => {
    str(f.source ?? null);
    int(f.lines?.[0] ?? 0);
    int(f.lines?.[1] ?? 0);
    out.push(...(f.sizes ?? [0, 0, 2, 2]));
    const code = f.code ?? [iABC(30, 0, 1, 0)];
    int(f.counts?.code ?? code.length);
    for (const w of code) int(w);
    const k = f.k ?? [];
    int(f.counts?.k ?? k.length);
    for (const c of k) {
      if (c === null) out.push(0);
      else if (typeof c === 'boolean') out.push(1, c ? 1 : 0);
      else if (typeof c === 'number') {
        const b = new Uint8Array(8);
        new DataView(b.buffer).setFloat64(0, c, true);
        out.push(3, ...b);
      } else if (typeof c === 'string' || c instanceof Uint8Array) {
        out.push(4);
        str(c);
      } else out.push(c.tag, ...c.bytes);
    }
    const p = f.p ?? [];
    int(f.counts?.p ?? p.length);
    for (const c of p) fn(c);
    const li = f.lineInfo ?? [];
    int(f.counts?.lineInfo ?? li.length);
    for (const l of li) int(l);
    const locs = f.locs ?? [];
    int(f.counts?.locs ?? locs.length);
    for (const l of locs) {
      str(l.name);
      int(l.start);
      int(l.end);
    }
    const ups = f.ups ?? [];
    int(f.counts?.ups ?? ups.length);
    for (const u of ups) str(u);
  };
  fn(main);
  out.push(...tail);
  return Uint8Array.from(out);
}

/** A chain of `depth` prototypes, each the only child of the one before. */
export function nested(depth: number): P {
  let f: P = {};
  for (let d = 1; d < depth; d++) f = { p: [f] };
  return f;
}

/** The bytes of `nested(depth)`, written without recursion (for depths a recursive writer cannot reach). */
export function chainChunk(depth: number): Uint8Array {
  const head = [0, 0, 0, 0, ...new Array(8).fill(0), 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0];
  const out = new Uint8Array(12 + depth * (head.length + 4) + depth * 12);
  out.set(LUA_HEADER(4));
  let at = 12;
  for (let d = 0; d < depth; d++) {
    out.set(head, at);
    at += head.length;
    out[at] = d < depth - 1 ? 1 : 0; // one child, the last none
    at += 4;
  }
  return out; // each prototype ends with three zero counts: the zeros already there
}

/** A chunk with one of everything: all constant kinds, a closure with locals and upvalue names. */
export const SAMPLE: P = {
  source: '@sample.lua',
  lines: [0, 0],
  sizes: [0, 0, 2, 3],
  code: [iABx(1, 0, 0), iABx(36, 1, 0), iABx(7, 1, 1), iABC(30, 0, 1, 0)],
  k: ['Zone 1', 'f', true, false, null, 52.5, -0, 'Café', new Uint8Array([0x43, 0x61, 0x66, 0xe9])],
  p: [
    {
      lines: [3, 5],
      sizes: [1, 1, 0, 2],
      code: [iABC(4, 1, 0, 0), iABC(30, 1, 2, 0)],
      k: [7],
      lineInfo: [4, 5],
      locs: [{ name: 'x', start: 0, end: 2 }],
      ups: ['zone'],
    },
  ],
  lineInfo: [1, 3, 3, 6],
  locs: [{ name: 'zone', start: 1, end: 4 }],
};
