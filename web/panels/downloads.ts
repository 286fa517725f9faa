// Downloads: the picture on show as PNG (the layers ticked, at its resolution), and a map's
// embedded images one by one. PNGs are encoded by the browser (canvas.toBlob).

import { ask } from '../ask.js';
import { $, putPicture } from '../dom.js';
import { state } from '../state.js';

function save(blob: Blob | null, name: string): void {
  if (!blob) return;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const baseName = () => (state.files[state.open]?.name ?? 'level').replace(/^.*\//, '').replace(/\.[^.]*$/, '');

/** The picture on show, as `<file>.png`. */
export function downloadPicture(): void {
  $<HTMLCanvasElement>('preview').toBlob((b) => save(b, `${baseName()}.png`), 'image/png');
}

/** Embedded image `index` of the open map, as `<image name>.png`. */
export async function downloadImage(index: number): Promise<void> {
  const r = await ask({ type: 'image', of: state.shownId, index });
  if (!r.ok || !('image' in r) || !r.image) return;
  const canvas = document.createElement('canvas');
  putPicture(canvas, r.image);
  const name = r.image.name;
  canvas.toBlob((b) => save(b, `${name}.png`), 'image/png');
}
