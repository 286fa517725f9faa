// A family's page: the versions of one level as a chain, oldest first, each step with its
// thumbnail, date and version, and the change from the step before (its diff picture and counts).

import type { FamilyPageData } from '../../src/site/contract.js';
import { el } from '../dom.js';
import { indexHref, levelHref, siteHref, thumbHref } from './links.js';
import { link } from './sections.js';

/** An <img> that removes itself when its file is not there. */
export function picture(src: string, alt: string, cls?: string): HTMLImageElement {
  const img = el('img', undefined, cls);
  img.loading = 'lazy';
  img.alt = alt;
  img.addEventListener('error', () => img.remove());
  img.src = src;
  return img;
}

export function familyPage(data: FamilyPageData): void {
  const header = el('header');
  const nav = el('nav');
  nav.append(link('← all levels', indexHref()));
  const first = data.steps[0];
  const title = `${data.exact ? 'Re-saves' : 'Versions'} of ${first?.name ?? data.key}`;
  header.append(nav, el('h1', title), el('p', `${data.steps.length} steps, oldest first${data.exact ? ' · every one has the same grid' : ''}`));
  document.title = title;
  const chain = el('ol', undefined, 'chain');
  chain.id = 'chain';
  for (const [i, step] of data.steps.entries()) {
    const li = el('li', undefined, 'step');
    li.dataset.step = String(i);
    if (step.diff) {
      const change = el('div', undefined, 'change');
      change.append(el('p', step.diff.same ? 'no change to the grid' : step.diff.counts, 'counts'));
      const diff = step.diff.picture && siteHref(step.diff.picture);
      if (diff) change.append(picture(diff, `changes from step ${i} to step ${i + 1}`, 'diff'));
      li.append(change);
    }
    const card = el('div', undefined, 'card');
    const a = el('a');
    a.href = levelHref(step.key);
    if (step.thumb) a.append(picture(thumbHref(step.thumb, 's'), ''));
    a.append(el('span', step.name, 'name'));
    card.append(a, el('span', step.path, 'path'), el('span', [step.date, step.formatVersion].filter(Boolean).join(' · '), 'when'));
    li.append(card);
    chain.append(li);
  }
  document.body.append(header, chain);
  document.body.dataset.ready = '1';
}
