// Where a zone is, from the points the analysis recovered: its outline and its centre, or why
// they are not known. Every surface that places a zone (info, GeoJSON, GPX, check) asks here, so
// a zone is never drawn from a point the analysis could not pin down or one off the globe.

import { isUnknown, type Unknown, type WherigoObject, type ZonePoint } from './analysis/types.js';

/** A point to place on a map: both coordinates known and on the globe. */
export interface LatLon {
  lat: number;
  lon: number;
}

/**
 * The zone's points in order when every one is known and on the globe; otherwise why not (a
 * zone without `Points`, an unknown list or point, a point off the globe). An empty list is
 * returned as such: how many points are too few is the caller's to say.
 */
export function zoneOutline(o: WherigoObject): { points: LatLon[] } | Unknown {
  if (o.points === null) return { unknown: 'the main function sets no Points on this zone' };
  if (isUnknown(o.points)) return { unknown: `its Points are not known: ${o.points.unknown}` };
  const points: LatLon[] = [];
  for (let i = 0; i < o.points.length; i++) {
    const p = o.points[i]!;
    if (isUnknown(p)) return { unknown: `point ${i + 1} is not known: ${p.unknown}` };
    if (!onGlobe(p)) return { unknown: `point ${i + 1} (${p.lat}, ${p.lon}) is off the globe` };
    points.push({ lat: p.lat, lon: p.lon });
  }
  return { points };
}

/**
 * The mean of the zone's points, or why it is not known. Longitudes are averaged on the side of
 * the antimeridian the points are on (a zone spanning ±180° has its centre there, not at 0°).
 */
export function zoneCentre(o: WherigoObject): LatLon | Unknown {
  const outline = zoneOutline(o);
  if (isUnknown(outline)) return outline;
  const { points } = outline;
  if (points.length === 0) return { unknown: 'the zone has no points' };
  let lat = 0;
  let lon = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    min = Math.min(min, p.lon);
    max = Math.max(max, p.lon);
  }
  const across = max - min > 180;
  for (const p of points) {
    lat += p.lat;
    lon += across && p.lon < 0 ? p.lon + 360 : p.lon;
  }
  lon /= points.length;
  if (lon >= 180) lon -= 360;
  return { lat: lat / points.length, lon };
}

/** Latitude within ±90°, longitude within ±180°, both finite. */
export function onGlobe(p: ZonePoint | LatLon): boolean {
  return Math.abs(p.lat) <= 90 && Math.abs(p.lon) <= 180;
}
