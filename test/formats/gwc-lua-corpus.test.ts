// The Lua chunk of every real cartridge (../shared/corpus/gwc, the 2007 tutorial in
// ../shared/regressions; skipped visibly when absent, failing under CI): decodes alike with both
// kernel sets, re-encodes byte for byte (and again after a switch to size_t 8), its string
// constants are the texts the index's hand walk gave, and luaCounts agrees with the decode.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DecodeError } from '../../src/core/errors.js';
import { autoText } from '../../src/formats/gwc/lua.js';
import { luaStrings } from '../../src/formats/gwc/lua-strings.js';
import { gwc } from '../../src/index.js';
import { describeCorpus, describeWith, regressions } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { firstDifference } from './teeworlds-helpers.js';

/** The `lua.txt` that extract writes for `cart`. */
function listingOf(cart: gwc.GwcCartridge): string {
  const f = gwc.extract(cart).find((x) => x.path === 'lua.txt');
  if (!f || !('bytes' in f)) throw new Error('no lua.txt');
  return new TextDecoder().decode(f.bytes);
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

function checkChunk(name: string, bytes: Uint8Array): gwc.LuaChunk {
  const c = gwc.decodeLuaChunk(bytes, { backend: 'js' });
  expect(firstDifference(gwc.decodeLuaChunk(bytes, { backend: 'wasm' }), c), name).toBeNull();
  expect(same(gwc.encodeLuaChunk(c), bytes), name).toBe(true);
  const strings = c.protos.flatMap((p) => p.k.flatMap((k) => (k.type === 'string' ? [k.value.text] : [])));
  expect(strings, name).toEqual(luaStrings(bytes, c.header, autoText));
  expect(gwc.luaCounts(bytes), name).toEqual({
    functions: c.protos.length,
    instructions: c.code.length,
    constants: c.protos.reduce((n, p) => n + p.k.length, 0),
    strings: expect.any(Number),
  });
  // The same chunk with 8-byte size_t (a 64-bit luac): every length field widens, nothing else changes.
  const wide = gwc.encodeLuaChunk({ ...c, header: { ...c.header, sizeTSize: 8 } });
  expect(wide.length, name).toBeGreaterThan(bytes.length);
  const back = gwc.decodeLuaChunk(wide);
  expect(back.header.sizeTSize).toBe(8);
  expect(same(gwc.encodeLuaChunk(back), wide), name).toBe(true);
  expect(same(gwc.encodeLuaChunk({ ...back, header: c.header }), bytes), name).toBe(true);
  return c;
}

describeCorpus('gwc', 'Lua chunks of the corpus cartridges', (dir) => {
  const files = listFiles(dir, /\.gwc$/).filter((p) => !p.includes('/gwz/'));
  it('are 27', () => expect(files).toHaveLength(27));
  it.each(files.map((p) => [p.slice(dir.length + 1), p]))('%s', (name, p) => {
    const cart = gwc.decode(readBytes(p)) as gwc.GwcCartridge;
    const c = checkChunk(name, cart.lua.bytes);
    const listing = listingOf(cart);
    expect(listing.match(/^function /gm), name).toHaveLength(c.protos.length);
  });
});

describeWith(regressions(), 'Lua chunk of the 2007 tutorial cartridge (regressions)', (dir) => {
  it('round-trips', () => {
    const files = readdirSync(join(dir, 'files')).filter((f) => f.endsWith('.gwc'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) checkChunk(f, (gwc.decode(readBytes(join(dir, 'files', f))) as gwc.GwcCartridge).lua.bytes);
  });
});

it('the fixture cartridges’ chunks (headers only, no function) are TRUNCATED, at the chunk’s offset in the file', () => {
  // analysis.gwc is the one fixture with a whole chunk (compiled by luac5.1; gwc-analysis.test.ts).
  const files = listFiles(new URL('../../fixtures/gwc', import.meta.url).pathname, /\.gwc$/).filter(
    (p) => !p.includes('/bad/') && !p.endsWith('/analysis.gwc'),
  );
  expect(files.length).toBeGreaterThan(0);
  for (const p of files) {
    const cart = gwc.decode(readBytes(p)) as gwc.GwcCartridge;
    let error: unknown;
    try {
      gwc.decodeLua(cart);
    } catch (e) {
      error = e;
    }
    expect(error, p).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).offset, p).toBeGreaterThan(cart.lua.offset + 4);
    expect((error as DecodeError).offset, p).toBeLessThanOrEqual(cart.lua.offset + 4 + cart.lua.bytes.length);
    const listing = listingOf(cart);
    expect(listing, p).toMatch(/^; the Lua chunk could not be decoded: gwc: lua\.proto\[0\]/);
  }
});
