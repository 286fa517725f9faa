// String decoders (#42 item 3) on fixtures written for the tests (fixtures/gwc/lua/): each shape
// is recognised by its bytecode and evaluated to exactly the bytes lua5.1 gives running it.
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/core/errors.js';
import { textFrom } from '../../src/core/text.js';
import { DEFAULT_ANALYSIS_LIMITS } from '../../src/formats/gwc/analysis/budget.js';
import { urwigoTable } from '../../src/formats/gwc/analysis/decoder-templates.js';
import { DECODER_CARTRIDGE_STEP_LIMIT, DECODER_STEP_LIMIT, findStringDecoders } from '../../src/formats/gwc/analysis/decoders.js';
import { MATH_TABLE } from '../../src/formats/gwc/analysis/mini-vm-lib.js';
import { type VmBuiltin, VmUnknown } from '../../src/formats/gwc/analysis/mini-vm-values.js';
import { SOURCE_LIMITS } from '../../src/formats/gwc/analysis/source-heap.js';
import type { AbstractValue } from '../../src/formats/gwc/analysis/types.js';
import { decodeLuaChunk, LUA_MAXARG_SBX } from '../../src/formats/gwc/index.js';
import { constantCalls, expectedBytes, fixtureChunk } from './gwc-decoders-helpers.js';
import { iABC, iABx, luaChunk, type P } from './gwc-lua-helpers.js';

const str = (s: string): AbstractValue => ({ kind: 'string', value: textFrom(s, 'utf-8') });

function decodedGlobals(name: string) {
  const chunk = fixtureChunk(name);
  const decoders = findStringDecoders(chunk);
  const got = new Map<string, AbstractValue>();
  for (const call of constantCalls(chunk, decoders)) if (call.target) got.set(call.target, decoders.decode(call.proto, [{ kind: 'string', value: call.arg }]));
  return { decoders, got };
}

function expectAsLua(name: string): void {
  const { got } = decodedGlobals(name);
  const want = expectedBytes(name);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [target, bytes] of want) {
    const v = got.get(target)!;
    expect(v.kind, `${target}: ${JSON.stringify(v)}`).toBe('string');
    if (v.kind !== 'string') continue;
    expect(v.decoded).toBe(true);
    expect([...v.value.raw], target).toEqual([...bytes]);
    expect(v.value.encoding).toBe('utf-8');
  }
}

