// Where things are in the site's folder, from the page it is on: body data-root is '' on
// index.html and '../' one folder down (contract.ts). Keys are the builder's, encoded as one path
// segment each, so no key reaches outside its folder.

const root = () => document.body.dataset.root ?? '';
const seg = (key: string) => encodeURIComponent(key);

export const levelHref = (key: string) => `${root()}levels/${seg(key)}.html`;
export const familyHref = (key: string) => `${root()}families/${seg(key)}.html`;
export const worldHref = (key: string) => `${root()}worlds/${seg(key)}.html`;
export const indexHref = () => `${root()}index.html`;
/** A thumbnail: 's' for lists, 'l' the larger preview. */
export const thumbHref = (thumb: string, size: 's' | 'l') => `${root()}thumbs/${seg(thumb)}-${size}.png`;
/** A path the data gives relative to the site's folder (files/…, diffs/…, worlds/…): never absolute, never climbing out. */
export function siteHref(path: string): string | undefined {
  if (!path || /^[a-z][a-z0-9+.-]*:|^\/|\\/i.test(path) || path.split('/').includes('..')) return undefined;
  return `${root()}${path.split('/').map(seg).join('/')}`;
}
