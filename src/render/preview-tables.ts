// The records and texts a page lists beside the picture: each format's tables (objects, links,
// layers, images, members…) and the texts worth reading whole (Lua source, server settings).

import { GWC_MIME, mimeOfName } from './media.js';
import { type Any, isGraal, isGwc, isGwz, isTee, isWdata, isWwd, type PreviewTable, str } from './preview-types.js';
import { wdataTables } from './wdata.js';

/** A text a page shows as it is (source code, settings), in a preformatted block. */
export interface PreviewText {
  name: string;
  text: string;
}

/** `value`'s texts worth reading whole: a GWZ's Lua source, a DDNet map's server settings (empty for formats without such texts). */
export function textsOf(value: Any): PreviewText[] {
  if (isGwz(value)) return [{ name: value.luaFile, text: value.lua.text }];
  const settings = isTee(value) ? value.info?.settings : undefined;
  if (settings?.length) return [{ name: 'server settings', text: settings.map((t) => t.text).join('\n') }];
  return [];
}

/** Tables of `value`'s records for the page (objects, links, layers, images…). */
export function tablesOf(value: Any): PreviewTable[] {
  if (isWdata(value)) return wdataTables(value);
  if (isGwz(value)) {
    const members = [
      [value.luaFile, 'Lua source', value.lua.raw.length],
      ...value.media.map((m) => [m.name, mimeOfName(m.name) ?? 'media', m.size]),
      ...value.others.map((m) => [m.name, 'other', m.size]),
    ] as (string | number)[][];
    return [{ name: 'members', columns: ['name', 'kind', 'bytes'], rows: members }];
  }
  if (isGwc(value)) {
    const header = Object.entries(value.header).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : str(v)]);
    const media = value.media.map((m) => [m.id, m.type === null ? 'deleted' : (GWC_MIME[m.type] ?? `type ${m.type}`), m.length]);
    return [
      { name: 'header', columns: ['field', 'value'], rows: header },
      { name: 'media', columns: ['id', 'type', 'bytes'], rows: media },
    ];
  }
  if (isWwd(value)) {
    const rows: (string | number)[][] = [];
    value.planes.forEach((p, pi) => {
      const o = p.objects;
      for (let i = 0; i < o.count; i++) rows.push([pi, o.id[i]!, str(o.name[i]), str(o.logic[i]), str(o.imageSet[i]), o.x[i]!, o.y[i]!, o.z[i]!]);
    });
    const planes = value.planes.map(
      (p, i) => [i, str(p.name), `${p.tilesWide}×${p.tilesHigh}`, `${p.tileWidth}×${p.tileHeight}`, p.objects.count] as (string | number)[],
    );
    return [
      { name: 'objects', columns: ['plane', 'id', 'name', 'logic', 'image set', 'x', 'y', 'z'], rows },
      { name: 'planes', columns: ['plane', 'name', 'tiles', 'tile size', 'objects'], rows: planes },
    ];
  }
  if (isTee(value)) {
    const layers: (string | number)[][] = [];
    value.groups.forEach((g, gi) =>
      g.layers.forEach((l, li) => {
        const t = l.kind === 'quads' || l.kind === 'sounds' || l.kind === 'unknown' || l.kind === 'opaque' ? undefined : l;
        const size = t ? `${t.width}×${t.height}` : l.kind === 'opaque' ? `${l.width}×${l.height}` : '';
        layers.push([`${gi}.${li}`, str(g.name), str(l.name), l.kind, size, t?.image ?? '']);
      }),
    );
    const info = value.info;
    const infoRows: (string | number)[][] = info
      ? [
          ['author', info.author ? str(info.author) : '—'],
          ['version', info.mapVersion ? str(info.mapVersion) : '—'],
          ['credits', info.credits ? str(info.credits) : '—'],
          ['license', info.license ? str(info.license) : '—'],
          ['settings', info.settings ? `${info.settings.length} command${info.settings.length === 1 ? '' : 's'}` : 'none'],
        ]
      : [];
    return [
      { name: 'map info', columns: ['field', 'value'], rows: infoRows },
      { name: 'layers', columns: ['layer', 'group', 'name', 'kind', 'size', 'image'], rows: layers },
      {
        name: 'images',
        columns: ['#', 'name', 'size', 'embedded'],
        rows: value.images.map((m, i) => [i, str(m.name), `${m.width}×${m.height}`, m.external ? 'no' : 'yes']),
      },
      { name: 'sounds', columns: ['#', 'name', 'embedded'], rows: value.sounds.map((s, i) => [i, str(s.name), s.external ? 'no' : 'yes']) },
      {
        name: 'envelopes',
        columns: ['#', 'name', 'channels', 'points'],
        rows: value.envelopes.map((e, i) => [i, str(e.name), e.channels, e.points.time.length]),
      },
    ];
  }
  if (isGraal(value)) {
    if (value.format === 'graal-gmap') {
      const rows: (string | number)[][] = [];
      value.levels.forEach((row, y) => row.forEach((name, x) => rows.push([x, y, str(name)])));
      return [{ name: 'levels', columns: ['x', 'y', 'level'], rows }];
    }
    return [
      {
        name: 'links',
        columns: ['level', 'x', 'y', 'width', 'height', 'dest x', 'dest y'],
        rows: value.links.map((l) => [str(l.level), l.x, l.y, l.width, l.height, str(l.destX), str(l.destY)]),
      },
      { name: 'npcs', columns: ['x', 'y', 'image', 'script'], rows: value.npcs.map((n) => [n.x, n.y, str(n.image), str(n.script).slice(0, 120)]) },
      { name: 'chests', columns: ['x', 'y', 'item', 'sign'], rows: value.chests.map((c) => [c.x, c.y, str(c.item), c.signIndex]) },
      { name: 'signs', columns: ['x', 'y', 'text'], rows: value.signs.map((s) => [s.x, s.y, str(s.text).slice(0, 120)]) },
      { name: 'baddies', columns: ['x', 'y', 'type'], rows: value.baddies.map((b) => [b.x, b.y, b.type]) },
    ];
  }
  return [];
}