describe('gwc string decoders: shapes', () => {
  it('finds both table decoders of a chunk with two, by shape, and decodes as lua5.1 does', () => {
    const { decoders } = decodedGlobals('urwigo-table');
    expect(decoders.found.map((d) => [d.name, d.shape])).toEqual([
      ['_q7Xa', 'urwigo-table'],
      ['_Zr2', 'urwigo-table'],
    ]);
    expect(decoders.found[0]!.origin).toMatch(/^lua\.proto\[0\]\.p\[0\] \(lines \d+–\d+\)$/);
    expectAsLua('urwigo-table');
  });

  it('evaluates an exact Urwigo decoder natively, with the bytes the mini VM and lua5.1 give', () => {
    const chunk = fixtureChunk('urwigo-table');
    // _q7Xa is written as Urwigo writes it; _Zr2 computes the same way with other instructions.
    expect(chunk.main.p.map((p) => urwigoTable(p) !== null)).toEqual([true, false]);
    const native = findStringDecoders(chunk);
    const stepped = findStringDecoders(chunk, { templates: false });
    const calls = constantCalls(chunk, native);
    expect(calls.length).toBe(5);
    for (const call of calls) {
      const arg: AbstractValue[] = [{ kind: 'string', value: call.arg }];
      expect(native.decode(call.proto, arg)).toEqual(stepped.decode(call.proto, arg));
    }
  });

  it('finds the palette-rotation decoder reading its palette and specials from globals set once', () => {
    const { decoders } = decodedGlobals('earwigo-palette');
    expect(decoders.found.map((d) => [d.name, d.shape])).toEqual([['WigDecode', 'earwigo-palette']]);
    expectAsLua('earwigo-palette');
  });

  it('finds generic decoders: an upvalue key with math.fmod and %c, and one stored in a table field', () => {
    const { decoders } = decodedGlobals('generic');
    expect(decoders.found.map((d) => [d.name, d.shape])).toEqual([
      ['Shift', 'generic'],
      ['Lib.swap', 'generic'],
    ]);
    expectAsLua('generic');
  });

  it('gets the corners of Lua 5.1 right: %.14g, % and fmod signs, negative positions, format, find, gsub, and/or, loops, tables', () => {
    const { decoders } = decodedGlobals('semantics');
    expect(decoders.found.map((d) => d.name)).toEqual(['Numbers', 'Mods', 'Slices', 'Formats', 'Finds', 'Logic', 'Words']);
    expectAsLua('semantics');
    // A library field the evaluator lacks is unknown, not nil (lua5.1 would give "[hello]").
    const words = fixtureChunk('semantics').main.p[6]!;
    expect(decoders.decode(words.id, [str('hello, world')])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('string.match') });
  });

  it('takes no function for a decoder when the chunk replaces the string library it reads', () => {
    const chunk = fixtureChunk('shadow');
    const decoders = findStringDecoders(chunk);
    // lua5.1 gives "???" (the chunk's own string.char); the real library would give "abc".
    expect(new TextDecoder().decode(expectedBytes('shadow').get('R_shadowed'))).toBe('???');
    expect(decoders.found).toEqual([]);
    expect(decoders.decode(chunk.main.p[0]!.id, [str('abc')])).toMatchObject({ kind: 'unknown' });
    // The same for a chunk that replaces one field: `string.upper = …` (lua5.1 gives "!.").
    const field = fixtureChunk('shadow-field');
    expect(new TextDecoder().decode(expectedBytes('shadow-field').get('R_up'))).toBe('!.');
    expect(findStringDecoders(field).found).toEqual([]);
  });

  it('treats a library call Lua rejects as unknown: math.max() with no argument', () => {
    const max = MATH_TABLE.entries.get('max') as VmBuiltin;
    const ctx = { charge: () => {}, checkLength: () => {} };
    expect(() => max.call([], ctx)).toThrow(VmUnknown);
    expect(max.call([3, '7', -1], ctx)).toEqual([7]);
  });

  it('keeps bytes that are not UTF-8 and reads them as Windows-1252, as other GWC strings', () => {
    const chunk = fixtureChunk('generic');
    const decoders = findStringDecoders(chunk);
    const swap = chunk.protos.find((p) => decoders.isDecoder(p.id) && decoders.found.some((d) => d.name === 'Lib.swap' && d.origin.startsWith(`${p.path} `)))!;
    const v = decoders.decode(swap.id, [{ kind: 'string', value: textFrom('äb', 'windows-1252') }]);
    expect(v.kind === 'string' && [v.value.text, v.value.encoding, [...v.value.raw]]).toEqual(['äb (2)', 'windows-1252', [0xe4, 0x62, 0x20, 0x28, 0x32, 0x29]]);
  });

  it('gives unknown, with why, for an unknown argument, a non-decoder and a number where the decoder wants a string', () => {
    const chunk = fixtureChunk('urwigo-table');
    const decoders = findStringDecoders(chunk);
    const id = chunk.protos.find((p) => decoders.isDecoder(p.id))!.id;
    expect(decoders.decode(id, [{ kind: 'unknown', why: 'a player input' }])).toEqual({ kind: 'unknown', why: expect.stringContaining('a player input') });
    expect(decoders.isDecoder(0)).toBe(false);
    expect(decoders.decode(0, [str('x')])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('not a string decoder') });
    // A number argument: `#s` of a number is an error when run, so there is no text to give.
    expect(decoders.decode(id, [{ kind: 'number', value: 5 }])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('# of a number') });
  });
});

