// String decoders on the real cartridges of ../shared/corpus/gwc: every Urwigo build has its
// decoder found by shape (and nothing else is taken for one), every call of it on a constant
// decodes, and the texts read as words. Where the corpus holds the GWZ source of the same build,
// lua5.1 runs the source's own decoder on the source's own literals and the texts must agree.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { urwigoTable } from '../../src/formats/gwc/analysis/decoder-templates.js';
import { findStringDecoders } from '../../src/formats/gwc/analysis/decoders.js';
import { decode, decodeLuaChunk, type GwcCartridge, type GwzArchive, type LuaChunk } from '../../src/formats/gwc/index.js';
import { itCorpus, itWith, type Need } from '../helpers/needs.js';
import { corpusPath, listFiles } from '../helpers/paths.js';
import { constantCalls } from './gwc-decoders-helpers.js';

function chunkOf(file: string): LuaChunk {
  const cart = decode(new Uint8Array(readFileSync(file))) as GwcCartridge;
  return decodeLuaChunk(cart.lua.bytes);
}

/** An Urwigo build: its main function names the builder (`BuilderVersion = "URWIGO …"`). */
const isUrwigo = (chunk: LuaChunk): boolean => chunk.main.k.some((k) => k.type === 'string' && k.value.text.startsWith('URWIGO'));

/** Control bytes other than tab and line breaks: what scrambled text is full of and written text lacks. */
const hasControls = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
};
/** Reads as words: no control bytes, and a run of three letters (ids such as `Q12` or `_pu01` have none). */
const readsAsWords = (s: string): boolean => !hasControls(s) && /\p{L}{3}/u.test(s);

const hex = (raw: Uint8Array): string => Buffer.from(raw).toString('hex');

/** Urwigo names each object with a fresh random identifier (`_4yBsE`) per build; those differ between a GWZ and its GWC. */
const maskRandomIds = (hexLine: string): string => (/^_[A-Za-z0-9_]{2,5}$/.test(Buffer.from(hexLine, 'hex').toString('latin1')) ? '<random id>' : hexLine);

itCorpus(
  'gwc',
  'string decoders: found in every Urwigo build and only there; every constant call decodes to words',
  (dir) => {
    const files = listFiles(dir, /\.gwc$/i);
    expect(files.length).toBeGreaterThan(20);
    let calls = 0;
    for (const file of files) {
      const chunk = chunkOf(file);
      const decoders = findStringDecoders(chunk);
      const name = file.slice(dir.length + 1);
      if (isUrwigo(chunk)) {
        expect(decoders.found.filter((d) => d.shape === 'urwigo-table').length, name).toBeGreaterThanOrEqual(1);
        // Every Urwigo version in the corpus compiles its decoder to the template evaluated natively.
        expect(chunk.protos.filter((p) => decoders.isDecoder(p.id) && urwigoTable(p) !== null).length, name).toBeGreaterThanOrEqual(1);
      } else expect(decoders.found, name).toEqual([]);
      const decoded: string[] = [];
      const stored: string[] = [];
      const stepped = findStringDecoders(chunk, { templates: false });
      for (const call of constantCalls(chunk, decoders)) {
        const v = decoders.decode(call.proto, [{ kind: 'string', value: call.arg }]);
        expect(stepped.decode(call.proto, [{ kind: 'string', value: call.arg }]), name).toEqual(v);
        expect(v.kind, `${name} ${call.decoder}: ${JSON.stringify(v)}`).toBe('string');
        if (v.kind === 'string' && v.value.text.length >= 3) decoded.push(v.value.text);
        if (call.arg.text.length >= 3) stored.push(call.arg.text);
      }
      calls += decoded.length;
      // Words out, and (so the check has teeth) the stored constants mostly were not.
      expect(decoded.filter(hasControls), name).toEqual([]);
      expect(decoded.filter(readsAsWords).length, name).toBeGreaterThanOrEqual(Math.ceil(0.8 * decoded.length));
      if (stored.length >= 10) expect(stored.filter(readsAsWords).length, name).toBeLessThan(0.5 * stored.length);
    }
    // InputTest, the Testsuite builds and bajor_gizi_park call their decoders on constants.
    expect(calls).toBeGreaterThan(250);
  },
  120_000,
);

/** lua5.1 on PATH (CI installs it); otherwise the agreement test is skipped locally, failing under CI. */
function lua51(): Need<string> {
  const r = spawnSync('lua5.1', ['-v'], { encoding: 'utf8' });
  if (r.status === 0) return { ok: true, value: 'lua5.1' };
  return { ok: false, missing: 'lua5.1 not found (apt-get install lua5.1)' };
}

// Runs the source's own decoder (`function _x(str) … end`, the first one defined) on every string
// literal it is called on, in source order, and prints the results in hex, one a line.
const ORACLE = `
local src = io.read("*a")
local fn, name = src:match("\\n(function (_[%w_]+)%(str%).-\\nend)%s")
assert(loadstring(fn))()
local dec = _G[name]
local i = 1
while true do
  local s, e = src:find(name .. '("', i, true)
  if not s then break end
  local j = e + 1
  while src:sub(j, j) ~= '"' do j = j + (src:sub(j, j) == "\\\\" and 2 or 1) end
  local out = dec(assert(loadstring("return " .. src:sub(e, j)))())
  io.write((out:gsub(".", function(c) return string.format("%02x", c:byte()) end)), "\\n")
  i = j + 1
end
`;

/** GWC ↔ GWZ of the same build (the same commit of WF.Cartridges). */
const PAIRS: [gwc: string, gwz: string][] = [
  ['WF.Cartridges__InputTest__b9797739.gwc', 'gwz/WF.Cartridges__InputTest__359427c8.gwz'],
  ['WF.Cartridges__Wherigo_Testsuite__d9ca8690.gwc', 'gwz/WF.Cartridges__Testsuite__beca805f.gwz'],
];

const both: Need<{ dir: string; lua: string }> = (() => {
  const lua = lua51();
  const dir = corpusPath('gwc');
  if (!lua.ok) return lua;
  try {
    readFileSync(join(dir, PAIRS[0]![0]));
  } catch {
    return { ok: false, missing: `${dir} not found (put ../shared/corpus beside the repo or set LEVELKIT_CORPUS)` };
  }
  return { ok: true, value: { dir, lua: lua.value } };
})();

itWith(
  both,
  'string decoders: the GWC texts equal what lua5.1 decodes from the GWZ source of the same build',
  ({ dir, lua }) => {
    for (const [gwcFile, gwzFile] of PAIRS) {
      const chunk = chunkOf(join(dir, gwcFile));
      const decoders = findStringDecoders(chunk);
      const ours = constantCalls(chunk, decoders).map((c) => {
        const v = decoders.decode(c.proto, [{ kind: 'string', value: c.arg }]);
        return v.kind === 'string' ? hex(v.value.raw) : `unknown: ${JSON.stringify(v)}`;
      });
      const source = (decode(new Uint8Array(readFileSync(join(dir, gwzFile)))) as GwzArchive).lua.raw;
      const run = spawnSync(lua, ['-e', ORACLE], { input: source, encoding: 'utf8', timeout: 30_000 });
      expect(run.status, run.stderr).toBe(0);
      const theirs = run.stdout.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);
      expect(ours.length, gwcFile).toBeGreaterThan(5);
      expect(ours.map(maskRandomIds).sort(), gwcFile).toEqual(theirs.map(maskRandomIds).sort());
    }
  },
  120_000,
);
