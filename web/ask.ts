// The decode worker (web/worker.ts) as promises: one request, one reply; stage notes of a request
// go to its listener while it runs.

import type { ProgressNote, Reply, Request } from './protocol.js';

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
let nextId = 1;
const pending = new Map<number, (r: Reply) => void>();
/** Requests whose stages are shown as they arrive (a file being opened). */
const listeners = new Map<number, (p: ProgressNote['progress']) => void>();
worker.onmessage = (e: MessageEvent<Reply | ProgressNote>) => {
  if ('progress' in e.data) {
    listeners.get(e.data.id)?.(e.data.progress);
    return;
  }
  pending.get(e.data.id)?.(e.data);
  pending.delete(e.data.id);
  listeners.delete(e.data.id);
};

/** A request without its id (ask() numbers it). */
export type Ask = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export function ask(req: Ask, onProgress?: (p: ProgressNote['progress']) => void): Promise<Reply> {
  const id = nextId++;
  return new Promise((ok) => {
    pending.set(id, ok);
    if (onProgress) listeners.set(id, onProgress);
    // The worker gets its own copy of the bytes: the page keeps them to open the file again.
    worker.postMessage({ ...req, id } as Request);
  });
}
