// The Lua 5.1 chunk decoder and encoder on chunks built byte by byte (gwc-lua-helpers.ts): known
// answers, both kernel sets alike, byte-exact re-encoding (size_t 4 and 8, trailing bytes, NaN
// payloads), what encode refuses, and that nothing the caller passed is written.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EncodeError } from '../../src/core/errors.js';
import type { GwcCartridge } from '../../src/formats/gwc/index.js';
import { bx, decodeLuaChunk, encodeLuaChunk, LUA_OPCODES, LuaOp, type LuaProto, luaCounts, luaListing, sbx } from '../../src/formats/gwc/index.js';
import { decodeLua, decodeLuaForAnalysis } from '../../src/formats/gwc/lua-chunk.js';
import { iABC, iABx, luaChunk, nested, SAMPLE } from './gwc-lua-helpers.js';

const BACKENDS = ['js', 'wasm'] as const;

function encodeError(f: () => unknown): EncodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof EncodeError) return e;
    throw e;
  }
  throw new Error('encode did not refuse');
}

describe.each(BACKENDS)('decodeLuaChunk [%s]', (backend) => {
  it('known answers: prototypes, code columns, constants of every kind, debug info', () => {
    const bytes = luaChunk(SAMPLE);
    const c = decodeLuaChunk(bytes, { backend });
    expect(c.header).toMatchObject({ version: 0x51, sizeTSize: 4, littleEndian: true });
    expect(c.protos.map((p) => [p.id, p.parent, p.path])).toEqual([
      [0, -1, 'lua.proto[0]'],
      [1, 0, 'lua.proto[0].p[0]'],
    ]);
    const m = c.main;
    expect(m).toBe(c.protos[0]);
    expect(m.source?.text).toBe('@sample.lua');
    expect(m.offset).toBe(12);
    expect([m.nups, m.numParams, m.isVararg, m.maxStackSize]).toEqual([0, 0, 2, 3]);
    expect([...m.code.op].map((o) => LUA_OPCODES[o])).toEqual(['LOADK', 'CLOSURE', 'SETGLOBAL', 'RETURN']);
    expect([...m.code.a]).toEqual([0, 1, 1, 0]);
    expect(bx(m.code, 2)).toBe(1);
    expect([m.code.b[3], m.code.c[3]]).toEqual([1, 0]);
    expect(m.k.map((k) => (k.type === 'string' ? [k.value.text, k.value.encoding] : k.type === 'nil' ? null : k.value))).toEqual([
      ['Zone 1', 'utf-8'],
      ['f', 'utf-8'],
      true,
      false,
      null,
      52.5,
      -0,
      ['Café', 'utf-8'],
      ['Café', 'windows-1252'],
    ]);
    expect(Object.is((m.k[6] as { value: number }).value, -0)).toBe(true);
    expect([...m.lineInfo]).toEqual([1, 3, 3, 6]);
    expect(m.locVars.map((l) => [l.name?.text, l.startPc, l.endPc])).toEqual([['zone', 1, 4]]);
    const f = m.p[0]!;
    expect(f).toBe(c.protos[1]);
    expect([f.source, f.lineDefined, f.lastLineDefined, f.nups, f.numParams]).toEqual([null, 3, 5, 1, 1]);
    expect(f.upvalues.map((u) => u?.text)).toEqual(['zone']);
    expect(f.k).toEqual([{ type: 'number', value: 7 }]);
    expect([...c.code.op]).toEqual([1, 36, 7, 30, 4, 30]);
    expect(luaCounts(bytes, { backend })).toEqual({ functions: 2, instructions: 6, constants: 10, strings: 8 });
  });

  it('sBx reads signed jumps', () => {
    const c = decodeLuaChunk(luaChunk({ code: [iABx(LuaOp.JMP, 0, 131071 - 2), iABx(LuaOp.JMP, 0, 131071 + 5), iABC(30, 0, 1, 0)] }), { backend });
    expect([sbx(c.main.code, 0), sbx(c.main.code, 1)]).toEqual([-2, 5]);
  });

  it.each([4, 8])('re-encodes byte for byte (size_t %i, trailing bytes kept)', (sizeT) => {
    for (const bytes of [luaChunk(SAMPLE, sizeT), luaChunk(SAMPLE, sizeT, [1, 2, 3]), luaChunk(nested(30), sizeT)]) {
      const c = decodeLuaChunk(bytes, { backend });
      expect(c.header.sizeTSize).toBe(sizeT);
      expect(Buffer.compare(Buffer.from(encodeLuaChunk(c)), Buffer.from(bytes))).toBe(0);
    }
  });

  it('a NaN constant keeps its payload', () => {
    const nan = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f];
    const bytes = luaChunk({ k: [{ tag: 3, bytes: nan }] });
    const c = decodeLuaChunk(bytes, { backend });
    expect(Number.isNaN((c.main.k[0] as { value: number }).value)).toBe(true);
    expect(Buffer.compare(Buffer.from(encodeLuaChunk(c)), Buffer.from(bytes))).toBe(0);
  });

  it('never writes the caller’s bytes, and the result does not share them', () => {
    const bytes = luaChunk(SAMPLE);
    const copy = bytes.slice();
    const c = decodeLuaChunk(bytes, { backend });
    expect(bytes).toEqual(copy);
    (c.main.k[0] as { value: { raw: Uint8Array } }).value.raw[0] = 0x21;
    c.code.raw[0] = 0;
    expect(bytes).toEqual(copy);
  });
});

