// Teeworlds/DDNet: what changed between two maps (`teeworlds.diff`, `levelkit diff`): info and
// settings, images (by name, size and the SHA-256 of their RGBA pixels), envelopes, sounds,
// groups, then the layers (diff-layers.ts). Change kinds are listed in src/diff/README.md.

import { type Change, type DiffValue, digestOf, fieldChangesAs, lineHunks, plain, recordChanges, sameBytes } from '../../diff/index.js';
import { layerChanges } from './diff-layers.js';
import type { MapEnvelope, MapImage, MapSound, TeeworldsMap } from './types.js';

/** The changes from map `a` to map `b`; TypeError for a map decoded with `sections: 'summary'`. */
export function diff(a: TeeworldsMap, b: TeeworldsMap): Change[] {
  for (const m of [a, b]) if (m.blocksNotInflated !== undefined) throw new TypeError("levelkit teeworlds: diff needs full decodes (not sections: 'summary')");
  return [
    // The container's version and magic are the writer's choice (encode writes v4 'DATA'), not the map's content.
    ...fieldChangesAs('map', {}, { flavour: a.flavour }, { flavour: b.flavour }),
    ...infoChanges(a, b),
    ...recordChanges(a.images, b.images, { kind: 'image', key: imageKey(a.images, b.images), fields: imageFields, more: pixelChanges }),
    ...recordChanges(a.envelopes, b.envelopes, { kind: 'envelope', key: (_e, i) => i, fields: envelopeFields, more: pointChanges }),
    ...recordChanges(a.sounds, b.sounds, { kind: 'sound', key: (_s, i) => i, fields: soundFields }),
    ...layerChanges(a, b),
    ...recordChanges(a.automapperConfigs, b.automapperConfigs, { kind: 'automapper', key: (_c, i) => i }),
    ...recordChanges(a.extraItems, b.extraItems, { kind: 'item', key: (x) => `${x.uuid ?? x.typeId}:${x.id}` }),
  ];
}

function infoChanges(a: TeeworldsMap, b: TeeworldsMap): Change[] {
  const ia = a.info;
  const ib = b.info;
  if (!ia || !ib) return ia === ib ? [] : [{ kind: ia ? 'info-removed' : 'info-added', from: plain(ia), to: plain(ib) }];
  const out = fieldChangesAs('info', {}, ia, ib, ['settings']);
  const sa = (ia.settings ?? []).map((t) => t.text);
  const sb = (ib.settings ?? []).map((t) => t.text);
  const hunks = lineHunks(sa, sb);
  if (hunks.length) out.push({ kind: 'settings', field: 'settings', hunks });
  else if ((ia.settings === null) !== (ib.settings === null))
    out.push({ kind: 'settings', field: 'settings', from: plain(ia.settings), to: plain(ib.settings) });
  return out;
}

/** Images by name when every name is unique on both sides (so a reordering is no change of pixels), else by index. */
function imageKey(a: MapImage[], b: MapImage[]) {
  const unique = (l: MapImage[]) => new Set(l.map((i) => i.name.text)).size === l.length;
  return unique(a) && unique(b) ? (i: MapImage) => i.name.text : (_i: MapImage, n: number) => n;
}

function imageFields(i: MapImage) {
  return { name: i.name.text, width: i.width, height: i.height, external: i.external };
}

/**
 * A matched image whose RGBA pixels differ: one `image-changed` of field `rgbaSha256`. The bytes are
 * compared first and hashed only when they differ: a big map holds tens of megabytes of pixels.
 */
function pixelChanges(x: MapImage, y: MapImage, id: DiffValue): Change[] {
  const px = x.pixels ? rgba(x) : undefined;
  const py = y.pixels ? rgba(y) : undefined;
  if (px === py || (px && py && sameBytes(px, py))) return [];
  return [{ kind: 'image-changed', id, field: 'rgbaSha256', from: px ? digestOf(px) : null, to: py ? digestOf(py) : null }];
}

/** The pixels as RGBA: an RGB image (0.7 format 0) and its RGBA re-embedding are the same. */
function rgba(i: MapImage): Uint8Array {
  const px = i.pixels!;
  if (i.format !== 0) return px;
  const n = i.width * i.height;
  const rgba = new Uint8Array(n * 4);
  for (let p = 0; p < n; p++) {
    rgba[p * 4] = px[p * 3]!;
    rgba[p * 4 + 1] = px[p * 3 + 1]!;
    rgba[p * 4 + 2] = px[p * 3 + 2]!;
    rgba[p * 4 + 3] = 255;
  }
  return rgba;
}

function envelopeFields(e: MapEnvelope) {
  return { name: e.name.text, channels: e.channels, synchronized: e.synchronized, points: e.points.time.length };
}

/** Each point of a matched envelope that differs, as field `points.<n>`: [time, curve, 4 values (, 16 bezier tangents)], null where absent. */
function pointChanges(x: MapEnvelope, y: MapEnvelope, id: DiffValue): Change[] {
  const out: Change[] = [];
  for (let k = 0; k < Math.max(x.points.time.length, y.points.time.length); k++) {
    const from = pointOf(x, k);
    const to = pointOf(y, k);
    if (from?.join() !== to?.join()) out.push({ kind: 'envelope-changed', id, field: `points.${k}`, from, to });
  }
  return out;
}

function pointOf(e: MapEnvelope, k: number): number[] | null {
  const p = e.points;
  if (k >= p.time.length) return null;
  const row = [p.time[k]!, p.curve[k]!, ...p.values.subarray(k * 4, k * 4 + 4)];
  if (p.bezier) for (const c of [p.bezier.inDx, p.bezier.inDy, p.bezier.outDx, p.bezier.outDy]) row.push(...c.subarray(k * 4, k * 4 + 4));
  return row;
}

function soundFields(s: MapSound) {
  return { name: s.name.text, external: s.external, bytes: s.data?.length ?? null, sha256: s.data ? digestOf(s.data) : null };
}
