// Files in: the incoming files replace the loaded ones (zips unpacked by the worker); one file
// opens at once, several fill the files table (file-table.ts), decoded one after another.

import { ask } from './ask.js';
import { openFile } from './detail.js';
import { $ } from './dom.js';
import { type FileRow, fileTable } from './file-table.js';
import type { Reply } from './protocol.js';
import { type LoadedFile, settings, state } from './state.js';
import { thumbnails } from './thumbnails.js';

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;

/** Replaces the loaded files with `incoming` (zips unpacked) and shows them. */
export async function load(incoming: { name: string; bytes: Uint8Array }[]): Promise<void> {
  const token = ++state.loadToken;
  const list: LoadedFile[] = [];
  for (const f of incoming) {
    // A .gwz is a zip too, but a level in itself (Wherigo source): opened, not unpacked.
    if (!/\.gwz$/i.test(f.name) && (/\.zip$/i.test(f.name) || isZip(f.bytes))) {
      const r = await ask({ type: 'unzip', name: f.name, bytes: f.bytes });
      if (r.ok && 'files' in r) {
        if (r.files.length) list.push(...r.files.map((x) => ({ name: `${f.name}/${x.name}`, bytes: x.bytes, ...(x.refused ? { refused: x.refused } : {}) })));
        // No level inside: the zip may itself be one (a GWZ under another name); decoding says.
        else list.push({ name: f.name, bytes: f.bytes });
      } else if (!r.ok) list.push({ name: f.name, bytes: f.bytes, result: { error: r.error } });
    } else list.push({ name: f.name, bytes: f.bytes });
  }
  if (token !== state.loadToken) return;
  state.files = list;
  state.open = -1;
  document.body.dataset.files = String(list.length);
  if (list.length === 1) {
    $('list').hidden = true;
    await openFile(0);
  } else {
    $('detail').hidden = true;
    await listFiles();
  }
}

/** sha256 (hex) of a file's bytes, as `levelkit scan` records it; undefined where the browser has no SubtleCrypto (not a secure context). */
async function contentDigest(bytes: Uint8Array): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Fills the files table, decoding each file in turn (its result kept until the settings change). */
export async function listFiles(): Promise<void> {
  const token = state.loadToken;
  const section = $('list');
  section.hidden = false;
  section.dataset.state = 'busy';
  state.table ??= fileTable(
    (i) => openFile(i),
    thumbnails(ask, (i) => {
      const f = state.files[i];
      return f && !f.refused && f.bytes.length ? { name: f.name, bytes: f.bytes, settings: settings() } : undefined;
    }),
  );
  const { files, table } = state;
  const rows: FileRow[] = files.map((f, index) => ({ index, name: f.name, size: f.bytes.length }));
  table.reset(rows);
  $('list-title').textContent = `${files.length} files`;
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    if (!f.result && f.refused) f.result = { error: f.refused };
    if (!f.result) {
      const r = await ask({ type: 'decode', name: f.name, bytes: f.bytes, settings: settings(), preview: false });
      f.result = r.ok && 'decoded' in r ? { decoded: r.decoded } : { error: (r as Extract<Reply, { ok: false }>).error };
    }
    const digest = await contentDigest(f.bytes);
    if (token !== state.loadToken) return; // other files were loaded meanwhile
    const row = rows[i]!;
    if (digest) row.contentDigest = digest;
    if ('decoded' in f.result) {
      const d = f.result.decoded;
      row.format = d.format;
      row.version = String(d.version);
      row.warnings = d.warnings.map((w) => w.code);
      if (d.unchecked) row.unchecked = d.unchecked;
      row.ms = d.ms;
      const grid = (d.summary as { gridDigest?: unknown }).gridDigest;
      row.gridDigest = typeof grid === 'string' ? grid : null;
    } else row.error = { code: f.result.error.code, message: f.result.error.message };
    table.updated(i + 1);
  }
  section.dataset.state = 'done';
}
