// What the page holds, in one place: the loaded files, the open one, its picture and view, the
// selected row, and the counters that let a late reply know it is stale. Modules read and write
// `state`; none keeps a copy of it.

import { $ } from './dom.js';
import type { FileTable } from './file-table.js';
import type { DecodedFile, DecodeSettings, Reply } from './protocol.js';

export type Preview = NonNullable<DecodedFile['preview']>;

export interface LoadedFile {
  name: string;
  bytes: Uint8Array;
  /** Not read out of its zip (over the inflate budget): this is its result whatever the settings. */
  refused?: { code: string; message: string };
  result?: { decoded: DecodedFile } | { error: Extract<Reply, { ok: false }>['error'] };
}

/** A row of one of the open file's tables. */
export interface RowRef {
  table: string;
  row: number;
}

export const state = {
  files: [] as LoadedFile[],
  /** Index of the open file, -1 when none. */
  open: -1,
  /** Screen pixels per picture pixel, and where the picture's corner is in the viewport. */
  view: { zoom: 1, x: 0, y: 0 },
  preview: undefined as Preview | undefined,
  /** The decode request whose picture is shown (the worker draws its regions and answers for its cells). */
  shownId: -1,
  /** The row the inspector shows (and its marker, highlighted on the picture). */
  selected: undefined as RowRef | undefined,
  /** The tables on show (what the inspector reads rows from). */
  tables: [] as Preview['tables'],
  /** Per table on show: turn to the page holding `row` and mark it. */
  tablePagers: new Map<string, (row: number | undefined) => void>(),
  /** The files table, once several files were loaded. */
  table: undefined as FileTable | undefined,
  /** Counts opens and loads: a reply that arrives after a newer open or load began is dropped. */
  openToken: 0,
  loadToken: 0,
};

/** The decode settings the page's controls choose. */
export const settings = (): DecodeSettings => ({
  backend: $<HTMLSelectElement>('backend').value as DecodeSettings['backend'],
  inflater: $<HTMLSelectElement>('inflater').value as DecodeSettings['inflater'],
});
