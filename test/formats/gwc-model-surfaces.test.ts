// The object model's surfaces on models built by hand: info's summary (counts, zone centres,
// decoders), objects.json, zones.geojson, messages.txt, and the files extract adds when the
// analysis fails. GPX has its own file (gwc-model-surfaces-gpx.test.ts).
import { describe, expect, it } from 'vitest';
import { isUnknown } from '../../src/formats/gwc/analysis/types.js';
import { objectFiles } from '../../src/formats/gwc/objects-files.js';
import { closedRing, zonesGeoJson } from '../../src/formats/gwc/objects-geojson.js';
import { objectsJson } from '../../src/formats/gwc/objects-json.js';
import { messagesText } from '../../src/formats/gwc/objects-messages.js';
import { objectsSummary } from '../../src/formats/gwc/objects-summary.js';
import { zoneCentre } from '../../src/formats/gwc/zone-geometry.js';
import { pt, txt, wmodel, wobject } from '../helpers/wherigo-model.js';

const square = [pt(52, 4), pt(52, 4.002), pt(52.002, 4.002), pt(52.002, 4)];

describe('objectsSummary', () => {
  it('counts every kind, 0 included, and names the string decoders', () => {
    const m = wmodel(
      [
        wobject(0, 'cartridge', 'Cart'),
        wobject(1, 'zone', 'A', { points: square }),
        wobject(2, 'item', 'Key'),
        wobject(3, 'item', 'Map'),
        wobject(4, 'input', 'Q'),
        wobject(5, 'command', null),
      ],
      {
        decoders: [
          { name: '_wRGbT', origin: 'lua.proto[0].p[0]', shape: 'urwigo-table' },
          { name: null, origin: 'lua.proto[0].p[1]', shape: 'earwigo' },
        ],
      },
    );
    const s = objectsSummary(m);
    expect(s.byKind).toEqual({ zone: 1, item: 2, character: 0, task: 0, timer: 0, input: 1, media: 0, command: 1, cartridge: 1, other: 0 });
    expect(s.stringDecoders).toEqual(['_wRGbT', 'local']);
    expect(s.zones).toEqual([{ n: 1, name: 'A', centre: { lat: expect.closeTo(52.001, 9), lon: expect.closeTo(4.001, 9) } }]);
  });

  it('gives a zone centre as the mean of its points, or says why it is unknown (never a number)', () => {
    expect(zoneCentre(wobject(0, 'zone', 'A', { points: [pt(10, 20), pt(20, 40), pt(30, 0)] }))).toEqual({ lat: 20, lon: 20 });
    const unknownPoint = zoneCentre(wobject(0, 'zone', 'A', { points: [pt(10, 20), { unknown: 'a local' }, pt(30, 0)] }));
    expect(unknownPoint).toEqual({ unknown: 'point 2 is not known: a local' });
    expect(zoneCentre(wobject(0, 'zone', 'A', { points: { unknown: 'a call' } }))).toEqual({ unknown: 'its Points are not known: a call' });
    expect(isUnknown(zoneCentre(wobject(0, 'zone', 'A')))).toBe(true);
    expect(isUnknown(zoneCentre(wobject(0, 'zone', 'A', { points: [] })))).toBe(true);
    expect(zoneCentre(wobject(0, 'zone', 'A', { points: [pt(360, 360), pt(1, 1), pt(2, 2)] }))).toEqual({ unknown: 'point 1 (360, 360) is off the globe' });
    const nan = zoneCentre(wobject(0, 'zone', 'A', { points: [pt(Number.NaN, 1), pt(1, 1), pt(2, 2)] }));
    expect(isUnknown(nan)).toBe(true);
  });

  it('puts the centre of a zone across the antimeridian at ±180°, not at 0°', () => {
    const c = zoneCentre(wobject(0, 'zone', 'A', { points: [pt(0, 179), pt(1, -179), pt(1, 179)] }));
    expect(isUnknown(c)).toBe(false);
    if (!isUnknown(c)) expect(Math.abs(c.lon)).toBeGreaterThan(179);
  });
});

describe('objects.json', () => {
  const read = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

  it('writes texts as strings, with their encoding only when not UTF-8, and unknowns as {unknown}', () => {
    const m = wmodel([
      wobject(0, 'timer', 'T', { description: txt('Café', 'windows-1252'), duration: { unknown: 'set from a local' }, visible: true }),
      wobject(1, 'input', { unknown: 'decoded by a call the analysis does not follow' }, { answers: [txt('42')], choices: [txt('a'), { unknown: 'x' }] }),
    ]);
    const j = read(objectsJson(m));
    expect(j.objects[0].name).toBe('T');
    expect(j.objects[0].description).toEqual({ text: 'Café', encoding: 'windows-1252' });
    expect(j.objects[0].duration).toEqual({ unknown: 'set from a local' });
    expect(j.objects[0].visible).toBe(true);
    expect(j.objects[1].name).toEqual({ unknown: 'decoded by a call the analysis does not follow' });
    expect(j.objects[1].answers).toEqual(['42']);
    expect(j.objects[1].choices).toEqual(['a', { unknown: 'x' }]);
    expect(JSON.stringify(j)).not.toMatch(/"raw"/);
  });

  it('is {unknown} with the reason when the analysis failed, and extract still gives the files that say why', () => {
    const files = objectFiles({ unknown: "the cartridge's objects could not be analysed: CORRUPT at 0x40" }, 'Cart');
    expect(files.map((f) => f.path)).toEqual(['objects.json', 'messages.txt']);
    expect(read((files[0] as { bytes: Uint8Array }).bytes)).toEqual({ unknown: "the cartridge's objects could not be analysed: CORRUPT at 0x40" });
    expect(new TextDecoder().decode((files[1] as { bytes: Uint8Array }).bytes)).toMatch(/CORRUPT at 0x40/);
  });
});

