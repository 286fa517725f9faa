// The page's part of real graphics: thumbnails of a map's embedded images in its images table, a
// Graal tileset the user gives (picked or dropped with the levels; kept by the worker for the
// session), and one line under the picture saying what drew it and what would draw more.

import { putPicture } from './dom.js';
import type { DecodedFile } from './protocol.js';

type Preview = NonNullable<DecodedFile['preview']>;

/** Image files taken as a Graal tileset when dropped or picked with levels. */
export const isTilesetImage = (name: string) => /\.(png|gif|bmp|jpe?g|webp)$/i.test(name);

/** Decodes an image file the browser can read to RGBA (undefined when it cannot). */
export async function imageToRgba(bytes: Uint8Array): Promise<{ width: number; height: number; pixels: Uint8Array } | undefined> {
  try {
    const bitmap = await createImageBitmap(new Blob([bytes as BlobPart]), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    return { width: bitmap.width, height: bitmap.height, pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch {
    return undefined;
  }
}

/** What the line under the picture says for this level (empty: nothing to say). */
export function graphicsNote(format: string | undefined, p: Preview | undefined): string {
  if (!format || !p) return '';
  if (format === 'wwd')
    return "Tiles are drawn as a colour per tile id: real tiles need the game's REZ archive (the plane's image set of PID images, e.g. LEVEL1/TILES/ACTION). Claw's graphics are not free to ship, so levelkit bundles none.";
  if (p.resources.graalTileset === 'wanted')
    return 'Tiles are drawn as a colour per tile id: give a Graal tileset (the classic 2048×512 pics1.png, 16×16 tiles) above, or drop it with the level, to draw real tiles.';
  if (p.resources.graalTileset === 'used') return 'Tiles drawn with the Graal tileset you gave (kept for this session).';
  if (p.resources.missing.length) return `External images not bundled with levelkit, drawn as a colour per tile id: ${p.resources.missing.join(', ')}.`;
  return '';
}

/**
 * Puts each embedded image's thumbnail in its row of the images table (`box` holds the page's
 * tables), again whenever the table turns a page.
 */
export function showThumbnails(box: HTMLElement, thumbnails: Preview['thumbnails']): void {
  const section = box.querySelector<HTMLElement>('section[data-table="images"]');
  if (!section || !thumbnails.length) return;
  const byIndex = new Map(thumbnails.map((t) => [t.index, t]));
  section.querySelector('thead tr')?.append(Object.assign(document.createElement('th'), { textContent: 'picture' }));
  const tbody = section.querySelector('tbody')!;
  const fill = () => {
    for (const tr of tbody.querySelectorAll<HTMLTableRowElement>('tr[data-row]')) {
      if (tr.querySelector('canvas')) continue;
      const td = document.createElement('td');
      const t = byIndex.get(Number(tr.dataset.row));
      if (t) {
        const canvas = document.createElement('canvas');
        canvas.className = 'thumb';
        putPicture(canvas, t);
        td.append(canvas);
      }
      tr.append(td);
    }
  };
  fill();
  new MutationObserver(fill).observe(tbody, { childList: true });
}
