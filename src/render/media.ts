// The media a page can show or play: GWC cartridges' media objects and a GWZ's media files, with
// the MIME type each is served as.

import { type Any, isGwc, isGwz } from './preview-types.js';

/** MIME types of GWC media type numbers a browser can show or play. */
export const GWC_MIME: Record<number, string> = {
  1: 'image/bmp',
  2: 'image/png',
  3: 'image/jpeg',
  4: 'image/gif',
  17: 'audio/wav',
  18: 'audio/mpeg',
  21: 'audio/ogg',
};

/** MIME types of the media file names a GWZ holds (by extension, lower case); a Map, as the keys come from the file. */
const EXTENSION_MIME = new Map<string, string>([
  ['bmp', 'image/bmp'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['wav', 'audio/wav'],
  ['mp3', 'audio/mpeg'],
  ['ogg', 'audio/ogg'],
]);
export const mimeOfName = (name: string) => EXTENSION_MIME.get(/\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '');

/** Media a page can show (images) or play (sounds): GWC cartridges' media objects, a GWZ's media files. */
export interface PreviewMedia {
  /** The media object's id (GWC), or the member's index (GWZ). */
  id: number;
  /** The file name, when the format has one (GWZ). */
  name?: string;
  mime: string;
  bytes: Uint8Array;
}

/** `value`'s images and sounds, for thumbnails and players (empty for formats without media). */
export function mediaOf(value: Any): PreviewMedia[] {
  if (isGwz(value)) {
    return value.media.flatMap((m, id) => {
      const mime = mimeOfName(m.name);
      return mime && m.data.length ? [{ id, name: m.name, mime, bytes: m.data }] : [];
    });
  }
  if (!isGwc(value)) return [];
  return value.media.flatMap((m) => {
    const mime = m.type === null ? undefined : GWC_MIME[m.type];
    return mime && m.data.length ? [{ id: m.id, mime, bytes: m.data }] : [];
  });
}