describe('zones.geojson', () => {
  it('closes each ring, keeps the cartridge order as [lon, lat], and carries name/id/visible/active/n', () => {
    const m = wmodel([
      wobject(0, 'item', 'Key', { location: pt(1, 2) }),
      wobject(1, 'zone', 'Park', { id: 'z1', visible: true, active: { unknown: 'a call' }, points: [pt(52, 4), pt(52, 5), pt(53, 5)] }),
    ]);
    const g = zonesGeoJson(m) as {
      type: string;
      features: { geometry: { type: string; coordinates: number[][][] } | null; properties: Record<string, unknown> }[];
    };
    expect(g.type).toBe('FeatureCollection');
    expect(g.features).toHaveLength(1);
    const f = g.features[0]!;
    expect(f.geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [4, 52],
          [5, 52],
          [5, 53],
          [4, 52],
        ],
      ],
    });
    expect(f.properties).toEqual({ name: 'Park', id: 'z1', visible: true, active: { unknown: 'a call' }, n: 1 });
  });

  it('does not repeat the first point of a ring the cartridge closed itself', () => {
    const ring = closedRing(wobject(0, 'zone', 'Z', { points: [pt(1, 1), pt(1, 2), pt(2, 2), pt(1, 1)] }));
    expect(ring).toEqual([
      { lat: 1, lon: 1 },
      { lat: 1, lon: 2 },
      { lat: 2, lon: 2 },
      { lat: 1, lon: 1 },
    ]);
    // Closed by the cartridge, but only 2 distinct points: no area.
    expect(isUnknown(closedRing(wobject(0, 'zone', 'Z', { points: [pt(1, 1), pt(1, 2), pt(1, 1)] })))).toBe(true);
  });

  it('lists zones with too few, unknown or off-globe points with geometry null and the reason, never a guessed shape', () => {
    const m = wmodel([
      wobject(0, 'zone', 'Two', { points: [pt(1, 1), pt(1, 2)] }),
      wobject(1, 'zone', 'Unknown', { points: [pt(1, 1), { unknown: 'from a function' }, pt(2, 2)] }),
      wobject(2, 'zone', 'None'),
      wobject(3, 'zone', 'Off', { points: [pt(1, 1), pt(1, 200), pt(2, 2)] }),
    ]);
    const g = zonesGeoJson(m) as { features: { geometry: unknown; properties: { n: number; why: string } }[] };
    expect(g.features.map((f) => f.geometry)).toEqual([null, null, null, null]);
    expect(g.features.map((f) => f.properties.n)).toEqual([0, 1, 2, 3]);
    expect(g.features[0]!.properties.why).toMatch(/2 distinct points/);
    expect(g.features[1]!.properties.why).toMatch(/point 2 is not known: from a function/);
    expect(g.features[2]!.properties.why).toMatch(/sets no Points/);
    expect(g.features[3]!.properties.why).toMatch(/off the globe/);
    expect(JSON.stringify(g)).not.toMatch(/NaN|null,null|\[\s*\]/);
  });
});

describe('messages.txt', () => {
  it('lists every message under its object (kind, number, name) and event, in order, with unknown ones counted', () => {
    const zone = wobject(1, 'zone', 'Park', {
      handlers: [
        { event: 'OnEnter', fn: 3, messages: [txt('Welcome!'), txt('Line 1\nLine 2')], unknownMessages: 1 },
        { event: 'OnExit', fn: 4, messages: [], unknownMessages: 2 },
      ],
    });
    const m = wmodel([wobject(0, 'cartridge', 'Cart'), zone], {
      messages: [
        { object: 1, event: 'OnEnter', fn: 3, text: txt('Welcome!') },
        { object: 1, event: 'OnEnter', fn: 3, text: txt('Line 1\nLine 2') },
        { object: null, event: null, fn: 9, text: txt('From a helper') },
      ],
    });
    const t = messagesText(m, 'Cart');
    expect(t).toContain('zone 1 "Park" OnEnter:\n  Welcome!\n  Line 1\n  Line 2\n  (1 message not known)\n');
    expect(t).toContain('function 9 (not set on an object):\n  From a helper\n');
    expect(t).toContain('zone 1 "Park" OnExit:\n  (2 messages not known)\n');
    expect(t.indexOf('OnEnter')).toBeLessThan(t.indexOf('function 9'));
  });

  it('says so when there are none', () => {
    expect(messagesText(wmodel([]), 'Cart')).toMatch(/No messages found/);
  });
});
