// The one HTML shell every page of the site is (contract.ts): the pages' code owns the DOM, so
// the builder writes only a title and the scripts to load. Every text in it that came from a file
// (a level's name in the title, its key) is escaped: a level named `<script>` stays text.

/** The kinds of page (body's data-page). */
export type PageKind = 'index' | 'level' | 'family' | 'world';

/** Data files of each page kind's own data (levels/<key>.js …); the index page has none. */
const DATA_FOLDER: Record<Exclude<PageKind, 'index'>, string> = { level: 'levels', family: 'families', world: 'worlds' };

/** `s` safe as HTML text and as a double-quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page: index.html (kind 'index', key '') or <folder>/<key>.html. */
export function pageShell(kind: PageKind, key: string, title: string): string {
  const root = kind === 'index' ? '' : '../';
  const own = kind === 'index' ? '' : `<script src="${root}${DATA_FOLDER[kind]}/${escapeHtml(encodeURIComponent(key))}.js"></script>\n`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>\n` +
    `<link rel="stylesheet" href="${root}assets/site.css"></head>\n` +
    `<body data-page="${kind}" data-key="${escapeHtml(key)}" data-root="${root}">\n` +
    `<script src="${root}data/catalogue.js"></script>\n${own}` +
    `<script src="${root}assets/site.js"></script></body></html>\n`
  );
}