describe('decodeLuaChunk: both kernel sets', () => {
  it('give the same model', () => {
    for (const p of [SAMPLE, nested(12), { k: ['\u{1F600} ok', new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), new Uint8Array([0x80, 0x9f, 0xff])] }]) {
      const bytes = luaChunk(p);
      expect(isDeepStrictEqual(decodeLuaChunk(bytes, { backend: 'js' }), decodeLuaChunk(bytes, { backend: 'wasm' }))).toBe(true);
    }
  });
});

describe.each(BACKENDS)('decodeLuaForAnalysis [%s]', (backend) => {
  // A cartridge as the analysis passes it: only `lua.bytes` and `lua.offset` are read.
  const cart = (bytes: Uint8Array) => ({ lua: { bytes, offset: 100 } }) as unknown as GwcCartridge;

  it('is decodeLua without local and upvalue names', () => {
    for (const p of [SAMPLE, nested(12), { k: ['\u{1F600} ok', new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), new Uint8Array([0x80, 0x9f, 0xff])] }]) {
      const c = cart(luaChunk(p));
      const full = decodeLua(c, { backend });
      const lean = decodeLuaForAnalysis(c, { backend });
      for (const proto of full.protos) {
        proto.locVars = [];
        proto.upvalues = [];
      }
      expect(isDeepStrictEqual(lean, full)).toBe(true);
    }
    // The sample has both, so the test above compares something.
    const full = decodeLua(cart(luaChunk(SAMPLE)), { backend });
    expect(full.protos.map((p) => [p.locVars.length, p.upvalues.length])).toEqual([
      [1, 0],
      [1, 1],
    ]);
  });

  it('refuses a chunk as decodeLua does, and its texts do not share the cartridge’s bytes', () => {
    const bytes = luaChunk(SAMPLE);
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return String(e);
      }
      return 'no error';
    };
    for (const cut of [13, 30, bytes.length - 3]) {
      const c = cart(bytes.subarray(0, cut));
      expect(error(() => decodeLuaForAnalysis(c, { backend }))).toBe(error(() => decodeLua(c, { backend })));
    }
    const copy = bytes.slice();
    const lean = decodeLuaForAnalysis(cart(bytes), { backend });
    (lean.main.k[0] as { value: { raw: Uint8Array } }).value.raw[0] = 0x21;
    expect(bytes).toEqual(copy);
  });

  it('shares one empty names list between prototypes, frozen so no caller can fill it for every later chunk', () => {
    const lean = decodeLuaForAnalysis(cart(luaChunk(SAMPLE)), { backend });
    for (const p of lean.protos) expect(Object.isFrozen(p.locVars) && Object.isFrozen(p.upvalues)).toBe(true);
    expect(() => lean.main.locVars.push({ name: null, startPc: 0, endPc: 1 })).toThrow(TypeError);
    expect(decodeLuaForAnalysis(cart(luaChunk(SAMPLE)), { backend }).main.locVars).toEqual([]);
  });

  it('decodes a chunk held in a SharedArrayBuffer as from a plain one, its texts not views of the shared bytes', () => {
    const bytes = luaChunk(SAMPLE);
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
    shared.set(bytes);
    const fromShared = decodeLuaForAnalysis(cart(shared), { backend });
    expect(isDeepStrictEqual(fromShared, decodeLuaForAnalysis(cart(bytes), { backend }))).toBe(true);
    const raw = (fromShared.main.k.find((k) => k.type === 'string') as { value: { raw: Uint8Array } }).value.raw;
    expect(raw.buffer).not.toBe(shared.buffer);
  });
});

