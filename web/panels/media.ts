// Media and texts of the open file: images shown and sounds playable (GWC media, a GWZ's files),
// texts shown whole (a GWZ's Lua source, a DDNet map's server settings).

import { $, el } from '../dom.js';
import { size } from '../file-table.js';
import type { Preview } from '../state.js';

let mediaUrls: string[] = [];

export function showMedia(media: Preview['media']): void {
  for (const u of mediaUrls) URL.revokeObjectURL(u);
  mediaUrls = [];
  const box = $('media');
  box.replaceChildren();
  box.hidden = media.length === 0;
  if (!media.length) return;
  box.append(el('h3', `media (${media.length})`));
  const grid = el('div', undefined, 'media-grid');
  for (const m of media) {
    const url = URL.createObjectURL(new Blob([m.bytes as BlobPart], { type: m.mime }));
    mediaUrls.push(url);
    const fig = el('figure');
    if (m.mime.startsWith('image/')) {
      const img = el('img');
      img.src = url;
      img.alt = `media ${m.id}`;
      fig.append(img);
    } else {
      const audio = el('audio');
      audio.controls = true;
      audio.src = url;
      fig.append(audio);
    }
    fig.append(el('figcaption', `${m.name ?? `#${m.id}`} ${m.mime}, ${size(m.bytes.length)}`));
    grid.append(fig);
  }
  box.append(grid);
}

export function showTexts(texts: Preview['texts']): void {
  const box = $('texts');
  box.hidden = texts.length === 0;
  box.replaceChildren(
    ...texts.map((t) => {
      const lines = t.text ? t.text.split('\n').length : 0;
      const details = el('details');
      details.open = true;
      details.append(el('summary', `${t.name} (${lines} line${lines === 1 ? '' : 's'})`), el('pre', t.text, 'source'));
      return details;
    }),
  );
}
