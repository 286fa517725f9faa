// The bar a file shows while it opens: its stage (read, decode, inflate, draw) and, where the worker
// knows it, how far that stage is. A small file opens before the bar would be noticed, so the bar
// appears at once only for big files, and for others only if opening takes longer than a moment.
// Every stage shown is listed in the element's data-stages (what the browser suite reads).

import type { Stage } from './protocol.js';

/** Files of at least this many bytes show the bar at once. */
const BIG_FILE = 256 * 1024;
/** Other files show it once opening has taken this long (ms). */
const SHOW_AFTER_MS = 200;

const LABELS: Record<Stage, string> = {
  read: 'reading the file',
  decode: 'decoding',
  inflate: 'inflating',
  draw: 'drawing',
};

export interface OpenProgress {
  /** A file of `bytes` bytes starts opening. */
  start(bytes: number): void;
  /** It has reached `stage`, `done` of `total` when known. */
  stage(stage: Stage, done?: number, total?: number): void;
  /** It is open (or failed): the bar goes. */
  finish(): void;
}

export function openProgress(box: HTMLElement): OpenProgress {
  const label = box.querySelector<HTMLElement>('.stage')!;
  const bar = box.querySelector<HTMLProgressElement>('progress')!;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    start(bytes) {
      stop();
      box.dataset.stages = '';
      box.hidden = bytes < BIG_FILE;
      if (box.hidden)
        timer = setTimeout(() => {
          box.hidden = false;
        }, SHOW_AFTER_MS);
    },
    stage(stage, done, total) {
      const known = done !== undefined && total !== undefined && total > 0;
      const stages = (box.dataset.stages ?? '').split(' ').filter(Boolean);
      if (stages.at(-1) !== stage) box.dataset.stages = [...stages, stage].join(' ');
      box.dataset.stage = stage;
      label.textContent = known ? `${LABELS[stage]} ${Math.floor((100 * done) / total)}%` : `${LABELS[stage]}…`;
      // Without a value the bar is indeterminate (it moves without saying how far).
      if (known) {
        bar.max = total;
        bar.value = done;
      } else bar.removeAttribute('value');
    },
    finish() {
      stop();
      box.hidden = true;
      delete box.dataset.stage;
    },
  };
}
