// The index page: every level of the catalogue as a row (thumbnail, name, format and version,
// author, size, layers, warnings and findings, family), with filters and sorting run in the page
// (query.ts) and only the rows in sight in the DOM (virtual-list.ts). The view lives in the URL's
// hash (replaced, not pushed: filtering adds no history entries), so a filtered list can be linked.

import type { Catalogue } from '../../src/site/contract.js';
import { el } from '../dom.js';
import { familyHref, levelHref, thumbHref, worldHref } from './links.js';
import { CatalogueQuery, DEFAULT_VIEW, SORT_KEYS, type SortKey, type View, viewFromHash, viewToHash } from './query.js';
import { virtualList } from './virtual-list.js';

const ROW_HEIGHT = 64;
/** Most tokens a "uses" box suggests (the most used first): a datalist of thousands helps nobody. */
const MAX_SUGGESTIONS = 500;
const USE_KINDS = ['tile', 'logic', 'image'] as const;

const COLUMNS: { key: SortKey | null; label: string }[] = [
  { key: null, label: '' },
  { key: 'name', label: 'Name' },
  { key: 'format', label: 'Format' },
  { key: 'author', label: 'Author' },
  { key: 'size', label: 'Size' },
  { key: 'layers', label: 'Layers' },
  { key: 'findings', label: 'Warnings · findings' },
  { key: 'family', label: 'Family' },
];

