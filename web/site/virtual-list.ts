// A list of any length with only the rows on screen in the DOM: a spacer as tall as every row
// gives the scroll bar its range, and on each scroll the rows in sight (and a few either side)
// are drawn absolutely at their place. 50,000 levels are ~40 elements.

export interface VirtualList {
  /** Shows `count` rows from the top. */
  setCount(count: number): void;
  /** Draws the rows in sight again (their content changed). */
  refresh(): void;
}

/** Rows drawn beyond the edges of the view, so a quick scroll shows no gap. */
const OVERSCAN = 8;

export function virtualList(scroller: HTMLElement, rowHeight: number, drawRow: (index: number) => HTMLElement): VirtualList {
  const spacer = document.createElement('div');
  spacer.className = 'spacer';
  spacer.style.position = 'relative';
  scroller.append(spacer);
  let count = 0;
  let first = -1;
  let last = -1;

  const draw = (force: boolean) => {
    const top = scroller.scrollTop;
    const height = scroller.clientHeight || window.innerHeight;
    const from = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
    const to = Math.min(count, Math.ceil((top + height) / rowHeight) + OVERSCAN);
    if (!force && from === first && to === last) return;
    first = from;
    last = to;
    const rows: HTMLElement[] = [];
    for (let i = from; i < to; i++) {
      const row = drawRow(i);
      row.style.position = 'absolute';
      row.style.top = `${i * rowHeight}px`;
      row.style.height = `${rowHeight}px`;
      row.style.left = '0';
      row.style.right = '0';
      rows.push(row);
    }
    spacer.replaceChildren(...rows);
  };

  scroller.addEventListener('scroll', () => draw(false), { passive: true });
  window.addEventListener('resize', () => draw(false));
  return {
    setCount(n) {
      count = n;
      spacer.style.height = `${n * rowHeight}px`;
      scroller.scrollTop = 0;
      draw(true);
    },
    refresh: () => draw(true),
  };
}
