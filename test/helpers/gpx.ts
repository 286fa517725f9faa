// A strict reader of what zones.gpx can hold and a check of GPX 1.1's structure (gpx.xsd: the
// element sequences, required attributes and coordinate ranges zones.gpx uses). Not a general XML
// parser: no DTD, comments or CDATA, which the writer never emits.
import { expect } from 'vitest';

interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

/** Parses `xml` strictly (balanced tags, quoted attributes, only the five predefined entities, only XML 1.0 characters). */
export function parseXml(xml: string): Node {
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
export function expectGpx11(gpx: Node): void {
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