describe('luaListing', () => {
  it('lists each function, its constants, locals and upvalues, and its instructions by name with what operands name', () => {
    const text = luaListing(
      decodeLuaChunk(
        luaChunk({
          ...SAMPLE,
          code: [...SAMPLE.code!.slice(0, 3), iABC(LuaOp.SETTABLE, 0, 256 + 1, 256 + 5), iABx(LuaOp.JMP, 0, 131071 - 4), iABC(30, 0, 1, 0)],
          lineInfo: [1, 3, 3, 4, 5, 6],
        }),
      ),
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('; Lua 5.1 chunk: 280 bytes, size_t 4, 2 functions, 8 instructions, 10 constants');
    expect(lines).toContain('function lua.proto[0] "@sample.lua" lines 0–0 (at 0xc)');
    expect(lines).toContain(';   k[8] = "Café"');
    expect(lines).toContain(';   k[6] = -0');
    expect(lines).toContain(';   local[0] "zone" pc 1–4');
    expect(lines).toContain(';   upvalue[0] "zone"');
    expect(lines).toContain('      1 [1]     LOADK     0 0            ; "Zone 1"');
    expect(lines).toContain('      2 [3]     CLOSURE   1 0            ; function lua.proto[0].p[0]');
    expect(lines).toContain('      4 [4]     SETTABLE  0 k1 k5        ; "f" 52.5');
    expect(lines).toContain('      5 [5]     JMP       0 -4           ; to 2');
    expect(lines).toContain('      1 [4]     GETUPVAL  1 0 0          ; zone');
  });
});

describe('encodeLuaChunk', () => {
  const fresh = () => decodeLuaChunk(luaChunk(SAMPLE));

  it('writes an edited string, which reads back', () => {
    const c = fresh();
    const k = c.main.k[0] as { value: { text: string } };
    k.value.text = 'Zone 2 – Brücke';
    const back = decodeLuaChunk(encodeLuaChunk(c));
    expect(back.main.k[0]).toMatchObject({ type: 'string', value: { text: 'Zone 2 – Brücke' } });
  });

  it('does not write the model', () => {
    const c = fresh();
    const before = structuredClone(c);
    encodeLuaChunk(c);
    expect(c).toEqual(before);
  });

  it.each<[string, (c: ReturnType<typeof fresh>) => void, string, string]>([
    ['an opcode above 37 in raw', (c) => (c.main.code.raw[0] = 38), 'OUT_OF_RANGE', 'lua.proto[0].code.raw[0]'],
    ['op/a/b/c that disagree with raw', (c) => (c.main.code.a[1] = 9), 'BAD_VALUE', 'lua.proto[0].code[1]'],
    ['a cycle', (c) => c.main.p[0]!.p.push(c.main), 'BAD_VALUE', 'lua.proto[0].p[0].p[0]'],
    ['a prototype twice', (c) => c.main.p.push(c.main.p[0]!), 'BAD_VALUE', 'lua.proto[0].p[1]'],
    ['a header the players do not load', (c) => (c.header.sizeTSize = 2), 'BAD_VALUE', 'lua.header.sizeTSize'],
    ['a byte field past 255', (c) => (c.main.p[0]!.numParams = 256), 'OUT_OF_RANGE', 'lua.proto[0].p[0].numParams'],
    ['an unknown constant type', (c) => (c.main.k[4] = { type: 'table' } as never), 'BAD_VALUE', 'lua.proto[0].k[4].type'],
    ['a null string constant', (c) => (c.main.k[0] = { type: 'string', value: null } as never), 'BAD_VALUE', 'lua.proto[0].k[0].value'],
    ['text its code page lacks', (c) => Object.assign((c.main.k[8] as { value: object }).value, { text: '漢' }), 'UNENCODABLE_TEXT', 'lua.proto[0].k[8].value'],
    [
      'Windows-1252 bytes that read back as other UTF-8 text',
      (c) => Object.assign((c.main.k[8] as { value: object }).value, { text: 'Ã©' }),
      'UNENCODABLE_TEXT',
      'lua.proto[0].k[8].value',
    ],
    ['a line entry that is not an int', (c) => (c.main.lineInfo = [1.5] as never), 'OUT_OF_RANGE', 'lua.proto[0].lineInfo[0]'],
  ])('refuses %s', (_what, edit, code, path) => {
    const c = fresh();
    edit(c);
    const e = encodeError(() => encodeLuaChunk(c));
    expect([e.code, e.path, e.format]).toEqual([code, path, 'gwc']);
  });

  it('refuses nesting deeper than decode reads, without recursing', () => {
    let f: LuaProto = fresh().main;
    for (let i = 0; i < 5000; i++) f = { ...f, p: [f] };
    const c = { ...fresh(), main: f };
    expect(encodeError(() => encodeLuaChunk(c)).code).toBe('LIMIT_EXCEEDED');
  });
});
