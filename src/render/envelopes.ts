// Teeworlds envelopes evaluated at a time, for drawing animated quads and layer colours as they
// are at that moment. Facts (docs/formats/teeworlds.md §3.7): points hold a time in ms, a curve
// type (0 step, 1 linear, 2 slow, 3 fast, 4 smooth, 5 bezier; unknown acts as linear) and 4
// values in 22.10 fixed point; an envelope repeats after its last point's time.

import type { MapEnvelope } from '../formats/teeworlds/index.js';

const FIXED = 1024;

/** The eased fraction 0…1 of curve `type` at `t` (0…1) for the non-bezier curves. */
function ease(type: number, t: number): number {
  if (type === 0) return 0;
  if (type === 2) return t * t * t;
  if (type === 3) return 1 - (1 - t) ** 3;
  if (type === 4) return t * t * (3 - 2 * t);
  return t;
}

/** One channel of a bezier segment: the cubic through the two points and their tangents, solved for the time by bisection. */
function bezierValue(t0: number, v0: number, t1: number, v1: number, outDx: number, outDy: number, inDx: number, inDy: number, time: number): number {
  const xs = [t0, t0 + Math.max(0, outDx), t1 + Math.min(0, inDx), t1];
  const ys = [v0, v0 + outDy, v1 + inDy, v1];
  const at = (p: number[], s: number) => (1 - s) ** 3 * p[0]! + 3 * (1 - s) ** 2 * s * p[1]! + 3 * (1 - s) * s * s * p[2]! + s ** 3 * p[3]!;
  let [lo, hi] = [0, 1];
  for (let k = 0; k < 32; k++) {
    const mid = (lo + hi) / 2;
    if (at(xs, mid) < time) lo = mid;
    else hi = mid;
  }
  return at(ys, (lo + hi) / 2);
}

/**
 * The envelope's 4 values at `timeMs` (fixed point divided out: position in world pixels and
 * degrees, colour 0…1), or undefined for an envelope without points (then nothing is applied).
 */
export function envelopeAt(env: MapEnvelope | undefined, timeMs: number): [number, number, number, number] | undefined {
  const p = env?.points;
  const n = p ? Math.min(p.time.length, p.curve.length, Math.floor(p.values.length / 4)) : 0;
  if (!p || n === 0) return undefined;
  const value = (i: number, c: number) => p.values[i * 4 + c]! / FIXED;
  const last = p.time[n - 1]!;
  let t = timeMs;
  if (last > 0) t = ((t % last) + last) % last;
  if (n === 1 || t <= p.time[0]!) return [0, 1, 2, 3].map((c) => value(0, c)) as [number, number, number, number];
  let i = 0;
  while (i < n - 2 && t >= p.time[i + 1]!) i++;
  const [t0, t1] = [p.time[i]!, p.time[i + 1]!];
  if (t >= t1) return [0, 1, 2, 3].map((c) => value(i + 1, c)) as [number, number, number, number];
  const span = t1 - t0;
  const frac = span > 0 ? (t - t0) / span : 0;
  const curve = p.curve[i]!;
  const bz = p.bezier;
  return [0, 1, 2, 3].map((c) => {
    const [v0, v1] = [value(i, c), value(i + 1, c)];
    if (curve === 5 && bz && bz.outDx.length >= n * 4 && bz.inDx.length >= n * 4) {
      const k = (a: Int32Array, j: number) => a[j * 4 + c]!;
      return bezierValue(t0, v0, t1, v1, k(bz.outDx, i), k(bz.outDy, i) / FIXED, k(bz.inDx, i + 1), k(bz.inDy, i + 1) / FIXED, t);
    }
    return v0 + (v1 - v0) * ease(curve === 5 ? 1 : curve, frac);
  }) as [number, number, number, number];
}
