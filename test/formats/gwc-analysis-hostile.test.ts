// The bytecode analysis on chunks no compiler writes (built byte by byte, gwc-lua-helpers.ts):
// bounded by its limits with typed errors at the prototype and pc, or unknowns — never a hang.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/core/errors.js';
import { heapFromChunk, modelFacts, modelFromHeap } from '../../src/formats/gwc/analysis/index.js';
import type { AbstractValue, StringDecoders } from '../../src/formats/gwc/analysis/types.js';
import { decode, decodeLua, decodeLuaChunk, type GwcCartridge, LuaOp } from '../../src/formats/gwc/index.js';
import { FIXTURES } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';
import { iABC, iABx, luaChunk, type P } from './gwc-lua-helpers.js';

const K = 256; // RK: B or C ≥ 256 names constant B − 256
const RETURN = iABC(LuaOp.RETURN, 0, 1, 0);
const jmp = (from: number, to: number) => iABx(LuaOp.JMP, 0, to - from - 1 + 131071);

function limitError(f: () => unknown): DecodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  throw new Error('no DecodeError');
}

const chunkOf = (main: P) => decodeLuaChunk(luaChunk(main));

describe('heapFromChunk on hostile chunks', () => {
  it('a SETLIST count past maxEntries is LIMIT_EXCEEDED at the main function and pc, before the entries are made', () => {
    const code = [iABC(LuaOp.NEWTABLE, 0, 0, 0)];
    for (let i = 0; i < 40; i++) code.push(iABC(LuaOp.SETLIST, 0, 511, 0), 0xffffffc0); // block number in the next word (its opcode bits read MOVE)
    code.push(RETURN);
    const e = limitError(() => heapFromChunk(chunkOf({ code, sizes: [0, 0, 2, 250] }), { limits: { maxEntries: 10_000 } }));
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'gwc', offset: 12 });
    expect(e.path).toMatch(/^lua\.proto\[0\] pc \d+$/);
    expect(e.message).toContain('maxEntries');
  });

  it('many tables pass maxTables; many steps pass maxSteps', () => {
    const code = Array.from({ length: 5000 }, () => iABC(LuaOp.NEWTABLE, 0, 0, 0));
    code.push(RETURN);
    const chunk = chunkOf({ code });
    expect(limitError(() => heapFromChunk(chunk, { limits: { maxTables: 100 } }))).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'lua.proto[0] pc 101' });
    expect(limitError(() => heapFromChunk(chunk, { limits: { maxSteps: 50 } }))).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'lua.proto[0] pc 51' });
    expect(heapFromChunk(chunk).tables).toHaveLength(5000);
  });

  it('jumps backwards are followed once (an endless loop ends), and what a loop body writes is unknown at its head', () => {
    // 0 LOADK r0 "a"; 1 SETGLOBAL g = r0; 2 LOADK r0 "b"; 3 TEST r0; 4 JMP → 1; 5 SETGLOBAL h = r0
    const main: P = {
      k: ['a', 'b', 'g', 'h'],
      code: [
        iABx(LuaOp.LOADK, 0, 0),
        iABx(LuaOp.SETGLOBAL, 0, 2),
        iABx(LuaOp.LOADK, 0, 1),
        iABC(LuaOp.TEST, 0, 0, 0),
        jmp(4, 1),
        iABx(LuaOp.SETGLOBAL, 0, 3),
        RETURN,
      ],
    };
    const heap = heapFromChunk(chunkOf(main));
    expect(heap.globals.get('g')).toMatchObject({ kind: 'unknown', why: expect.stringContaining('loop') }); // "a" once, then "b"
    expect(heap.globals.get('h')).toMatchObject({ kind: 'string', value: { text: 'b' } });
    const endless = heapFromChunk(chunkOf({ k: ['g'], code: [iABC(LuaOp.NEWTABLE, 0, 0, 0), iABx(LuaOp.SETGLOBAL, 0, 0), jmp(2, 0), RETURN] }));
    expect(endless.tables).toHaveLength(1);
  });

  it('nested loops cost their bodies, bounded by maxSteps (no quadratic hang)', () => {
    const n = 20_000;
    const half = n / 2;
    const code: number[] = [];
    for (let pc = 0; pc < half; pc++) code.push(iABC(LuaOp.LOADNIL, 0, 0, 0));
    for (let pc = half; pc < n; pc++) code.push(jmp(pc, pc - half)); // each jumps back half the code
    code.push(RETURN);
    const e = limitError(() => heapFromChunk(chunkOf({ code }), { limits: { maxSteps: 2_000_000 } }));
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'gwc' });
  }, 20_000);

  it('a CLOSURE of a missing prototype is unknown with a note; a call of it is not followed', () => {
    const main: P = { k: ['f'], code: [iABx(LuaOp.CLOSURE, 0, 7), iABx(LuaOp.SETGLOBAL, 0, 0), iABC(LuaOp.CALL, 0, 1, 2), RETURN] };
    const heap = heapFromChunk(chunkOf(main));
    expect(heap.globals.get('f')).toMatchObject({ kind: 'unknown' });
    expect(heap.notes.join('\n')).toContain('p[7]');
    expect(heap.notes.join('\n')).toContain('not followed');
  });

  it("a string decoder's result names an object (decoders are called with the constant)", () => {
    // it = Wherigo.ZItem(); it.Name = dec("xyz") where dec is p[0]
    const main: P = {
      k: ['Wherigo', 'ZItem', 'it', 'Name', 'xyz'],
      code: [
        iABx(LuaOp.GETGLOBAL, 0, 0),
        iABC(LuaOp.GETTABLE, 0, 0, K + 1),
        iABC(LuaOp.CALL, 0, 1, 2),
        iABx(LuaOp.SETGLOBAL, 0, 2),
        iABx(LuaOp.CLOSURE, 1, 0),
        iABx(LuaOp.LOADK, 2, 4),
        iABC(LuaOp.CALL, 1, 2, 2),
        iABC(LuaOp.SETTABLE, 0, K + 3, 1),
        RETURN,
      ],
      p: [{}],
    };
    const calls: AbstractValue[][] = [];
    const decoders: StringDecoders = {
      found: [{ name: null, origin: 'lua.proto[0].p[0]', shape: 'test' }],
      isDecoder: (p) => p === 1,
      decode: (_p, args) => {
        calls.push([...args]);
        const a = args[0];
        if (a?.kind !== 'string') return { kind: 'unknown', why: 'not a string' };
        const text = a.value.text.toUpperCase();
        return { kind: 'string', value: { text, raw: new TextEncoder().encode(text), encoding: 'utf-8' }, decoded: true };
      },
    };
    const heap = heapFromChunk(chunkOf(main), { decoders });
    expect(calls).toHaveLength(1);
    const model = modelFromHeap(heap);
    expect(model.objects.map((o) => [o.kind, o.variable, (o.name as { text: string }).text])).toEqual([['item', 'it', 'XYZ']]);
    expect(model.decoders).toEqual(decoders.found);
  });

  it('instructions mutated at random (any opcode, any operands) give a model or a DecodeError, never a crash', () => {
    const cart = decode(readFileSync(join(FIXTURES, 'gwc/analysis.gwc'))) as GwcCartridge;
    const prng = new Prng(42);
    for (let round = 0; round < 150; round++) {
      const chunk = decodeLua(cart);
      const code = chunk.code; // every prototype's columns are views of these
      for (let m = 0; m < 20; m++) {
        const i = prng.int(code.length);
        const raw = ((prng.next() << 6) | prng.int(38)) >>> 0;
        code.raw[i] = raw;
        code.op[i] = raw & 0x3f;
        code.a[i] = (raw >>> 6) & 0xff;
        code.c[i] = (raw >>> 14) & 0x1ff;
        code.b[i] = raw >>> 23;
      }
      try {
        modelFacts(modelFromHeap(heapFromChunk(chunk, { limits: { maxSteps: 200_000 } })));
      } catch (e) {
        expect(e, `round ${round}`).toBeInstanceOf(DecodeError);
      }
    }
  });

  it('a handler calling a global named like an Object.prototype member shows no message', () => {
    // `constructor("x")` is no message call; a lookup in a plain object would find Object there.
    const main: P = { code: [iABx(LuaOp.CLOSURE, 0, 0), iABx(LuaOp.SETGLOBAL, 0, 0), RETURN], k: ['handler'], p: [{}] };
    main.p![0] = { code: [iABx(LuaOp.GETGLOBAL, 0, 0), iABx(LuaOp.LOADK, 1, 1), iABC(LuaOp.CALL, 0, 2, 1), RETURN], k: ['constructor', 'x'] };
    const heap = heapFromChunk(chunkOf(main));
    expect(heap.functions.map((f) => [f.messages.length, f.unknownMessages])).toEqual([[0, 0]]);
  });
});
