// zones.gpx on models built by hand: well-formed XML whatever the texts hold, the structure of
// GPX 1.1's schema (element order, required attributes, decimal coordinates in range), a waypoint
// per zone centre and known object location, a closed track per zone outline, and nothing made
// up for what the analysis did not pin down. The checker below reads only what the writer can
// write (no DTD, comments or CDATA): see test/helpers/gpx.ts.
import { describe, expect, it } from 'vitest';
import { decimal, xmlText, zonesGpx } from '../../src/formats/gwc/objects-gpx.js';
import { expectGpx11, parseXml } from '../helpers/gpx.js';
import { pt, txt, wmodel, wobject } from '../helpers/wherigo-model.js';

const nasty = 'Tom & Jerry\'s <"zone"> \u0001\u001f bell\u0007';

describe('zones.gpx', () => {
  const model = wmodel([
    wobject(0, 'cartridge', 'Cart'),
    wobject(1, 'zone', nasty, { description: txt('a < b && c > d'), points: [pt(52, 4), pt(52, 4.002), pt(52.002, 4.002)] }),
    wobject(2, 'zone', 'Unknown', { points: [pt(52, 4), { unknown: 'from a local' }, pt(52.002, 4.002)] }),
    wobject(3, 'zone', 'Two', { points: [pt(50, 8), pt(50.2, 8)] }),
    wobject(4, 'item', 'Key', { location: pt(1e-7, -179.5) }),
    wobject(5, 'character', 'Ghost', { location: { unknown: 'set in a handler' } }),
    wobject(6, 'item', { unknown: 'obfuscated' }, { variable: 'objSecret', location: pt(-33.5, 180) }),
  ]);
  const xml = zonesGpx(model, 'Cart & <Co>');
  const gpx = parseXml(xml);

  it("is well-formed and follows GPX 1.1's structure", () => {
    expectGpx11(gpx);
  });

  it('escapes every text and replaces the characters XML cannot hold', () => {
    const names = gpx.children.filter((c) => c.name === 'wpt' || c.name === 'trk').map((c) => c.children.find((x) => x.name === 'name')!.text);
    expect(names).toContain('Tom & Jerry\'s <"zone"> \ufffd\ufffd bell\ufffd');
    expect(gpx.children[0]!.children[0]!.text).toBe('Cart & <Co>');
    expect(xml).toContain('<desc>a &lt; b &amp;&amp; c &gt; d</desc>');
    expect(xmlText('a"b\'c')).toBe('a&quot;b&apos;c');
    // A lone surrogate is no character (a Text never holds one, but a string can); a pair is one, kept.
    expect(xmlText('a\ud800b\udc00')).toBe('a\ufffdb\ufffd');
    expect(xmlText('\ud83d\ude00')).toBe('\ud83d\ude00');
  });

  it('has a waypoint per zone centre and known object location, and a closed track per zone with an area', () => {
    const wpts = gpx.children.filter((c) => c.name === 'wpt');
    expect(wpts.map((w) => [w.attrs.lat, w.attrs.lon, w.children.find((x) => x.name === 'type')!.text])).toEqual([
      [String((52 + 52 + 52.002) / 3), String((4 + 4.002 + 4.002) / 3), 'zone centre'],
      ['50.1', '8', 'zone centre'],
      ['0.0000001', '-179.5', 'item'],
      ['-33.5', '-180', 'item'],
    ]);
    // An object whose name is not known is labelled by its variable, not given a made-up name.
    expect(wpts[3]!.children[0]!.text).toBe('item 6 (objSecret)');
    const trks = gpx.children.filter((c) => c.name === 'trk');
    expect(trks).toHaveLength(1);
    const pts = trks[0]!.children.find((c) => c.name === 'trkseg')!.children.map((p) => [p.attrs.lat, p.attrs.lon]);
    expect(pts).toEqual([
      ['52', '4'],
      ['52', '4.002'],
      ['52.002', '4.002'],
      ['52', '4'],
    ]);
    expect(xml).not.toMatch(/NaN|undefined|Infinity|\[object/);
  });

  it('writes decimals without exponents', () => {
    expect(decimal(1e-7)).toBe('0.0000001');
    expect(decimal(-2.5e-9)).toBe('-0.0000000025');
    expect(decimal(52.123)).toBe('52.123');
  });
});
