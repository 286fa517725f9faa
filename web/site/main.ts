// The site's pages (`levelkit site`): one classic script for every page, which reads the data the
// scripts before it queued (data.ts) and builds the page body data-page names. Classic, with no
// worker and no fetch, so a site opened from file:// works as it does from a host.

import { el } from '../dom.js';
import { dataOf, dataProblems, startData } from './data.js';
import { familyPage } from './family-page.js';
import { indexPage } from './index-page.js';
import { levelPage } from './level-page.js';
import { worldPage } from './world-page.js';

/** One line on the page (and data-error on body) when the page cannot be shown. */
function fail(message: string): void {
  document.body.append(el('p', message, 'problem'));
  document.body.dataset.error = message;
  document.body.dataset.ready = '1';
}

async function start(): Promise<void> {
  startData();
  const page = document.body.dataset.page;
  const catalogue = dataOf('catalogue');
  const need = <T>(value: T | undefined, what: string): value is T => {
    if (value !== undefined) return true;
    fail(dataProblems[0] ?? `This page's ${what} data is missing: build the site again.`);
    return false;
  };
  if (page === 'index') {
    if (need(catalogue, 'catalogue')) indexPage(catalogue);
  } else if (page === 'level') {
    const level = dataOf('level');
    if (need(level, 'level')) await levelPage(level, catalogue);
  } else if (page === 'family') {
    const family = dataOf('family');
    if (need(family, 'family')) familyPage(family);
  } else if (page === 'world') {
    const world = dataOf('world');
    if (need(world, 'world')) worldPage(world);
  } else fail(`Unknown page kind ${JSON.stringify(page)}.`);
  for (const p of dataProblems) document.body.append(el('p', p, 'problem'));
}

start().catch((e) => fail(`The page failed: ${(e as Error)?.message ?? String(e)}`));
