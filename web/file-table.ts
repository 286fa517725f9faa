// The page's table of many files (a zip, a folder's worth): progress "n of N", the scan-style
// summary above it (files per format and version, errors and warnings by code, duplicates: the
// numbers `levelkit scan --report` gives for the same files), and a virtualised table, only the
// rows in sight in the DOM, sortable by any column and filterable by name, format, status and
// error code. Every text is set as text. Keys that come from files (codes, versions) live in Maps.
// Each row in sight shows a thumbnail, drawn on demand (thumbnails.ts).

import type { Thumbnails } from './thumbnails.js';

/** One row: what the table shows of a file, filled in as it is decoded. */
export interface FileRow {
  index: number;
  name: string;
  size: number;
  /** Undefined while the file waits to be decoded. */
  format?: string;
  version?: string;
  warnings?: string[];
  /** Warning codes the decode's depth left unchecked (as a scan record's `unchecked`). */
  unchecked?: string[];
  ms?: number;
  error?: { code: string; message: string };
  contentDigest?: string;
  gridDigest?: string | null;
}

type SortKey = 'name' | 'format' | 'version' | 'size' | 'warnings' | 'ms' | 'status';

/** Height of one table row in pixels (fixed, so the rows in sight follow from the scroll position). */
const ROW_HEIGHT = 64;
/** Rows drawn beyond those in sight, above and below, so a quick scroll shows no gap. */
const OVERSCAN = 8;

const text = <K extends keyof HTMLElementTagNameMap>(tag: K, t?: string | number, cls?: string) => {
  const e = document.createElement(tag);
  if (t !== undefined) e.textContent = String(t);
  if (cls) e.className = cls;
  return e;
};

