// Hostile Lua chunks: huge and negative counts, a cut at every byte, nesting past the bound,
// bad constant tags and booleans, strings without their NUL, opcodes above 37, the per-chunk
// record cap, and seeded mutations. Each is a typed DecodeError with the offset and path, the
// same from both kernel sets, in bounded time; a mutation that decodes re-encodes to its bytes.
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/core/errors.js';
import { decodeLuaChunk, encodeLuaChunk, LUA_MAX_DEPTH } from '../../src/formats/gwc/index.js';
import { Prng } from '../helpers/prng.js';
import { chainChunk, iABC, luaChunk, nested, type P, SAMPLE } from './gwc-lua-helpers.js';

const BACKENDS = ['js', 'wasm'] as const;

/** The DecodeError decoding `bytes` throws with `backend` (fails the test when it decodes). */
function failure(bytes: Uint8Array, backend: (typeof BACKENDS)[number], maxRecords?: number): DecodeError {
  try {
    decodeLuaChunk(bytes, { backend, ...(maxRecords ? { limits: { maxRecords } } : {}) });
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  throw new Error('decoded');
}

const brief = (e: DecodeError) => ({ code: e.code, offset: e.offset, path: e.path, format: e.format });

describe.each(BACKENDS)('hostile Lua chunks [%s]', (backend) => {
  // Offsets in a SAMPLE-shaped main function with no source: header 12, source size 4, lines 8, bytes 4.
  const CODE_COUNT_AT = 12 + 4 + 12;

  it.each<[string, P, string, number]>([
    ['instructions', { counts: { code: 0x7fffffff } }, 'lua.proto[0].code', CODE_COUNT_AT],
    ['constants', { code: [], counts: { k: 0x7fffffff } }, 'lua.proto[0].k', CODE_COUNT_AT + 4],
    ['prototypes', { code: [], counts: { p: 0x10000000 } }, 'lua.proto[0].p', CODE_COUNT_AT + 8],
    ['line entries', { code: [], counts: { lineInfo: 0x40000000 } }, 'lua.proto[0].lineInfo', CODE_COUNT_AT + 12],
    ['locals', { code: [], counts: { locs: 0x7ffffff0 } }, 'lua.proto[0].locVars', CODE_COUNT_AT + 16],
    ['upvalue names', { code: [], counts: { ups: 0x7ffffff0 } }, 'lua.proto[0].upvalues', CODE_COUNT_AT + 20],
  ])('a huge count of %s is TRUNCATED at the count, before anything is allocated', (_what, p, path, at) => {
    const e = failure(luaChunk(p), backend);
    expect(brief(e)).toEqual({ code: 'TRUNCATED', offset: at, path, format: 'gwc' });
    expect(e.message).toMatch(/at least \d+ bytes/);
  });

  it('a negative count is CORRUPT', () => {
    expect(brief(failure(luaChunk({ counts: { code: -1 } }), backend))).toMatchObject({ code: 'CORRUPT', offset: CODE_COUNT_AT, path: 'lua.proto[0].code' });
  });

  it('limits.maxRecords bounds the whole chunk, not one prototype', () => {
    const two = { code: [iABC(30, 0, 1, 0), iABC(30, 0, 1, 0)] };
    expect(() => decodeLuaChunk(luaChunk({ ...two, p: [two] }), { backend, limits: { maxRecords: 4 } })).not.toThrow();
    const e = failure(luaChunk({ ...two, p: [two, two] }), backend, 4);
    expect(brief(e)).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'lua.proto[0].p[1].code' });
  });

  it('every cut is TRUNCATED, at or before the cut', () => {
    for (const sizeT of [4, 8]) {
      const bytes = luaChunk(SAMPLE, sizeT);
      for (let cut = 0; cut < bytes.length; cut++) {
        const e = failure(bytes.subarray(0, cut), backend);
        expect(e.code, `size_t ${sizeT}, cut ${cut}`).toBe('TRUNCATED');
        expect(e.offset ?? 0, `cut ${cut}`).toBeLessThanOrEqual(cut);
        expect(e.path, `cut ${cut}`).toMatch(/^lua/);
      }
    }
  });

  it(`nesting to ${LUA_MAX_DEPTH} decodes; deeper is LIMIT_EXCEEDED at the prototype past the bound, without recursion`, () => {
    expect(decodeLuaChunk(luaChunk(nested(LUA_MAX_DEPTH)), { backend }).protos).toHaveLength(LUA_MAX_DEPTH);
    const e = failure(luaChunk(nested(LUA_MAX_DEPTH + 1)), backend);
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.path).toBe(`lua.proto[0]${'.p[0]'.repeat(LUA_MAX_DEPTH)}`);
    const chain = decodeLuaChunk(chainChunk(LUA_MAX_DEPTH), { backend });
    expect(chain.protos.at(-1)!.path).toBe(`lua.proto[0]${'.p[0]'.repeat(LUA_MAX_DEPTH - 1)}`);
    expect(failure(chainChunk(100_000), backend).code).toBe('LIMIT_EXCEEDED');
  }, 20_000);

  it.each([2, 5, 6, 9, 255])('constant type tag %i is CORRUPT at the tag', (tag) => {
    const bytes = luaChunk({ code: [], k: ['a', { tag, bytes: [0, 0, 0, 0, 0, 0, 0, 0] }] });
    const at = CODE_COUNT_AT + 4 + 4 + 1 + 4 + 2;
    expect(brief(failure(bytes, backend))).toMatchObject({ code: 'CORRUPT', offset: at, path: 'lua.proto[0].k[1].type' });
  });

  it('a boolean byte other than 0/1, a string without its NUL, a null string constant are CORRUPT', () => {
    const kAt = CODE_COUNT_AT + 8;
    expect(brief(failure(luaChunk({ code: [], k: [{ tag: 1, bytes: [2] }] }), backend))).toMatchObject({
      code: 'CORRUPT',
      offset: kAt + 1,
      path: 'lua.proto[0].k[0]',
    });
    expect(brief(failure(luaChunk({ code: [], k: [{ tag: 4, bytes: [2, 0, 0, 0, 0x41, 0x42] }] }), backend))).toMatchObject({
      code: 'CORRUPT',
      offset: kAt + 1,
      path: 'lua.proto[0].k[0]',
    });
    expect(brief(failure(luaChunk({ code: [], k: [{ tag: 4, bytes: [0, 0, 0, 0] }] }), backend))).toMatchObject({
      code: 'CORRUPT',
      offset: kAt + 1,
      path: 'lua.proto[0].k[0]',
    });
  });

  it.each([38, 40, 63])('opcode %i is CORRUPT at its instruction', (op) => {
    const e = failure(luaChunk({ p: [{ code: [iABC(0, 0, 0, 0), iABC(op, 1, 2, 3)] }] }), backend);
    expect(e.code).toBe('CORRUPT');
    expect(e.path).toBe('lua.proto[0].p[0].code[1]');
    expect(e.expected).toMatch(/0\.\.37/);
    expect(e.actual).toBe(op);
  });

  it('seeded mutations: a typed error, or a chunk that re-encodes to the same bytes', () => {
    const rng = new Prng(0x1a42);
    const base = luaChunk(SAMPLE);
    for (let round = 0; round < 400; round++) {
      const bytes = base.slice();
      for (let n = 1 + rng.int(3); n > 0; n--) bytes[12 + rng.int(bytes.length - 12)] = rng.next() & 0xff;
      try {
        const c = decodeLuaChunk(bytes, { backend });
        expect(Buffer.compare(Buffer.from(encodeLuaChunk(c)), Buffer.from(bytes)), `round ${round}`).toBe(0);
      } catch (e) {
        expect(e, `round ${round}: ${(e as Error).message}`).toBeInstanceOf(DecodeError);
      }
    }
  });
});

describe('hostile Lua chunks: both kernel sets fail alike', () => {
  it('same code, offset, path and message on cuts and mutations', () => {
    const rng = new Prng(77);
    const base = luaChunk(SAMPLE, 8);
    for (let round = 0; round < 300; round++) {
      let bytes = base.slice();
      if (round % 2) bytes = bytes.subarray(0, 12 + rng.int(bytes.length - 12));
      else bytes[12 + rng.int(bytes.length - 12)] = rng.next() & 0xff;
      const outcome = (backend: 'js' | 'wasm') => {
        try {
          return decodeLuaChunk(bytes, { backend });
        } catch (e) {
          return (e as Error).message;
        }
      };
      expect(outcome('wasm'), `round ${round}`).toEqual(outcome('js'));
    }
  });
});
