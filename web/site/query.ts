// Filtering and sorting the catalogue in the page, at 50,000 levels within a frame or a few: each
// sort order is computed once over every row (numbers compared as numbers, interned strings by
// their rank, names lower-cased once) and kept, and a filter is one pass over that order keeping
// the rows that match. Nothing here touches the DOM, so it runs (and is tested) anywhere.

import type { Catalogue } from '../../src/site/contract.js';

/** The columns the list sorts by. */
export const SORT_KEYS = ['name', 'path', 'format', 'version', 'author', 'bytes', 'size', 'layers', 'objects', 'warnings', 'findings', 'family'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** What the list shows: the filters (empty = any) and the order. */
export interface View {
  format: string;
  author: string;
  /** `uses` tokens every row shown must have (`tile:…`, `logic:…`, `image:…`). */
  uses: string[];
  findings: boolean;
  /** Words every row's text must contain (case-insensitive). */
  text: string;
  sort: SortKey;
  desc: boolean;
}

export const DEFAULT_VIEW: View = { format: '', author: '', uses: [], findings: false, text: '', sort: 'name', desc: false };

export class CatalogueQuery {
  private readonly orders = new Map<SortKey, Uint32Array>();
  private readonly stringIndex = new Map<string, number>();
  readonly count: number;

  constructor(private readonly catalogue: Catalogue) {
    this.count = catalogue.levels.key.length;
    catalogue.strings.forEach((s, i) => {
      if (!this.stringIndex.has(s)) this.stringIndex.set(s, i);
    });
  }

  /** The distinct values of an interned column, sorted, with how many rows have each. */
  valuesOf(column: 'format' | 'author'): { value: string; rows: number }[] {
    const counts = new Map<number, number>();
    for (const v of this.catalogue.levels[column]) if (v >= 0) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts]
      .map(([i, rows]) => ({ value: this.catalogue.strings[i] ?? '', rows }))
      .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }

  /** Every `uses` token with its kind prefix `kind:` (tile, logic, image), and how many rows use it, most used first. */
  tokensOf(kind: string): { value: string; rows: number }[] {
    const counts = new Map<number, number>();
    for (const row of this.catalogue.levels.uses) for (const t of row) counts.set(t, (counts.get(t) ?? 0) + 1);
    return [...counts]
      .map(([i, rows]) => ({ value: this.catalogue.strings[i] ?? '', rows }))
      .filter((t) => t.value.startsWith(`${kind}:`))
      .sort((a, b) => b.rows - a.rows || (a.value < b.value ? -1 : 1));
  }

  /**
   * The rows of `view`, in its order. Rows are tested in row order (the columns are read front to
   * back, not hopping through memory in the sort's order), then the order keeps those that passed.
   */
  run(view: View): Uint32Array {
    const order = this.order(view.sort);
    const test = this.filter(view);
    const out = new Uint32Array(this.count);
    let n = 0;
    if (!test) {
      out.set(order);
      n = order.length;
    } else {
      const keep = new Uint8Array(this.count);
      for (let r = 0; r < keep.length; r++) if (test(r)) keep[r] = 1;
      for (const row of order) if (keep[row]) out[n++] = row;
    }
    const rows = out.subarray(0, n);
    return view.desc ? rows.reverse() : rows;
  }

  /** A test for one row, or undefined when every filter of `view` is empty (all rows match). */
  private filter(view: View): ((row: number) => boolean) | undefined {
    const L = this.catalogue.levels;
    const tests: ((row: number) => boolean)[] = [];
    const interned = (s: string) => this.stringIndex.get(s) ?? -2; // -2: matches no row (author -1 is "none")
    if (view.format) {
      const f = interned(view.format);
      tests.push((r) => L.format[r] === f);
    }
    if (view.author) {
      const a = interned(view.author);
      tests.push((r) => L.author[r] === a);
    }
    for (const token of view.uses) {
      const t = interned(token);
      tests.push((r) => L.uses[r]?.includes(t) ?? false);
    }
    if (view.findings) tests.push((r) => (L.findings[r] ?? 0) > 0);
    const words = view.text.toLowerCase().split(/\s+/).filter(Boolean);
    for (const w of words) tests.push((r) => L.text[r]?.includes(w) ?? false);
    if (tests.length === 0) return undefined;
    if (tests.length === 1) return tests[0]!;
    return (r) => tests.every((t) => t(r));
  }

  /** Every row in ascending order of `key` (ties by path order), computed once per key. */
  order(key: SortKey): Uint32Array {
    let order = this.orders.get(key);
    if (order) return order;
    order = new Uint32Array(this.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    const cmp = this.comparator(key);
    order.sort((a, b) => cmp(a, b) || a - b);
    this.orders.set(key, order);
    return order;
  }

  private comparator(key: SortKey): (a: number, b: number) => number {
    const L = this.catalogue.levels;
    const byNumber = (col: ArrayLike<number>) => (a: number, b: number) => (col[a] ?? 0) - (col[b] ?? 0);
    switch (key) {
      case 'name':
      case 'path': {
        const lower = L[key].map((s) => s.toLowerCase());
        return (a, b) => (lower[a]! < lower[b]! ? -1 : lower[a]! > lower[b]! ? 1 : 0);
      }
      case 'format':
      case 'version':
      case 'author': {
        // Interned strings by their rank among the strings; no author sorts last.
        const rank = this.stringRanks();
        const col = L[key];
        return (a, b) => (col[a]! < 0 ? 1e9 : rank[col[a]!]!) - (col[b]! < 0 ? 1e9 : rank[col[b]!]!);
      }
      case 'size':
        return (a, b) => L.width[a]! * L.height[a]! - L.width[b]! * L.height[b]!;
      case 'family':
        // Levels in a family first, grouped by family; the rest after.
        return (a, b) => (L.family[a]! < 0 ? 1e9 : L.family[a]!) - (L.family[b]! < 0 ? 1e9 : L.family[b]!);
      default:
        return byNumber(L[key]);
    }
  }

  private ranks: Uint32Array | undefined;
  private stringRanks(): Uint32Array {
    if (this.ranks) return this.ranks;
    const s = this.catalogue.strings;
    const idx = s.map((_, i) => i).sort((a, b) => (s[a]!.toLowerCase() < s[b]!.toLowerCase() ? -1 : s[a]!.toLowerCase() > s[b]!.toLowerCase() ? 1 : a - b));
    this.ranks = new Uint32Array(s.length);
    idx.forEach((i, r) => {
      this.ranks![i] = r;
    });
    return this.ranks;
  }
}

/** A view as the URL's hash (only what differs from the default), so a view can be linked. */
export function viewToHash(view: View): string {
  const p = new URLSearchParams();
  if (view.format) p.set('format', view.format);
  if (view.author) p.set('author', view.author);
  for (const u of view.uses) p.append('uses', u);
  if (view.findings) p.set('findings', '1');
  if (view.text) p.set('q', view.text);
  if (view.sort !== DEFAULT_VIEW.sort) p.set('sort', view.sort);
  if (view.desc) p.set('desc', '1');
  const s = p.toString();
  return s ? `#${s}` : '';
}

/** The view a hash names; what it does not name (or names wrongly) is the default. */
export function viewFromHash(hash: string): View {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const sort = p.get('sort') as SortKey | null;
  return {
    format: p.get('format') ?? '',
    author: p.get('author') ?? '',
    uses: p.getAll('uses').filter(Boolean),
    findings: p.get('findings') === '1',
    text: p.get('q') ?? '',
    sort: sort && (SORT_KEYS as readonly string[]).includes(sort) ? sort : DEFAULT_VIEW.sort,
    desc: p.get('desc') === '1',
  };
}
