// Hostile GWZ sources: each gives a typed DecodeError (format gwc) within the limits — a syntax
// error with its position, nesting past the parser's stack or the walk's bound, huge table
// constructors, a string decoder that never ends — never a hang, a RangeError or a guess.
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/core/errors.js';
import { heapFromSource, SOURCE_MAX_NESTING, type SourceHeapOptions } from '../../src/formats/gwc/analysis/source-heap.js';
import { autoText } from '../../src/formats/gwc/lua.js';

const source = (lua: string) => autoText(new TextEncoder().encode(lua));

function failure(lua: string, opts?: SourceHeapOptions): DecodeError {
  try {
    heapFromSource(source(lua), opts);
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('heapFromSource on hostile sources', () => {
  it('a syntax error is CORRUPT at its byte, with line and column', () => {
    const e = failure('x = 1\nobj.Name = = "a"\n', { fileName: 'cart.lua' });
    expect(e).toMatchObject({ code: 'CORRUPT', format: 'gwc', offset: 17, path: 'cart.lua:2:12' });
    expect(e.message).toContain('line 2, column 12');
  });

  it('nesting past the parser’s stack is LIMIT_EXCEEDED, and the parser still works after it', () => {
    const deep = `x = ${'('.repeat(200_000)}1${')'.repeat(200_000)}`;
    const e = failure(deep);
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'gwc' });
    expect(e.message).toContain('SOURCE_MAX_DEPTH');
    expect(heapFromSource(source('y = 2')).globals.get('y')).toEqual({ kind: 'number', value: 2 });
  });

  it('nesting the parser takes but the walk does not follow is LIMIT_EXCEEDED at the node', () => {
    const n = SOURCE_MAX_NESTING + 10;
    const e = failure(`x = ${'{'.repeat(n)}${'}'.repeat(n)}`);
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'gwc' });
    expect(e.message).toContain('SOURCE_MAX_NESTING');
    expect(e.offset).toBeGreaterThan(SOURCE_MAX_NESTING);
    // A long left-nested chain (valid Lua: 5.1 parses it in a loop) within the bound is followed.
    const sum = `x = 1${' + 1'.repeat(SOURCE_MAX_NESTING - 10)}`;
    expect(heapFromSource(source(sum)).globals.get('x')).toEqual({ kind: 'number', value: SOURCE_MAX_NESTING - 9 });
  });

  it('a huge table constructor stops at limits.maxSteps, many tables at limits.maxTables', () => {
    const big = `t = {${'1,'.repeat(20_000)}}`;
    const steps = failure(big, { limits: { maxSteps: 10_000 } });
    expect(steps).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'gwc' });
    expect(steps.message).toContain('limits.maxSteps');
    expect(heapFromSource(source(big)).tables[0]!.items.size).toBe(20_000);
    const tables = failure(`t = {${'{},'.repeat(5_000)}}`, { limits: { maxTables: 1_000 } });
    expect(tables).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(tables.message).toContain('limits.maxTables');
    expect(failure(big, { limits: { maxEntries: 1_000 } }).message).toContain('limits.maxEntries');
    expect(failure('f = {}\n'.concat('f[#f] = function() end\n'.repeat(100)), { limits: { maxFunctions: 10 } }).message).toContain('limits.maxFunctions');
  });

  it('a source over limits.maxSourceBytes is refused before it is parsed', () => {
    const e = failure('this is not lua at all '.repeat(100), { limits: { maxSourceBytes: 1000 } });
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'gwc' });
    expect(e.message).toContain('limits.maxSourceBytes');
  });

  it('a decoder that never ends is unknown after its steps, and the cartridge stops at limits.maxDecoderSteps', () => {
    const forever = `function spin(s)
  local r = ""
  while true do r = r .. "" end
  return r
end
`;
    const h = heapFromSource(source(`${forever}x = spin("a")`));
    expect(h.decoders.map((d) => d.shape)).toEqual(['generic']);
    expect(h.globals.get('x')).toMatchObject({ kind: 'unknown', why: expect.stringContaining('steps') });
    const e = failure(`${forever}x = spin("a")\ny = spin("b")`, { limits: { maxDecoderSteps: 500_000 } });
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'gwc' });
    expect(e.message).toContain('limits.maxDecoderSteps');
    // The same bound holds for decoder calls inside handlers, read after the main chunk.
    const inHandler = failure(`${forever}function h() Wherigo.MessageBox{ Text = spin("a") } end`, { limits: { maxDecoderSteps: 100_000 } });
    expect(inHandler.message).toContain('limits.maxDecoderSteps');
  }, 30_000);

  it('a decoder that grows a string without end is unknown, not out of memory', () => {
    const h = heapFromSource(source('function grow(s) local r = s while true do r = r .. r end return r end\nx = grow("ab")'));
    expect(h.globals.get('x')).toMatchObject({ kind: 'unknown', why: expect.stringContaining('longer than') });
  });
});