describe('gwc string decoders: hostile', () => {
  const chunk = fixtureChunk('hostile');
  const byName = (decoders: ReturnType<typeof findStringDecoders>, name: string) =>
    chunk.protos.find((p) => decoders.found.some((d) => d.name === name && d.origin.startsWith(`${p.path} `)))?.id ?? -1;

  it('recognises the looping and the growing decoders, not the ones touching os or writing a global', () => {
    const decoders = findStringDecoders(chunk);
    expect(decoders.found.map((d) => d.name)).toEqual(['Endless', 'Huge']);
    // AskOs (p[2]) and Leaky (p[3]) are no decoders: decoding them is unknown, nothing runs.
    for (const p of chunk.main.p.slice(2))
      expect(decoders.decode(p.id, [str('PATH')])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('not a string decoder') });
  });

  it('stops a decoder that never ends at the per-call step bound: unknown', () => {
    const decoders = findStringDecoders(chunk);
    const v = decoders.decode(byName(decoders, 'Endless'), [str('abc')]);
    expect(v).toMatchObject({ kind: 'unknown', why: expect.stringContaining(`${DECODER_STEP_LIMIT} steps`) });
  }, 30_000);

  it('stops a decoder building a string past the bound: unknown', () => {
    const decoders = findStringDecoders(chunk, { maxStringBytes: 4096 });
    expect(decoders.decode(byName(decoders, 'Huge'), [str('abc')])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('past 4096 bytes') });
    const unbounded = findStringDecoders(chunk);
    expect(unbounded.decode(byName(unbounded, 'Huge'), [str('abc')])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('bytes') });
  }, 30_000);

  it('throws LIMIT_EXCEEDED once the cartridge-wide step budget is spent', () => {
    const decoders = findStringDecoders(chunk, { maxSteps: 50_000, maxStepsPerCall: 20_000 });
    const endless = byName(decoders, 'Endless');
    // The first two calls each stop at the per-call bound (unknown); the third spends the rest.
    expect(decoders.decode(endless, [str('a')]).kind).toBe('unknown');
    expect(decoders.decode(endless, [str('b')]).kind).toBe('unknown');
    let err: unknown;
    try {
      decoders.decode(endless, [str('c')]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect(err).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'gwc', path: 'lua.proto[0].p[0]' });
  }, 30_000);

  it("bounds a GWC's decoders and a GWZ source's by one default, the analysis' maxDecoderSteps", () => {
    expect(DECODER_CARTRIDGE_STEP_LIMIT).toBe(DEFAULT_ANALYSIS_LIMITS.maxDecoderSteps);
    expect(SOURCE_LIMITS.maxDecoderSteps).toBe(DEFAULT_ANALYSIS_LIMITS.maxDecoderSteps);
  });

  it('gives unknown for bytecode no compiler writes: a constant past the table, a jump into a for loop', () => {
    const [LOADK, SETGLOBAL, CONCAT, RETURN, FORLOOP, CLOSURE] = [1, 7, 21, 30, 31, 36];
    const tail = [iABC(CONCAT, 1, 0, 1), iABC(RETURN, 1, 2, 0), iABC(RETURN, 0, 1, 0)];
    const badConstant: P = { sizes: [0, 1, 0, 4], k: ['x'], code: [iABx(LOADK, 1, 99), ...tail] };
    const jumpIn: P = { sizes: [0, 1, 0, 6], k: ['x'], code: [iABx(LOADK, 1, 0), iABx(FORLOOP, 1, LUA_MAXARG_SBX - 2), ...tail] };
    const main: P = {
      sizes: [0, 0, 2, 2],
      k: ['BadK', 'JumpIn'],
      p: [badConstant, jumpIn],
      code: [iABx(CLOSURE, 0, 0), iABx(SETGLOBAL, 0, 0), iABx(CLOSURE, 0, 1), iABx(SETGLOBAL, 0, 1), iABC(RETURN, 0, 1, 0)],
    };
    const decoders = findStringDecoders(decodeLuaChunk(luaChunk(main)));
    expect(decoders.found.map((d) => d.name)).toEqual(['BadK', 'JumpIn']);
    expect(decoders.decode(1, [str('a')])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('reads constant 99 of 1') });
    expect(decoders.decode(2, [str('a')])).toMatchObject({ kind: 'unknown', why: expect.stringContaining('FORLOOP') });
  });
});
