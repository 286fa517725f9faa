// zones.gpx on models built by hand: well-formed XML whatever the texts hold, the structure of
// GPX 1.1's schema (element order, required attributes, decimal coordinates in range), a waypoint
// per zone centre and known object location, a closed track per zone outline, and nothing made
// up for what the analysis did not pin down. The checker below reads only what the writer can
// write (no DTD, comments or CDATA): it is the schema's rules, not a general XML parser.
import { describe, expect, it } from 'vitest';
import { decimal, xmlText, zonesGpx } from '../../src/formats/gwc/objects-gpx.js';
import { pt, txt, wmodel, wobject } from '../helpers/wherigo-model.js';

interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

/** Parses `xml` strictly (balanced tags, quoted attributes, only the five predefined entities, only XML 1.0 characters). */
function parseXml(xml: string): Node {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0's forbidden characters are what is checked
  expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  expect(body).not.toBe(xml);
  const unescaped = (s: string) => {
    expect(s.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toMatch(/[&<]/);
    return s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);
  };
  const root: Node = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let at = 0;
  while (at < body.length) {
    const lt = body.indexOf('<', at);
    const text = body.slice(at, lt === -1 ? body.length : lt);
    stack[stack.length - 1]!.text += unescaped(text);
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(body);
    if (!m) throw new Error(`not a tag at ${lt}: ${body.slice(lt, lt + 40)}`);
    const [, close, name, attrText, selfClose] = m;
    if (close) {
      expect(stack.pop()!.name).toBe(name);
    } else {
      const attrs: Record<string, string> = {};
      for (const a of attrText!.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = unescaped(a[2]!);
      const node: Node = { name: name!, attrs, children: [], text: '' };
      stack[stack.length - 1]!.children.push(node);
      if (!selfClose) stack.push(node);
    }
    at = tag.lastIndex;
  }
  expect(stack).toHaveLength(1);
  expect(root.children).toHaveLength(1);
  expect(root.text.trim()).toBe('');
  return root.children[0]!;
}

/** The children's names follow `order` (each name at most once unless listed in `many`). */
function expectOrder(n: Node, order: string[], many: string[] = []): void {
  let last = -1;
  for (const c of n.children) {
    const i = order.indexOf(c.name);
    expect(i, `<${c.name}> in <${n.name}>`).toBeGreaterThanOrEqual(0);
    expect(i > last || (i === last && many.includes(c.name)), `<${c.name}> out of order in <${n.name}>`).toBe(true);
    last = i;
  }
}

const WPT = [
  'ele',
  'time',
  'magvar',
  'geoidheight',
  'name',
  'cmt',
  'desc',
  'src',
  'link',
  'sym',
  'type',
  'fix',
  'sat',
  'hdop',
  'vdop',
  'pdop',
  'ageofdgpsdata',
  'dgpsid',
  'extensions',
];
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** GPX 1.1 (gpx.xsd): the sequences, required attributes and coordinate ranges of what zones.gpx uses. */
function expectGpx11(gpx: Node): void {
  expect(gpx.name).toBe('gpx');
  expect(gpx.attrs).toMatchObject({ version: '1.1', xmlns: 'http://www.topografix.com/GPX/1/1' });
  expect(gpx.attrs.creator).toBeTruthy();
  expectOrder(gpx, ['metadata', 'wpt', 'rte', 'trk', 'extensions'], ['wpt', 'rte', 'trk']);
  const point = (p: Node) => {
    expectOrder(p, WPT, ['link']);
    expect(p.attrs.lat).toMatch(DECIMAL);
    expect(p.attrs.lon).toMatch(DECIMAL);
    expect(Math.abs(Number(p.attrs.lat))).toBeLessThanOrEqual(90);
    expect(Number(p.attrs.lon)).toBeGreaterThanOrEqual(-180);
    expect(Number(p.attrs.lon)).toBeLessThan(180);
  };
  for (const c of gpx.children) {
    if (c.name === 'metadata') expectOrder(c, ['name', 'desc', 'author', 'copyright', 'link', 'time', 'keywords', 'bounds', 'extensions'], ['link']);
    if (c.name === 'wpt') point(c);
    if (c.name === 'trk') {
      expectOrder(c, ['name', 'cmt', 'desc', 'src', 'link', 'number', 'type', 'extensions', 'trkseg'], ['link', 'trkseg']);
      for (const seg of c.children.filter((s) => s.name === 'trkseg')) {
        expectOrder(seg, ['trkpt', 'extensions'], ['trkpt']);
        seg.children.filter((p) => p.name === 'trkpt').forEach(point);
      }
    }
  }
}

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
