// Graal: what changed between two levels (`graal.diff`, `levelkit diff`): header and options, board
// cells per layer (named as layerNames() says), links, baddies, chests, signs, and NPCs with a line
// diff of their scripts; for a .gmap, its size, level names by cell and option lines. Kinds are
// listed in src/diff/README.md.

import { appendAll, type Change, cellChanges, fieldChangesAs, lineHunks, recordChanges, splitLines } from '../../diff/index.js';
import { LEVEL_SIZE } from './level.js';
import type { GraalGmap, GraalLevel, GraalNpc } from './types.js';

type GraalDecoded = GraalLevel | GraalGmap;

/**
 * The changes from `a` to `b` (a binary level and its .nw conversion compare too; their header shows
 * as changed). TypeError for a level against a .gmap, or a .nw level decoded with `sections: 'summary'`.
 */
export function diff(a: GraalDecoded, b: GraalDecoded): Change[] {
  if (a.format === 'graal-gmap' || b.format === 'graal-gmap') {
    if (a.format !== b.format) throw new TypeError('levelkit graal: a level and a .gmap cannot be compared');
    return gmapDiff(a as GraalGmap, b as GraalGmap);
  }
  for (const l of [a, b]) if (l.sections === 'summary') throw new TypeError("levelkit graal: diff needs full decodes (not sections: 'summary')");
  return levelDiff(a, b);
}

function levelDiff(a: GraalLevel, b: GraalLevel): Change[] {
  const out = fieldChangesAs('header', {}, head(a), head(b));
  const byIndex = new Map(a.layers.map((l) => [l.index, l]));
  const namesA = layerNames(a);
  const namesB = layerNames(b);
  for (const y of b.layers) {
    const x = byIndex.get(y.index);
    const where = { layer: y.index, layerKind: 'board', layerName: namesB(y.index) };
    if (x) appendAll(out, cellChanges(board(x.tiles), board(y.tiles), where));
    else out.push({ kind: 'layer-added', ...where });
  }
  const inB = new Set(b.layers.map((l) => l.index));
  for (const x of a.layers) if (!inB.has(x.index)) out.push({ kind: 'layer-removed', layer: x.index, layerKind: 'board', layerName: namesA(x.index) });
  const at = (r: { x: number; y: number }) => ({ x: r.x, y: r.y });
  appendAll(out, recordChanges(a.links, b.links, { kind: 'link', at }));
  appendAll(out, recordChanges(a.baddies, b.baddies, { kind: 'baddy', at }));
  appendAll(out, recordChanges(a.chests, b.chests, { kind: 'chest', at }));
  appendAll(out, recordChanges(a.signs, b.signs, { kind: 'sign', at }));
  appendAll(out, recordChanges(a.npcs, b.npcs, { kind: 'npc', at, skip: ['script'], more: scriptChanges(at) }));
  return out;
}

/** A matched NPC whose script changed: one `npc-script` change with the runs of lines that differ. */
function scriptChanges(at: (r: GraalNpc) => { x: number; y: number }) {
  return (x: GraalNpc, y: GraalNpc, id: Change['id']): Change[] => {
    const hunks = lineHunks(splitLines(x.script.text), splitLines(y.script.text));
    return hunks.length ? [{ kind: 'npc-script', id, ...at(y), field: 'script', hunks }] : [];
  };
}

/**
 * A board layer's name: the one a `LAYERNAME n name` line gives it (an editor's extension of .nw,
 * kept among the unknown lines), else `base` for layer 0 and `overlay n` for the others.
 */
function layerNames(l: GraalLevel): (index: number) => string {
  const named = new Map<number, string>();
  for (const line of l.unknownLines) {
    const m = /^LAYERNAME\s+(\d+)\s+(.+)$/.exec(line.text.trim());
    if (m) named.set(Number(m[1]), m[2]!);
  }
  return (index) => named.get(index) ?? (index === 0 ? 'base' : `overlay ${index}`);
}

function head(l: GraalLevel) {
  return {
    version: l.version,
    heights: l.heights ?? null,
    tileset: l.tileset ?? null,
    tilesetImage: l.tilesetImage ?? null,
    unknownLines: l.unknownLines.map((t) => t.text),
  };
}

function board(tiles: Uint16Array) {
  return { width: LEVEL_SIZE, height: LEVEL_SIZE, columns: { tile: tiles } };
}

function gmapDiff(a: GraalGmap, b: GraalGmap): Change[] {
  const out = fieldChangesAs('header', {}, { version: a.version, width: a.width, height: a.height }, { version: b.version, width: b.width, height: b.height });
  for (let y = 0; y < Math.min(a.height, b.height); y++)
    for (let x = 0; x < Math.min(a.width, b.width); x++) {
      const from = a.levels[y]?.[x]?.text ?? '';
      const to = b.levels[y]?.[x]?.text ?? '';
      if (from !== to) out.push({ kind: 'gmap-level', x, y, from, to });
    }
  const hunks = lineHunks(
    a.options.map((t) => t.text),
    b.options.map((t) => t.text),
  );
  if (hunks.length) out.push({ kind: 'gmap-options', hunks });
  return out;
}
