// A `levelkit render` worker (worker_threads; dist/render-worker.mjs when built): on the scan
// pool's worker loop (src/scan/worker-loop.ts: time limit per level, crash replacement), each item
// is a level's bytes read by the main thread, drawn and encoded here (render-level.ts); the main
// thread writes the PNG, so every output check stays in one place.
import { errorFields, type ScanItem } from '../scan/job.js';
import { serveBatches } from '../scan/worker-loop.js';
import { BundledAssets } from './assets.js';
import { pngEncoder } from './png.js';
import { type RenderAnswer, type RenderJob, renderLevel } from './render-level.js';

const encodePng = await pngEncoder();
/** What the assets said since the last level, sent with its answer (the main thread says each once). */
const notes: string[] = [];
/** Made with the first job, which carries the user's graphics (the same for every level of a run). */
let assets: BundledAssets | undefined;

serveBatches<RenderJob, RenderAnswer>((item: ScanItem, job: RenderJob) => {
  if (item.kind !== 'bytes') return { error: errorFields('INTERNAL', `levelkit bug: a render worker was sent a ${item.kind} item`) };
  assets ??= new BundledAssets((message) => notes.push(message), job.user);
  const answer = renderLevel(item.bytes, job, assets, encodePng);
  return notes.length ? { ...answer, notes: notes.splice(0) } : answer;
});
