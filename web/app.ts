// The levelkit page: files in (input, drop, zip, bundled examples), a table when there are
// several, and per file its format, summary, warnings, a zoomable preview with markers, and
// paged tables. Decoding and drawing run in web/worker.ts. This module wires the controls; each
// part of the page lives in its own module (state.ts, view.ts, files.ts, detail.ts, panels/).

import { ask } from './ask.js';
import { openFile, opening } from './detail.js';
import { $, el } from './dom.js';
import { listFiles, load } from './files.js';
import { type DropEntry, filesOfEntries } from './folder-drop.js';
import { imageToRgba, isTilesetImage } from './graphics.js';
import { showBench } from './panels/bench.js';
import { downloadPicture } from './panels/downloads.js';
import { hoverAt } from './panels/hover.js';
import { select } from './panels/inspector.js';
import { state } from './state.js';
import { setUpViewport } from './view.js';

/** Gives the worker a Graal tileset for the session (from the picker, or an image dropped with levels) and says so. */
async function useTileset(name: string, bytes: Uint8Array): Promise<void> {
  const image = await imageToRgba(bytes);
  $('tileset-state').textContent = image ? `tileset: ${name} (${image.width}×${image.height})` : `${name}: not an image this browser can read`;
  if (!image) return;
  await ask({ type: 'tileset', image });
}

async function fromFileList(list: FileList | null | undefined): Promise<void> {
  if (list?.length) await fromFiles([...list].map((file) => ({ name: file.name, file })));
}

/** Files in, named as given (a dropped folder's by their path below it). */
async function fromFiles(list: { name: string; file: File }[]): Promise<void> {
  if (!list.length) return;
  // Reading is the first stage: a bar for big files, the share of bytes read so far.
  const progress = opening();
  const total = list.reduce((n, f) => n + f.file.size, 0);
  let read = 0;
  progress.start(total);
  progress.stage('read', 0, total);
  const all = await Promise.all(
    list.map(async ({ name, file }) => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      read += file.size;
      progress.stage('read', read, total);
      return { name, bytes };
    }),
  );
  progress.finish();
  // An image given with levels is a Graal tileset for the session, not a level.
  for (const f of all.filter((x) => isTilesetImage(x.name))) await useTileset(f.name, f.bytes);
  const levels = all.filter((x) => !isTilesetImage(x.name));
  if (levels.length) await load(levels);
  else if (state.open >= 0) await openFile(state.open);
}

async function setUp(): Promise<void> {
  const wasm = typeof WebAssembly === 'object';
  const stream = typeof (globalThis as { DecompressionStream?: unknown }).DecompressionStream === 'function';
  $('env').textContent =
    `${wasm ? 'WebAssembly kernels available' : 'no WebAssembly: TypeScript kernels'} · ${wasm ? 'WebAssembly inflate' : stream ? 'native inflate (DecompressionStream)' : 'no DecompressionStream: pako'}`;
  if (!wasm) $<HTMLSelectElement>('inflater').value = stream ? 'stream' : 'pako';
  $<HTMLInputElement>('file').addEventListener('change', (e) => fromFileList((e.target as HTMLInputElement).files));
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    // Entries are taken now (the drop's data is gone once the event returns); a folder is walked.
    const entries = [...(e.dataTransfer?.items ?? [])].map((i) => i.webkitGetAsEntry?.() as DropEntry | null).filter((x): x is DropEntry => !!x);
    if (entries.some((x) => x.isDirectory)) filesOfEntries(entries).then(fromFiles);
    else fromFileList(e.dataTransfer?.files);
  });
  $<HTMLSelectElement>('layer').addEventListener('change', (e) => {
    const v = (e.target as HTMLSelectElement).value;
    if (state.open >= 0) openFile(state.open, v === 'main' || v === 'all' ? v : Number(v));
  });
  for (const id of ['backend', 'inflater'])
    $(id).addEventListener('change', () => {
      for (const f of state.files) delete f.result;
      if (state.files.length > 1) listFiles();
      if (state.open >= 0) openFile(state.open);
    });
  $('compare').addEventListener('change', () => {
    if (state.open >= 0 && $<HTMLInputElement>('compare').checked) showBench(state.files[state.open]!.bytes);
    else $('bench').hidden = true;
  });
  $<HTMLInputElement>('graal-tileset').addEventListener('change', async (e) => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (!file) return;
    await useTileset(file.name, new Uint8Array(await file.arrayBuffer()));
    if (state.open >= 0) await openFile(state.open);
  });
  setUpViewport(
    // A click on a marker opens its row in the inspector.
    // A click on a marker opens its row in the inspector; elsewhere, the smallest quad under it.
    (at) => {
      const hit = at.hits.find((m) => m.ref);
      if (hit?.ref) return select(hit.ref);
      const quad = (state.preview?.places ?? [])
        .filter((p) => p.table === 'quads' && p.w > 0 && at.tx >= p.x && at.tx < p.x + p.w && at.ty >= p.y && at.ty < p.y + p.h)
        .sort((a, b) => a.w * a.h - b.w * b.h)[0];
      if (quad) select(quad);
    },
    hoverAt,
  );
  $('download-png').addEventListener('click', downloadPicture);
  $('inspector-close').addEventListener('click', () => select(undefined));
  const examples: { name: string; format: string; file: string }[] = await (await fetch('examples/index.json')).json();
  const sel = $<HTMLSelectElement>('fixture');
  for (const x of examples) {
    const o = el('option', `${x.format}: ${x.name}`);
    o.value = x.file;
    sel.append(o);
  }
  $('load-fixture').addEventListener('click', async () => {
    const file = sel.value;
    const bytes = new Uint8Array(await (await fetch(`examples/${file}`)).arrayBuffer());
    await load([{ name: file, bytes }]);
  });
  document.body.dataset.ready = '1';
}

setUp();
