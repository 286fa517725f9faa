// The envelopes of a Teeworlds map: ENVELOPE items over the ENVPOINTS points (6 ints, or 22 with
// 0.7's inline bezier), with DDNet's envpoints-bezier UUID item when it covers them. README.md §Map.

import { BEZIER_INTS, ENVELOPE, ENVPOINT, ITEM } from './items.js';
import { EMPTY_TEXT, eachItem, need, type Reader, text } from './map-reader.js';
import { unpackName } from './names.js';
import type { EnvelopePoints, MapEnvelope } from './types.js';
import { UUID } from './uuid.js';

export function decodeEnvelopes(rd: Reader, uuids: Map<number, string>): MapEnvelope[] {
  const envItems = rd.ofType(ITEM.ENVELOPE);
  if (envItems.num === 0) return [];
  // 0.7 writes every point with inline bezier data (22 ints) as soon as one envelope is v3.
  let inline = false;
  for (let i = envItems.start; i < envItems.start + envItems.num; i++) inline ||= rd.data(i)[ENVELOPE.version]! >= 3;
  const pointInts = inline ? ENVPOINT.intsWithBezier : ENVPOINT.ints;
  const ptsItems = rd.ofType(ITEM.ENVPOINTS);
  const pts = ptsItems.num > 0 ? rd.data(ptsItems.start) : new Int32Array(0);
  const total = Math.floor(pts.length / pointInts);
  let bezier: Int32Array | null = null;
  for (const [typeId, uuid] of uuids) {
    if (uuid !== UUID.ENVPOINTS_BEZIER) continue;
    const b = rd.ofType(typeId);
    if (b.num === 0) continue;
    const bd = rd.data(b.start);
    // DDNet uses the bezier item only when it covers exactly the ENVPOINTS points.
    if (!inline && bd.length === total * BEZIER_INTS) bezier = bd;
    else
      rd.ctx.warnings.warn(
        'BEZIER_MISMATCH',
        `bezier item holds ${bd.length / BEZIER_INTS} points, ENVPOINTS ${total}; ignored`,
        rd.df.itemOffsets[b.start]!,
        'envelopes',
      );
  }
  return eachItem(rd, ITEM.ENVELOPE, (d, index, k) => {
    const path = `envelopes[${k}]`;
    need(rd, d, index, ENVELOPE.numPoints + 1, path);
    const version = d[ENVELOPE.version]!;
    const start = d[ENVELOPE.startPoint]!,
      num = d[ENVELOPE.numPoints]!;
    if (start < 0 || num < 0 || start + num > total)
      throw rd.fail('BAD_INDEX', index, `${path}.points`, { expected: `points within 0..${total}`, actual: `${start}+${num}` });
    // QUIRK: 0.5 maps write 5-int v1 envelopes (name[0] = -1, the rest missing): no name.
    const hasName = d.length >= ENVELOPE.name + ENVELOPE.nameInts && d[ENVELOPE.name] !== -1;
    const name = hasName ? text(unpackName(d, ENVELOPE.name, ENVELOPE.nameInts)) : EMPTY_TEXT();
    const synchronized = version >= 2 && (d[ENVELOPE.synchronized] ?? 0) !== 0;
    return { version, channels: d[ENVELOPE.channels]!, name, synchronized, points: envelopePoints(pts, start, num, pointInts, bezier) };
  });
}

function envelopePoints(pts: Int32Array, start: number, n: number, pointInts: number, bezier: Int32Array | null): EnvelopePoints {
  const time = new Int32Array(n),
    curve = new Int32Array(n),
    values = new Int32Array(n * 4);
  const withBezier = pointInts === ENVPOINT.intsWithBezier || bezier !== null;
  const tan = withBezier ? ([new Int32Array(n * 4), new Int32Array(n * 4), new Int32Array(n * 4), new Int32Array(n * 4)] as const) : null;
  for (let i = 0; i < n; i++) {
    const p = (start + i) * pointInts;
    time[i] = pts[p + ENVPOINT.time]!;
    curve[i] = pts[p + ENVPOINT.curve]!;
    for (let c = 0; c < 4; c++) values[i * 4 + c] = pts[p + ENVPOINT.values + c]!;
    if (tan) {
      const src = bezier ?? pts;
      const b = bezier ? (start + i) * BEZIER_INTS : p + ENVPOINT.bezier;
      for (let t = 0; t < 4; t++) for (let c = 0; c < 4; c++) tan[t]![i * 4 + c] = src[b + t * 4 + c]!;
    }
  }
  const out: EnvelopePoints = { time, curve, values };
  if (tan) out.bezier = { inDx: tan[0], inDy: tan[1], outDx: tan[2], outDy: tan[3] };
  return out;
}
