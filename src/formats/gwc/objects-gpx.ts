// zones.gpx (GPX 1.1, for GPS units and mapping tools): a waypoint at each zone's centre and at
// each object whose location is known, then a track per zone outline (closed: a track is drawn
// as the line it is, where a route would be offered as turns to navigate). Elements follow the
// order of GPX 1.1's schema (metadata, wpt*, trk*; in a wpt: name, desc, type), coordinates are
// plain decimals within its ranges, and texts are XML-escaped with the characters XML 1.0 cannot
// hold replaced, so any cartridge's texts give a well-formed file.

import type { Text } from '../../core/text.js';
import { isUnknown, type Maybe, type WherigoModel, type WherigoObject } from './analysis/types.js';
import { closedRing } from './objects-geojson.js';
import { objectLabel } from './objects-summary.js';
import { type LatLon, onGlobe, zoneCentre } from './zone-geometry.js';

export function zonesGpx(model: WherigoModel, title: string): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="levelkit" xmlns="http://www.topografix.com/GPX/1/1">',
    `  <metadata><name>${xmlText(title)}</name><desc>Zones and object locations of the Wherigo cartridge, as levelkit read them from its Lua without running it</desc></metadata>`,
  ];
  for (const o of model.objects) {
    if (o.kind === 'zone') {
      const c = zoneCentre(o);
      if (!isUnknown(c)) lines.push(waypoint(c, o, 'zone centre'));
    } else if (o.location !== null && !isUnknown(o.location) && onGlobe(o.location)) {
      lines.push(waypoint(o.location, o, o.kind));
    }
  }
  for (const o of model.objects) {
    if (o.kind !== 'zone') continue;
    const ring = closedRing(o);
    if (isUnknown(ring)) continue;
    lines.push(`  <trk><name>${xmlText(nameOf(o))}</name>${desc(o.description)}<type>zone</type><trkseg>`);
    for (const p of ring) lines.push(`    <trkpt ${latLon(p)}/>`);
    lines.push('  </trkseg></trk>');
  }
  lines.push('</gpx>', '');
  return lines.join('\n');
}

function waypoint(p: LatLon, o: WherigoObject, type: string): string {
  return `  <wpt ${latLon(p)}><name>${xmlText(nameOf(o))}</name>${desc(o.description)}<type>${xmlText(type)}</type></wpt>`;
}

function nameOf(o: WherigoObject): string {
  return o.name !== null && !isUnknown(o.name) ? o.name.text : objectLabel(o);
}

function desc(d: Maybe<Text> | null): string {
  return d === null || isUnknown(d) || d.text === '' ? '' : `<desc>${xmlText(d.text)}</desc>`;
}

/** `lat="…" lon="…"` as GPX's decimal types: no exponent, longitude 180 written as its equal −180 (the schema's range is [−180, 180)). */
function latLon(p: LatLon): string {
  return `lat="${decimal(p.lat)}" lon="${decimal(p.lon === 180 ? -180 : p.lon)}"`;
}

/** A finite number as xsd:decimal (JavaScript writes 1e-7 for small ones; the schema has no exponents). */
export function decimal(x: number): string {
  const s = String(x);
  return /e/i.test(s) ? x.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') : s;
}

/**
 * `s` as XML character data or attribute text: `& < > " '` escaped, and the characters XML 1.0
 * does not allow (controls other than tab, line feed and carriage return, lone surrogates,
 * U+FFFE and U+FFFF) replaced by U+FFFD.
 */
export function xmlText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!).replace(NOT_XML, '\ufffd');
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 forbids are what this finds
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