export const bytesText = (n: number) => (n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KB` : `${(n / (1 << 20)).toFixed(1)} MB`);

export function indexPage(catalogue: Catalogue): void {
  const query = new CatalogueQuery(catalogue);
  const L = catalogue.levels;
  const str = (i: number) => (i >= 0 ? (catalogue.strings[i] ?? '') : '');
  const worldOfRow = new Map(catalogue.worlds.map((w) => [w.row, w.key]));
  let view: View = viewFromHash(location.hash);
  let rows: Uint32Array = new Uint32Array(0);

  // Header and filters.
  const header = el('header');
  header.append(el('h1', 'Levels'), el('p', `${query.count} levels · built ${catalogue.built} from ${catalogue.index}`, 'built'));
  const filters = el('form', undefined, 'filters');
  filters.id = 'filters';
  filters.addEventListener('submit', (e) => e.preventDefault());

  const labelled = (text: string, control: HTMLElement) => {
    const label = el('label', text);
    label.append(control);
    return label;
  };
  const checkbox = (box: HTMLInputElement, text: string) => {
    const label = el('label');
    label.append(box, text);
    return label;
  };
  const format = el('select');
  format.id = 'filter-format';
  format.append(new Option('any format', ''));
  for (const f of query.valuesOf('format')) format.append(new Option(`${f.value} (${f.rows})`, f.value));

  const datalist = (id: string, values: { value: string; rows: number }[], strip = '') => {
    const list = el('datalist');
    list.id = id;
    for (const v of values.slice(0, MAX_SUGGESTIONS)) list.append(new Option(`${v.rows} levels`, v.value.slice(strip.length)));
    return list;
  };
  const author = el('input');
  author.id = 'filter-author';
  author.type = 'search';
  author.placeholder = 'any author';
  author.setAttribute('list', 'authors');
  const uses = USE_KINDS.map((kind) => {
    const input = el('input');
    input.id = `filter-${kind}`;
    input.type = 'search';
    input.placeholder = `uses ${kind}…`;
    input.setAttribute('list', `uses-${kind}`);
    return { kind, input, list: datalist(`uses-${kind}`, query.tokensOf(kind), `${kind}:`) };
  });
  const findings = el('input');
  findings.id = 'filter-findings';
  findings.type = 'checkbox';
  const text = el('input');
  text.id = 'filter-text';
  text.type = 'search';
  text.placeholder = 'search names, paths, authors, texts';
  const sort = el('select');
  sort.id = 'sort';
  for (const k of SORT_KEYS) sort.append(new Option(k, k));
  const desc = el('input');
  desc.id = 'sort-desc';
  desc.type = 'checkbox';
  const count = el('output');
  count.id = 'count';

  filters.append(
    labelled('Format ', format),
    labelled('Author ', author),
    datalist('authors', query.valuesOf('author')),
    ...uses.flatMap((u) => [u.input, u.list]),
    checkbox(findings, ' has findings'),
    text,
    labelled('Sort by ', sort),
    checkbox(desc, ' descending'),
    count,
  );
  header.append(filters);

  // Column heads (click to sort) and the list.
  const head = el('div', undefined, 'row head');
  for (const c of COLUMNS) {
    const cell = el(c.key ? 'button' : 'span', c.label, 'cell');
    if (c.key) {
      cell.dataset.sort = c.key;
      cell.addEventListener('click', () => {
        apply({ ...view, sort: c.key!, desc: view.sort === c.key ? !view.desc : false });
      });
    }
    head.append(cell);
  }
  const scroller = el('div', undefined, 'list');
  scroller.id = 'list';
  const empty = el('p', 'No level matches these filters.', 'empty');
  empty.id = 'no-match';
  document.body.append(header, head, empty, scroller);

  const list = virtualList(scroller, ROW_HEIGHT, (i) => drawRow(rows[i]!, i));

  function drawRow(r: number, i: number): HTMLElement {
    const row = el('div', undefined, 'row level');
    row.dataset.row = String(r);
    row.dataset.index = String(i);
    const pic = el('a', undefined, 'cell thumb');
    pic.href = levelHref(L.key[r]!);
    pic.tabIndex = -1;
    if (L.thumb[r]) {
      const img = el('img');
      img.loading = 'lazy';
      img.decoding = 'async';
      img.alt = '';
      img.src = thumbHref(L.thumb[r]!, 's');
      // A picture that is not there (a site copied without thumbs/) leaves the cell blank.
      img.addEventListener('error', () => img.remove());
      pic.append(img);
    }
    const name = el('div', undefined, 'cell name');
    const link = el('a', L.name[r]);
    link.href = levelHref(L.key[r]!);
    name.append(link, el('span', L.path[r], 'path'));
    if (L.error[r]) name.append(el('span', `did not decode: ${L.error[r]}`, 'error'));
    const fmt = el('div', `${str(L.format[r]!)} ${str(L.version[r]!)}`.trim(), 'cell format');
    const who = el('div', str(L.author[r]!) || '—', 'cell author');
    const size = el('div', undefined, 'cell size');
    size.append(el('span', bytesText(L.bytes[r]!)), el('span', L.width[r]! || L.height[r]! ? `${L.width[r]} × ${L.height[r]}` : '', 'dims'));
    const layers = el('div', undefined, 'cell layers');
    layers.append(el('span', `${L.layers[r]} layers`), el('span', `${L.objects[r]} objects`, 'dims'));
    const issues = el('div', `${L.warnings[r]} · ${L.findings[r]}`, 'cell issues');
    if (L.warnings[r]! > 0 || L.findings[r]! > 0) issues.classList.add('has');
    const fam = el('div', undefined, 'cell family');
    const f = catalogue.families[L.family[r]!];
    if (f) {
      const a = el('a', `${f.exact ? 're-saves' : 'versions'} (${f.rows.length})`);
      a.href = familyHref(f.key);
      fam.append(a);
    }
    const world = worldOfRow.get(r);
    if (world !== undefined) {
      const a = el('a', 'world map');
      a.href = worldHref(world);
      fam.append(' ', a);
    }
    row.append(pic, name, fmt, who, size, layers, issues, fam);
    return row;
  }

  /** Puts `next` on the controls, the list and the hash. Synchronous, so what it took can be timed. */
  function apply(next: View): void {
    const t0 = performance.now();
    view = next;
    rows = query.run(view);
    list.setCount(rows.length);
    empty.hidden = rows.length > 0;
    count.value = `${rows.length} of ${query.count}`;
    showControls();
    for (const h of head.querySelectorAll<HTMLElement>('[data-sort]')) h.dataset.active = h.dataset.sort === view.sort ? (view.desc ? 'desc' : 'asc') : '';
    const hash = viewToHash(view);
    if (hash !== location.hash && !(hash === '' && location.hash === '')) history.replaceState(null, '', hash || location.pathname);
    document.body.dataset.shown = String(rows.length);
    document.body.dataset.applyMs = (performance.now() - t0).toFixed(1);
  }

  function showControls(): void {
    format.value = view.format;
    author.value = view.author;
    for (const u of uses) {
      const token = view.uses.find((t) => t.startsWith(`${u.kind}:`));
      u.input.value = token ? token.slice(u.kind.length + 1) : '';
    }
    findings.checked = view.findings;
    if (document.activeElement !== text) text.value = view.text;
    sort.value = view.sort;
    desc.checked = view.desc;
  }

  const fromControls = (): View => ({
    format: format.value,
    author: author.value.trim(),
    uses: uses.filter((u) => u.input.value.trim()).map((u) => `${u.kind}:${u.input.value.trim().replace(new RegExp(`^${u.kind}:`), '')}`),
    findings: findings.checked,
    text: text.value,
    sort: sort.value as SortKey,
    desc: desc.checked,
  });
  for (const c of [format, findings, sort, desc, author, ...uses.map((u) => u.input)]) c.addEventListener('change', () => apply(fromControls()));
  text.addEventListener('input', () => apply(fromControls()));
  window.addEventListener('hashchange', () => apply(viewFromHash(location.hash)));

  apply(view.sort ? view : DEFAULT_VIEW);
  // When the first rows were in the DOM, in ms since navigation began (bench/site-page.ts reads it).
  document.body.dataset.readyMs = performance.now().toFixed(0);
  document.body.dataset.ready = '1';
}
