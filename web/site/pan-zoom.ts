// Zoom (wheel, buttons, fit) and pan (drag) over a picture in a viewport, as the inspector's
// view.ts does for its canvas, for any content (a canvas, or a picture with links over it): the
// content is moved with one CSS transform and `onView` hears each change (the level page's
// full-resolution chunks follow it). A click that is not a drag is left to the content's links.

import { el } from '../dom.js';
import { wheelZoom } from '../wheel-zoom.js';

export interface ViewState {
  zoom: number;
  x: number;
  y: number;
}

export interface PanZoom {
  /** The content's size in its own pixels changed (a new picture): fits it to the viewport. */
  setSize(width: number, height: number): void;
  fitView(): void;
  readonly view: ViewState;
}

const MAX_ZOOM = 64;
const MIN_ZOOM = 0.02;

/** Wires `viewport` (which holds `content`) and adds the zoom buttons to `controls`. */
export function panZoom(viewport: HTMLElement, content: HTMLElement, controls: HTMLElement, onView?: (v: ViewState) => void): PanZoom {
  let size = { width: 1, height: 1 };
  const view: ViewState = { zoom: 1, x: 0, y: 0 };
  content.style.transformOrigin = '0 0';
  const label = el('span', '100%', 'zoom-label');

  const apply = () => {
    content.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.zoom})`;
    label.textContent = `${Math.round(view.zoom * 100)}%`;
    onView?.(view);
  };
  const fitToView = () => {
    const r = viewport.getBoundingClientRect();
    const zoom = Math.min(r.width / size.width, r.height / size.height, 8) || 1;
    Object.assign(view, { zoom, x: (r.width - size.width * zoom) / 2, y: (r.height - size.height * zoom) / 2 });
    apply();
  };
  const zoomAt = (factor: number, cx: number, cy: number) => {
    const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom * factor));
    Object.assign(view, { zoom, x: cx - ((cx - view.x) * zoom) / view.zoom, y: cy - ((cy - view.y) * zoom) / view.zoom });
    apply();
  };
  const centre = () => {
    const r = viewport.getBoundingClientRect();
    return [r.width / 2, r.height / 2] as const;
  };

  wheelZoom(viewport, zoomAt);
  let drag: { x: number; y: number; moved: boolean; sx: number; sy: number } | undefined;
  viewport.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX - view.x, y: e.clientY - view.y, moved: false, sx: e.clientX, sy: e.clientY };
  });
  viewport.addEventListener('pointermove', (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.sx, e.clientY - drag.sy) < 4) return;
    if (!drag.moved) {
      drag.moved = true;
      viewport.setPointerCapture(e.pointerId);
      viewport.classList.add('dragging');
    }
    view.x = e.clientX - drag.x;
    view.y = e.clientY - drag.y;
    apply();
  });
  const end = () => {
    drag = undefined;
    viewport.classList.remove('dragging');
  };
  viewport.addEventListener('pointerup', end);
  viewport.addEventListener('pointercancel', end);
  // A drag ending over a link is not a click on it.
  viewport.addEventListener(
    'click',
    (e) => {
      if (viewport.dataset.dragged === '1') e.preventDefault();
    },
    true,
  );
  viewport.addEventListener('pointerdown', () => {
    viewport.dataset.dragged = '0';
  });
  viewport.addEventListener('pointermove', () => {
    if (drag?.moved) viewport.dataset.dragged = '1';
  });

  const button = (text: string, title: string, fn: () => void) => {
    const b = el('button', text);
    b.type = 'button';
    b.title = title;
    b.addEventListener('click', fn);
    return b;
  };
  controls.append(
    button('−', 'zoom out', () => zoomAt(1 / 1.5, ...centre())),
    label,
    button('+', 'zoom in', () => zoomAt(1.5, ...centre())),
    button('fit', 'fit the picture to the view', fitToView),
  );
  return {
    setSize(width, height) {
      size = { width: Math.max(1, width), height: Math.max(1, height) };
      fitToView();
    },
    fitView: fitToView,
    view,
  };
}
