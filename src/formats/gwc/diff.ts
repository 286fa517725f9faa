// Wherigo: what changed between two cartridges (`gwc.diff`, `levelkit diff`): header fields, the Lua
// bytecode (the same or not, with sizes), media by id and SHA-256; for two GWZ source zips, the Lua
// source by lines and media by name. Kinds are listed in src/diff/README.md.

import { appendAll, type Change, digestOf, fieldChangesAs, lineHunks, recordChanges, splitLines } from '../../diff/index.js';
import type { GwcCartridge, GwcDecoded, GwcMedia, GwzArchive, GwzMember } from './types.js';

/** Recomputed by encode(): never a change of their own. The date is compared as `createdSeconds`. */
const HEADER_SKIP = ['created'];

/** The changes from `a` to `b`; TypeError for a cartridge against a GWZ, or a value decoded with `sections: 'summary'`. */
export function diff(a: GwcDecoded, b: GwcDecoded): Change[] {
  for (const v of [a, b]) if (v.sections !== 'all') throw new TypeError("levelkit gwc: diff needs full decodes (not sections: 'summary')");
  if (a.format === 'gwc' && b.format === 'gwc') return cartridgeDiff(a, b);
  if (a.format === 'gwz' && b.format === 'gwz') return gwzDiff(a, b);
  throw new TypeError('levelkit gwc: a cartridge (.gwc) and a source zip (.gwz) cannot be compared');
}

function cartridgeDiff(a: GwcCartridge, b: GwcCartridge): Change[] {
  const out = fieldChangesAs(
    'header',
    {},
    { signatureVersion: a.signatureVersion, ...a.header },
    { signatureVersion: b.signatureVersion, ...b.header },
    HEADER_SKIP,
  );
  const la = luaFacts(a);
  const lb = luaFacts(b);
  if (la.sha256 !== lb.sha256) out.push({ kind: 'lua-changed', field: 'bytecode', from: la, to: lb });
  if ((a.lua.sourceName?.text ?? null) !== (b.lua.sourceName?.text ?? null))
    out.push({ kind: 'lua-changed', field: 'sourceName', from: a.lua.sourceName?.text ?? null, to: b.lua.sourceName?.text ?? null });
  appendAll(out, recordChanges(a.media, b.media, { kind: 'media', key: (m) => m.id, fields: mediaFields }));
  if (digestOf(a.trailing) !== digestOf(b.trailing)) out.push({ kind: 'trailing', from: a.trailing.length, to: b.trailing.length });
  return out;
}

function luaFacts(c: GwcCartridge) {
  return { bytes: c.lua.bytes.length, sha256: digestOf(c.lua.bytes) };
}

function mediaFields(m: GwcMedia) {
  return {
    valid: m.valid,
    type: m.type,
    bytes: m.data.length,
    sha256: digestOf(m.data),
    extraEntries: (m.extraEntries ?? []).map((e) => `${e.type}:${digestOf(e.data)}`),
  };
}

function gwzDiff(a: GwzArchive, b: GwzArchive): Change[] {
  const out = fieldChangesAs('header', {}, { luaFile: a.luaFile }, { luaFile: b.luaFile });
  const hunks = lineHunks(splitLines(a.lua.text), splitLines(b.lua.text));
  if (hunks.length) out.push({ kind: 'lua-changed', field: 'source', hunks });
  const member = (m: GwzMember) => ({ bytes: m.data.length, sha256: digestOf(m.data) });
  appendAll(out, recordChanges(a.media, b.media, { kind: 'media', key: (m) => m.name, fields: member }));
  appendAll(out, recordChanges(a.others, b.others, { kind: 'member', key: (m) => m.name, fields: member }));
  return out;
}
