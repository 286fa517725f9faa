// zones.geojson (RFC 7946): one Feature per zone. A zone whose points are all known and on the
// globe, at least 3 of them, is a Polygon, its ring closed as GeoJSON requires; any other zone is
// listed with geometry null and the reason, so a mapping tool shows what it can and nothing is
// drawn from a point the analysis did not pin down.

import { isUnknown, type WherigoModel, type WherigoObject } from './analysis/types.js';
import { plainValue } from './objects-json.js';
import { type LatLon, zoneOutline } from './zone-geometry.js';

/** The fewest distinct points that make an area (a triangle). */
export const MIN_ZONE_POINTS = 3;

export function zonesGeoJson(model: WherigoModel): object {
  return { type: 'FeatureCollection', features: model.objects.filter((o) => o.kind === 'zone').map(zoneFeature) };
}

function zoneFeature(o: WherigoObject): object {
  const properties = {
    name: plainValue(o.name),
    id: o.id,
    visible: o.visible,
    active: o.active,
    n: o.n,
  };
  const ring = closedRing(o);
  if (isUnknown(ring)) return { type: 'Feature', geometry: null, properties: { ...properties, why: ring.unknown } };
  return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring.map((p) => [p.lon, p.lat])] }, properties };
}

/**
 * The zone's outline as a closed ring (the first point repeated last, as RFC 7946 § 3.1.6 asks),
 * in the cartridge's order; or why there is none. A last point equal to the first is the
 * cartridge closing the ring itself, not a further point.
 */
export function closedRing(o: WherigoObject): LatLon[] | { unknown: string } {
  const outline = zoneOutline(o);
  if (isUnknown(outline)) return outline;
  const points = outline.points.slice();
  if (points.length > 1 && samePoint(points[0]!, points[points.length - 1]!)) points.pop();
  if (points.length < MIN_ZONE_POINTS)
    return { unknown: `the zone has ${points.length} distinct point${points.length === 1 ? '' : 's'}; an area needs ${MIN_ZONE_POINTS}` };
  points.push(points[0]!);
  return points;
}

function samePoint(a: LatLon, b: LatLon): boolean {
  return a.lat === b.lat && a.lon === b.lon;
}
