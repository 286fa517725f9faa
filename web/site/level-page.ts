// A level's page: its picture (level-picture.ts) and what the index knows of it: summary, layers,
// tile histogram, objects, texts with their coordinates, images, warnings and findings, the levels
// it points to and its family (the other versions, each linked).

import type { Catalogue, LevelPageData } from '../../src/site/contract.js';
import { el } from '../dom.js';
import { bytesText } from './index-page.js';
import { levelPicture } from './level-picture.js';
import { familyHref, indexHref, levelHref, worldHref } from './links.js';
import { at, link, section, table } from './sections.js';

/** Tiles of one layer's histogram shown before "more". */
const HISTOGRAM_ROWS = 32;

export async function levelPage(data: LevelPageData, catalogue: Catalogue | undefined): Promise<void> {
  const header = el('header');
  const nav = el('nav');
  nav.append(link('← all levels', indexHref()));
  header.append(nav, el('h1', data.name), el('p', data.path, 'path'), el('p', `${data.format} ${data.formatVersion}`.trim(), 'format'));
  // A gmap with a world page: the whole world, stitched.
  const row = catalogue?.levels.key.indexOf(data.key) ?? -1;
  const world = catalogue?.worlds.find((w) => w.row === row && row >= 0);
  if (world) {
    const p = el('p', undefined, 'world-link');
    p.append(link('The world this gmap describes, as one picture', worldHref(world.key)));
    header.append(p);
  }
  const picture = el('div', undefined, 'picture');
  picture.id = 'picture-box';
  document.body.append(header, picture);
  const parts: HTMLElement[] = [
    summarySection(data, catalogue),
    section(
      'layers-table',
      `Layers (${data.layers.length})`,
      table(
        ['#', 'group', 'kind', 'name', 'size', 'image'],
        data.layers.map((l) => [l.layer, l.group, l.kind, l.name, `${l.width} × ${l.height}`, l.image]),
      ),
    ),
    histogramSection(data),
    section(
      'objects',
      `Objects (${data.objects.length})`,
      table(
        ['#', 'kind', 'name', 'at'],
        data.objects.map((o) => [o.object, o.kind, o.name, at(o.x, o.y)]),
      ),
    ),
    section(
      'texts',
      `Texts (${data.texts.length})`,
      table(
        ['object', 'kind', 'text', 'at'],
        data.texts.map((t) => [t.object, t.kind, el('pre', t.text), at(t.x, t.y)]),
      ),
    ),
    section(
      'images',
      `Images (${data.images.length})`,
      table(
        ['name', 'size', 'external'],
        data.images.map((i) => [
          i.name,
          i.width !== null && i.height !== null ? `${i.width} × ${i.height}` : null,
          i.external === null ? null : i.external ? 'yes' : 'no',
        ]),
      ),
    ),
    section(
      'warnings',
      `Warnings (${data.warnings.length})`,
      table(
        ['code', 'message'],
        data.warnings.map((w) => [w.code, w.message]),
      ),
    ),
    section(
      'findings',
      `Findings (${data.findings.length})`,
      table(
        ['rule', 'severity', 'message'],
        data.findings.map((f) => [f.rule, f.severity, f.message]),
      ),
    ),
    section(
      'links',
      `Links (${data.links.length})`,
      table(
        ['kind', 'level'],
        data.links.map((l) => [l.kind, l.key ? link(l.name, levelHref(l.key)) : `${l.name} (not in this site)`]),
      ),
    ),
    familySection(data, catalogue),
  ];
  for (const p of parts) if (p.querySelector('tbody')?.childElementCount === 0) p.classList.add('none');
  document.body.append(...parts);
  document.title = data.name;
  await levelPicture(picture, data);
  document.body.dataset.ready = '1';
}

function summarySection(data: LevelPageData, catalogue: Catalogue | undefined): HTMLElement {
  const dl = el('dl');
  const row = catalogue?.levels.key.indexOf(data.key) ?? -1;
  const facts: [string, string][] = [];
  if (catalogue && row >= 0) {
    const L = catalogue.levels;
    const author = L.author[row]!;
    if (author >= 0) facts.push(['author', catalogue.strings[author] ?? '']);
    facts.push(['size', `${bytesText(L.bytes[row]!)}, ${L.width[row]} × ${L.height[row]} tiles`]);
  }
  for (const [k, v] of Object.entries(data.summary)) facts.push([k, typeof v === 'string' ? v : JSON.stringify(v)]);
  for (const [k, v] of facts) dl.append(el('dt', k), el('dd', v));
  return section('summary', 'Summary', dl);
}

function histogramSection(data: LevelPageData): HTMLElement {
  const s = section('tiles', 'Tiles');
  for (const h of data.tiles) {
    const total = h.counts.reduce((n, [, c]) => n + c, 0) || 1;
    const details = el('details');
    details.open = data.tiles.length <= 3;
    details.append(el('summary', `layer ${h.layer} (${h.kind}): ${h.counts.length} distinct tiles`));
    const rows = h.counts.slice(0, HISTOGRAM_ROWS).map(([tile, count]) => {
      const bar = el('span', undefined, 'bar');
      bar.style.width = `${Math.max(1, Math.round((count / total) * 200))}px`;
      return [tile, count, bar];
    });
    details.append(table(['tile', 'cells', ''], rows, 'histogram'));
    if (h.counts.length > HISTOGRAM_ROWS) details.append(el('p', `… and ${h.counts.length - HISTOGRAM_ROWS} more tiles.`, 'more'));
    s.append(details);
  }
  if (!data.tiles.length) s.classList.add('none');
  return s;
}

function familySection(data: LevelPageData, catalogue: Catalogue | undefined): HTMLElement {
  const family = catalogue?.families[data.family];
  const s = section('family', 'Family');
  if (!catalogue || !family) {
    s.append(el('p', 'No other version of this level is in the archive.'));
    return s;
  }
  s.append(link(`${family.exact ? 'Re-saves' : 'Versions'} of this level (${family.rows.length}): the chain with its changes`, familyHref(family.key)));
  const ol = el('ol');
  for (const r of family.rows) {
    const li = el('li');
    const key = catalogue.levels.key[r];
    if (key === undefined) continue;
    li.append(
      key === data.key ? el('strong', `${catalogue.levels.name[r]} (this one)`) : link(catalogue.levels.name[r] ?? key, levelHref(key)),
      el('span', ` ${catalogue.levels.path[r]}`, 'path'),
    );
    ol.append(li);
  }
  s.append(ol);
  return s;
}
