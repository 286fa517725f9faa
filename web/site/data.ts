// The site's data as the page receives it: scripts before site.js (and any the page adds later,
// such as a level's bytes) push [kind, value] onto window.levelkitSite.queue (contract.ts,
// dataScript). The page reads what is queued when it starts, and from then on takes each push as
// it comes, so a script added to the page later is waited for with `awaitData`.

import { type Catalogue, type FamilyPageData, type LevelPageData, SITE_DATA_VERSION, SITE_GLOBAL, type WorldPageData } from '../../src/site/contract.js';

/** A level's bytes, as files/<sha256>.js carries them. */
export interface BytesData {
  sha256: string;
  base64: string;
}

export interface SiteData {
  catalogue: Catalogue;
  level: LevelPageData;
  family: FamilyPageData;
  world: WorldPageData;
  bytes: BytesData;
}
export type DataKind = keyof SiteData;

const KINDS: readonly DataKind[] = ['catalogue', 'level', 'family', 'world', 'bytes'];

interface SiteGlobal {
  queue: unknown[];
}

const received = new Map<DataKind, unknown>();
const waiting = new Map<DataKind, ((v: unknown) => void)[]>();
/** Data the page could not use (another version, an unknown kind), one line each. */
export const dataProblems: string[] = [];

function take(item: unknown): void {
  if (!Array.isArray(item) || item.length !== 2 || !KINDS.includes(item[0])) {
    dataProblems.push(`a data script pushed something that is not [kind, value] with a known kind`);
    return;
  }
  const [kind, value] = item as [DataKind, unknown];
  const version = (value as { version?: unknown } | null)?.version;
  if (kind !== 'bytes' && version !== SITE_DATA_VERSION) {
    dataProblems.push(`the ${kind} data is of version ${String(version)}; this page reads version ${SITE_DATA_VERSION} (build the site again)`);
    return;
  }
  received.set(kind, value);
  for (const resolve of waiting.get(kind) ?? []) resolve(value);
  waiting.delete(kind);
}

/** Takes what the data scripts queued before the page started, and every later push. */
export function startData(): void {
  const w = window as unknown as Record<string, SiteGlobal | undefined>;
  const site = w[SITE_GLOBAL] ?? { queue: [] };
  w[SITE_GLOBAL] = site;
  const queue = Array.isArray(site.queue) ? site.queue : [];
  for (const item of queue.splice(0)) take(item);
  // Later scripts call queue.push(item): handled at once.
  queue.push = (...items: unknown[]) => {
    for (const item of items) take(item);
    return 0;
  };
  site.queue = queue;
}

export function dataOf<K extends DataKind>(kind: K): SiteData[K] | undefined {
  return received.get(kind) as SiteData[K] | undefined;
}

/**
 * Adds `<script src>` (a path below the site's folder) and resolves with the value of kind `kind`
 * it pushes, or undefined when the script is missing or pushes nothing of that kind.
 */
export function loadData<K extends DataKind>(kind: K, src: string): Promise<SiteData[K] | undefined> {
  return new Promise((resolve) => {
    received.delete(kind);
    const list = waiting.get(kind) ?? [];
    list.push(resolve as (v: unknown) => void);
    waiting.set(kind, list);
    const script = document.createElement('script');
    script.src = src;
    // A script runs before its load event: had it pushed, `resolve` has already run.
    const done = () => resolve(received.get(kind) as SiteData[K] | undefined);
    script.addEventListener('load', done);
    script.addEventListener('error', done);
    document.body.append(script);
  });
}
