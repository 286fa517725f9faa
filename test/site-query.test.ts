// The index page's filters and sorting (web/site/query.ts), outside a browser: every filter and
// order agrees with a plain scan of the catalogue, on a synthetic archive mixed like a real one,
// and a view survives the trip through the URL's hash.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../src/site/contract.js';
import { CatalogueQuery, DEFAULT_VIEW, SORT_KEYS, type View, viewFromHash, viewToHash } from '../web/site/query.js';
import { syntheticCatalogue } from './helpers/site-folder.js';

const catalogue = syntheticCatalogue(3000, 7);
const query = new CatalogueQuery(catalogue);
const L = catalogue.levels;
const s = (i: number) => (i >= 0 ? catalogue.strings[i]! : '');

/** The rows `view` keeps, by brute force (in path order). */
function brute(c: Catalogue, view: View): number[] {
  const words = view.text.toLowerCase().split(/\s+/).filter(Boolean);
  return c.levels.key
    .map((_, r) => r)
    .filter(
      (r) =>
        (!view.format || s(L.format[r]!) === view.format) &&
        (!view.author || s(L.author[r]!) === view.author) &&
        view.uses.every((u) => L.uses[r]!.map(s).includes(u)) &&
        (!view.findings || L.findings[r]! > 0) &&
        words.every((w) => L.text[r]!.includes(w)),
    );
}

describe('catalogue filters and sorting', () => {
  const author = query.valuesOf('author')[0]!.value;
  const logic = query.tokensOf('logic')[0]!.value;
  const views: View[] = [
    DEFAULT_VIEW,
    { ...DEFAULT_VIEW, format: 'teeworlds' },
    { ...DEFAULT_VIEW, author },
    { ...DEFAULT_VIEW, uses: [logic], findings: true },
    { ...DEFAULT_VIEW, text: 'Castle  tower' },
    { ...DEFAULT_VIEW, format: 'graal', text: 'gold', sort: 'bytes', desc: true },
    { ...DEFAULT_VIEW, format: 'no such format' },
  ];

  it.each(views.map((v) => [viewToHash(v) || '(default)', v] as const))('%s keeps exactly the matching rows', (_, view) => {
    const got = [...query.run(view)];
    expect(got.slice().sort((a, b) => a - b)).toEqual(brute(catalogue, view));
  });

  it('a filter that names nothing keeps nothing, and one that names something keeps some', () => {
    expect(query.run({ ...DEFAULT_VIEW, format: 'no such format' }).length).toBe(0);
    expect(query.run({ ...DEFAULT_VIEW, author }).length).toBeGreaterThan(0);
    expect(query.run({ ...DEFAULT_VIEW, text: 'castle' }).length).toBeGreaterThan(0);
  });

  it.each(SORT_KEYS.map((k) => [k]))('sorting by %s orders every row, and descending reverses it', (sort) => {
    const up = [...query.run({ ...DEFAULT_VIEW, sort })];
    const down = [...query.run({ ...DEFAULT_VIEW, sort, desc: true })];
    expect(up).toHaveLength(L.key.length);
    expect(down).toEqual(up.slice().reverse());
    const value = (r: number): number | string => {
      if (sort === 'name' || sort === 'path') return L[sort][r]!.toLowerCase();
      if (sort === 'format' || sort === 'version' || sort === 'author') return L[sort][r]! < 0 ? '\uffff' : s(L[sort][r]!).toLowerCase();
      if (sort === 'size') return L.width[r]! * L.height[r]!;
      if (sort === 'family') return L.family[r]! < 0 ? 1e9 : L.family[r]!;
      return L[sort][r]!;
    };
    for (let i = 1; i < up.length; i++) expect(value(up[i - 1]!) <= value(up[i]!), `${sort} at ${i}`).toBe(true);
  });

  it('a view goes into the hash and comes back the same; a hash naming nonsense gives the default', () => {
    const view: View = {
      format: 'graal',
      author: 'a b&c',
      uses: ['logic:Rat', 'image:pics1'],
      findings: true,
      text: 'old castle',
      sort: 'findings',
      desc: true,
    };
    expect(viewFromHash(viewToHash(view))).toEqual(view);
    expect(viewToHash(DEFAULT_VIEW)).toBe('');
    expect(viewFromHash('#sort=nonsense&desc=2')).toEqual(DEFAULT_VIEW);
  });
});
