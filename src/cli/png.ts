// fast-png, loaded when a command is about to write a PNG (render, extract): importing it (and
// the zlib it brings) cost 15–20 ms of every CLI start, and `scan`, `info`, `report` and
// `convert` never write one — a bulk scan's workers start that much sooner.
import type { encode } from 'fast-png';

export type PngEncode = typeof encode;

let loading: Promise<PngEncode> | undefined;

export function pngEncoder(): Promise<PngEncode> {
  loading ??= import('fast-png').then((m) => m.encode);
  return loading;
}
