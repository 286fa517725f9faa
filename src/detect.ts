// Content-based format detection (never by file name).
import type { FormatId } from './core/errors.js';
import { FORMATS } from './formats/registry.js';

/** How many leading bytes detect() looks at. */
export const SNIFF_BYTES = 64;

/** The format of `bytes` by content, or undefined. Reads at most the first 64 bytes; never throws. */
export function detect(bytes: Uint8Array): FormatId | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  for (const f of FORMATS) {
    const id = f.sniff(head);
    if (id) return id;
  }
  return undefined;
}