export function size(n: number): string {
  return n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 2 ** 20).toFixed(1)} MiB`;
}

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** The scan summary of the decoded rows (same definitions as src/scan/summary.ts's ReportBuilder). */
export function reportOf(rows: readonly FileRow[]) {
  const formats = new Map<string, { files: number; versions: Map<string, number> }>();
  const errors = new Map<string, number>();
  const warnings = new Map<string, number>();
  const unchecked = new Map<string, number>();
  const content = new Map<string, number>();
  const grid = new Map<string, number>();
  let files = 0;
  let bytes = 0;
  for (const r of rows) {
    if (r.format === undefined && !r.error) continue; // not decoded yet
    files++;
    bytes += r.size;
    if (r.error) bump(errors, r.error.code);
    else if (r.format) {
      const f = formats.get(r.format) ?? { files: 0, versions: new Map<string, number>() };
      formats.set(r.format, f);
      f.files++;
      bump(f.versions, r.version ?? '');
      for (const w of r.warnings ?? []) bump(warnings, w);
      for (const c of r.unchecked ?? []) bump(unchecked, c);
      if (r.gridDigest) bump(grid, r.gridDigest);
    }
    if (r.contentDigest) bump(content, r.contentDigest);
  }
  const dup = (m: Map<string, number>) => {
    let groups = 0;
    let inGroups = 0;
    for (const n of m.values())
      if (n > 1) {
        groups++;
        inGroups += n;
      }
    return { groups, files: inGroups };
  };
  return { files, bytes, formats, errors, warnings, unchecked, duplicates: { contentDigest: dup(content), gridDigest: dup(grid) } };
}

/** The same report as plain JSON (what `levelkit scan --report` writes, without timing). */
export function reportJson(report: ReturnType<typeof reportOf>) {
  const obj = <V>(m: Map<string, V>, f: (v: V) => unknown = (v) => v) => Object.fromEntries([...m].map(([k, v]) => [k, f(v)]));
  return {
    files: report.files,
    bytes: report.bytes,
    formats: obj(report.formats, (f) => ({ files: f.files, versions: obj(f.versions) })),
    errors: obj(report.errors),
    warnings: obj(report.warnings),
    unchecked: obj(report.unchecked),
    duplicates: report.duplicates,
  };
}

export interface FileTable {
  /** Starts over with these files (none decoded yet). */
  reset(rows: FileRow[]): void;
  /** A file's row changed (decoded or failed); `done` of the total are decoded. */
  updated(done: number): void;
  /** Marks the open file's row. */
  markOpen(index: number): void;
}

/** Wires the table in #list to `rows`; `open(index)` opens a file's detail view; `thumbs` draws the rows' pictures. */
export function fileTable(open: (index: number) => void, thumbs?: Thumbnails): FileTable {
  const $ = (id: string) => document.getElementById(id)!;
  const scroller = $('files-scroll');
  const body = $('files').querySelector('tbody')!;
  const nameFilter = $('filter-name') as HTMLInputElement;
  const formatFilter = $('filter-format') as HTMLSelectElement;
  const statusFilter = $('filter-status') as HTMLSelectElement;
  const errorFilter = $('filter-error') as HTMLSelectElement;
  let rows: FileRow[] = [];
  let shown: FileRow[] = [];
  let sort: { key: SortKey; down: boolean } = { key: 'name', down: false };
  let openIndex = -1;

  const status = (r: FileRow) => (r.error ? r.error.code : r.format === undefined ? '…' : 'ok');
  const value = (r: FileRow, key: SortKey): string | number => {
    switch (key) {
      case 'size':
        return r.size;
      case 'warnings':
        return r.warnings?.length ?? -1;
      case 'ms':
        return r.ms ?? -1;
      case 'status':
        return status(r);
      default:
        return r[key] ?? '';
    }
  };

  /** Rows passing the filters, in the chosen order; a person's new sort or filter starts at the top. */
  const select = (toTop = false) => {
    if (toTop) scroller.scrollTop = 0;
    const needle = nameFilter.value.trim().toLowerCase();
    const format = formatFilter.value;
    const state = statusFilter.value;
    const code = errorFilter.value;
    shown = rows.filter(
      (r) =>
        (!needle || r.name.toLowerCase().includes(needle)) &&
        (!format || r.format === format) &&
        (!state || (state === 'ok' ? !r.error && r.format !== undefined : state === 'failed' ? !!r.error : (r.warnings?.length ?? 0) > 0)) &&
        (!code || r.error?.code === code),
    );
    const { key, down } = sort;
    shown.sort((a, b) => {
      const x = value(a, key);
      const y = value(b, key);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
      return (down ? -c : c) || a.index - b.index;
    });
    $('files').dataset.shown = String(shown.length);
    $('shown').textContent = `${shown.length} of ${rows.length} shown`;
    for (const th of $('files').querySelectorAll<HTMLElement>('th[data-sort]'))
      th.dataset.order = th.dataset.sort === key ? (down ? 'descending' : 'ascending') : '';
    draw();
  };

  /** Puts the rows in sight (and a few more) in the table, with spacers standing for the rest. */
  const draw = () => {
    // The scroll position can lag behind a shorter list (the browser clamps it only after layout).
    const top = Math.min(scroller.scrollTop, Math.max(0, shown.length * ROW_HEIGHT - scroller.clientHeight));
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(shown.length, Math.ceil((top + scroller.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const spacer = (n: number) => {
      const tr = text('tr', undefined, 'spacer');
      tr.style.height = `${n * ROW_HEIGHT}px`;
      return tr;
    };
    const visible = shown.slice(first, last).map((r) => {
      const tr = text('tr');
      tr.dataset.index = String(r.index);
      if (r.index === openIndex) tr.classList.add('open');
      tr.append(
        text('td', r.name),
        text('td', r.format ?? (r.error ? '—' : '…')),
        text('td', r.version ?? ''),
        text('td', size(r.size)),
        text('td', r.warnings?.length ?? ''),
        text('td', r.ms === undefined ? '' : r.ms.toFixed(1)),
      );
      const st = text('td', r.error ? `${r.error.code}: ${r.error.message}` : status(r));
      if (r.error) st.className = 'failed';
      const pic = text('td', undefined, 'thumb');
      const canvas = text('canvas');
      canvas.dataset.thumb = String(r.index);
      thumbs?.paint(r.index, canvas);
      pic.append(canvas);
      tr.append(st, pic);
      tr.addEventListener('click', () => open(r.index));
      return tr;
    });
    body.replaceChildren(spacer(first), ...visible, spacer(shown.length - last));
    // Thumbnails for the rows in sight first, then the few drawn beyond them.
    const sightFirst = Math.floor(top / ROW_HEIGHT);
    const sightLast = Math.ceil((top + scroller.clientHeight) / ROW_HEIGHT);
    const order = shown
      .slice(first, last)
      .map((r, k) => ({ i: r.index, away: k + first < sightFirst ? sightFirst - k - first : Math.max(0, k + first - sightLast + 1) }));
    thumbs?.want(order.sort((a, b) => a.away - b.away).map((o) => o.i));
  };

  /** The summary above the table, as lines like `levelkit scan` prints. */
  const summarise = () => {
    const r = reportOf(rows);
    const box = $('report');
    box.dataset.report = JSON.stringify(reportJson(r));
    const line = (label: string, value: string) => {
      const p = text('p');
      p.append(text('strong', label), ` ${value}`);
      return p;
    };
    const list = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none';
    box.replaceChildren(
      line('files', `${r.files} (${size(r.bytes)})`),
      ...[...r.formats].map(([f, v]) => line(f, `${v.files}: versions ${list(v.versions)}`)),
      line('errors', list(r.errors)),
      line('warnings', list(r.warnings)),
      line(
        'duplicates',
        `${r.duplicates.contentDigest.groups} groups of identical files (${r.duplicates.contentDigest.files} files), ${r.duplicates.gridDigest.groups} of identical grids (${r.duplicates.gridDigest.files} files)`,
      ),
    );
    // The filters offer what there is.
    const refill = (sel: HTMLSelectElement, values: string[], any: string) => {
      const keep = sel.value;
      sel.replaceChildren(text('option', any), ...values.map((v) => text('option', v)));
      (sel.options[0] as HTMLOptionElement).value = '';
      sel.value = values.includes(keep) ? keep : '';
    };
    refill(formatFilter, [...r.formats.keys()].sort(), 'any format');
    refill(errorFilter, [...r.errors.keys()].sort(), 'any error');
  };

  for (const th of $('files').querySelectorAll<HTMLElement>('th[data-sort]'))
    th.addEventListener('click', () => {
      const key = th.dataset.sort as SortKey;
      sort = { key, down: sort.key === key ? !sort.down : false };
      select(true);
    });
  for (const input of [nameFilter, formatFilter, statusFilter, errorFilter]) input.addEventListener('input', () => select(true));
  scroller.addEventListener('scroll', draw, { passive: true });

  return {
    reset(next) {
      thumbs?.reset();
      rows = next;
      openIndex = -1;
      scroller.scrollTop = 0;
      nameFilter.value = '';
      statusFilter.value = '';
      summarise();
      select();
      this.updated(0);
    },
    updated(done) {
      const bar = $('progress') as HTMLProgressElement;
      bar.max = Math.max(1, rows.length);
      bar.value = done;
      $('progress-text').textContent = `${done} of ${rows.length} decoded`;
      // Re-sorting on every file would make rows jump about while they arrive; redraw, and
      // sort and summarise in full every 25 files and at the end.
      if (done === rows.length || done % 25 === 0) {
        summarise();
        select();
      } else draw();
    },
    markOpen(index) {
      openIndex = index;
      draw();
    },
  };
}
