// The wheel zooms a picture about the pointer, in steps of a quarter: the inspector's viewport
// (view.ts) and the site's pictures (site/pan-zoom.ts) both wire it here.

/** Calls `zoomAt(factor, x, y)` on each wheel turn over `viewport`, x and y the pointer in the viewport's pixels. */
export function wheelZoom(viewport: HTMLElement, zoomAt: (factor: number, x: number, y: number) => void): void {
  viewport.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const r = viewport.getBoundingClientRect();
      zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - r.left, e.clientY - r.top);
    },
    { passive: false },
  );
}
