// The level page's picture: the level's bytes (files/<sha256>.js, base64) decoded in the page with
// the library and drawn with src/render, as the inspector's worker does but on this thread (a
// page opened from file:// may start no worker); zoom and pan (pan-zoom.ts) with the inspector's
// full-resolution chunks when zoomed in (web/viewport.ts, asked here instead of a worker); a box
// per layer and one for the markers draw it again with those shown. Without the bytes (the file
// was gone when the site was built) the prebuilt preview thumbs/<thumb>-l.png is shown instead.

import type { AnyDecoded, RenderOptions } from '../../src/index.js';
import { decode, init, layersOf, mainGrid, render } from '../../src/index.js';
import type { LevelPageData } from '../../src/site/contract.js';
import { el, putPicture } from '../dom.js';
import type { Reply } from '../protocol.js';
import { regionLayer } from '../viewport.js';
import { loadData } from './data.js';
import { siteHref, thumbHref } from './links.js';
import { panZoom } from './pan-zoom.js';

/** The bytes of a base64 string (atob's binary string, byte by byte). */
function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Puts the picture of `data` in `host`. host.dataset.picture says what is shown once done:
 * 'drawn' (decoded here), 'thumb' (the prebuilt preview), or 'none'.
 */
export async function levelPicture(host: HTMLElement, data: LevelPageData): Promise<void> {
  const viewport = el('div', undefined, 'viewport');
  viewport.id = 'viewport';
  const controls = el('div', undefined, 'view-controls');
  const note = el('p', undefined, 'picture-note');
  note.id = 'picture-note';
  const layersBox = el('fieldset', undefined, 'layers');
  layersBox.id = 'layers';
  layersBox.hidden = true;
  host.append(controls, viewport, note, layersBox);

  const value = await decodedLevel(data, note);
  if (value) {
    drawDecoded(value, viewport, controls, layersBox, note);
    host.dataset.picture = 'drawn';
    return;
  }
  if (data.thumb && (await showThumb(data.thumb, viewport, controls))) {
    if (note.textContent) note.append(' Showing the prebuilt picture.');
    host.dataset.picture = 'thumb';
    return;
  }
  viewport.hidden = true;
  controls.hidden = true;
  note.append(`${note.textContent ? ' ' : ''}No picture of this level.`);
  host.dataset.picture = 'none';
}

/** The level decoded from its bytes, or undefined (no bytes in the site, or they do not decode: said in `note`). */
async function decodedLevel(data: LevelPageData, note: HTMLElement): Promise<AnyDecoded | undefined> {
  const src = data.bytes && siteHref(data.bytes);
  if (!src) return undefined;
  const file = await loadData('bytes', src);
  if (!file) {
    note.textContent = 'The level file is not in this copy of the site.';
    return undefined;
  }
  try {
    // Instantiates the WASM kernels without blocking (falls back to the TypeScript ones).
    await init().catch(() => undefined);
    return decode(fromBase64(file.base64));
  } catch (e) {
    note.textContent = `The level file did not decode here (${(e as Error)?.message ?? String(e)}).`;
    return undefined;
  }
}

function drawDecoded(value: AnyDecoded, viewport: HTMLElement, controls: HTMLElement, layersBox: HTMLFieldSetElement, note: HTMLElement): void {
  const canvas = el('canvas');
  canvas.id = 'picture';
  viewport.append(canvas);
  // A map whose layers carry their own tilesets looks like the game with every layer drawn.
  const withTiles = layersOf(value, mainGrid(value), {}).some((l) => l.tileset);
  const options: RenderOptions & { layer: NonNullable<RenderOptions['layer']>; markers: boolean } = { layer: withTiles ? 'all' : 'main', markers: true };
  let picture = render(value, options);
  let generation = 0;

  // Full-resolution chunks of the tiles in sight when zoomed in, drawn here on request.
  const regions = regionLayer(viewport, async (req): Promise<Reply> => {
    const p = render(value, { ...options, scale: req.scale, region: { x: req.x, y: req.y, width: req.width, height: req.height } });
    const bitmap = p.width && p.height ? await createImageBitmap(new ImageData(p.rgba as Uint8ClampedArray<ArrayBuffer>, p.width, p.height)) : null;
    return { id: 0, ok: true, drawn: bitmap && { bitmap, ...p.region, scale: p.scale } };
  });
  const view = panZoom(viewport, canvas, controls, (v) => regions.update(v));
  const show = (fit: boolean) => {
    generation++;
    if (picture.empty) {
      note.textContent = `Nothing to draw: ${picture.empty}.`;
      canvas.width = 0;
      canvas.height = 0;
    } else {
      note.textContent = '';
      putPicture(canvas, picture);
    }
    regions.reset(picture.empty ? undefined : { of: generation, tilesWide: picture.tilesWide, tilesHigh: picture.tilesHigh, scale: picture.scale });
    if (fit) view.setSize(picture.width, picture.height);
    else regions.update(view.view);
    canvas.dataset.drawn = picture.drawn.join(',');
  };
  show(true);

  // A box per layer (ticked: drawn) and one for the markers.
  const boxes: HTMLInputElement[] = [];
  const redraw = () => {
    const layers = boxes.filter((b) => b.checked).map((b) => Number(b.dataset.layerToggle));
    options.layer = layers;
    options.markers = markers.checked;
    picture = render(value, options);
    show(false);
  };
  layersBox.append(el('legend', 'Layers'));
  const drawn = new Set(picture.drawn);
  for (const [i, l] of picture.layers.entries()) {
    const label = el('label');
    const box = el('input');
    box.type = 'checkbox';
    box.checked = drawn.has(i);
    box.dataset.layerToggle = String(i);
    box.addEventListener('change', redraw);
    boxes.push(box);
    label.append(
      box,
      ` ${l.name || `layer ${i}`}`,
      el('span', ` ${l.width} × ${l.height}${l.physics ? ' · physics' : ''}${l.overlay ? ' · overlay' : ''}`, 'facts'),
    );
    layersBox.append(label);
  }
  const markers = el('input');
  markers.type = 'checkbox';
  markers.checked = true;
  markers.id = 'markers-toggle';
  markers.addEventListener('change', redraw);
  const mlabel = el('label');
  mlabel.append(markers, ' markers (objects, links, signs)');
  layersBox.append(mlabel);
  layersBox.hidden = picture.layers.length === 0;
}

/** The prebuilt preview in the viewport, with zoom and pan; false when it is not there. */
function showThumb(thumb: string, viewport: HTMLElement, controls: HTMLElement): Promise<boolean> {
  const img = el('img');
  img.id = 'picture';
  img.alt = 'preview';
  img.draggable = false;
  viewport.append(img);
  const view = panZoom(viewport, img, controls);
  return new Promise((resolve) => {
    img.addEventListener('load', () => {
      view.setSize(img.naturalWidth, img.naturalHeight);
      resolve(true);
    });
    img.addEventListener('error', () => {
      img.remove();
      controls.replaceChildren();
      resolve(false);
    });
    img.src = thumbHref(thumb, 'l');
  });
}
