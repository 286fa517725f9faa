// Where a decode's options are resolved: the input checked, the options validated, the kernel
// set chosen and the core DecodeContext built. Every format's decode entry starts here.

import { type DecodeContext, makeContext } from '../core/context.js';
import type { FormatId } from '../core/errors.js';
import { type DecodeOptions, resolveOptions } from '../core/limits.js';
import { inputBytes } from '../core/reader.js';
import { chooseKernels } from '../kernels/select.js';

/** What a decoder works on: the caller's bytes (never written) and its context. */
export interface DecodeStart<W extends string> {
  bytes: Uint8Array;
  ctx: DecodeContext<W>;
}

/**
 * Checks `input` (a Uint8Array, Buffer, ArrayBuffer or other ArrayBufferView, read as a view of the
 * same bytes; anything else is a TypeError) and `opts` (TypeError/RangeError naming the option).
 */
export function startDecode<W extends string = string>(format: FormatId, input: unknown, opts: DecodeOptions | undefined): DecodeStart<W> {
  const bytes = inputBytes(input);
  const resolved = resolveOptions(opts);
  return { bytes, ctx: makeContext<W>(format, resolved, chooseKernels(resolved.backend, resolved.kernels)) };
}
