// Where a decode's options are resolved: the input checked, the options validated, the kernel
// set chosen and the core DecodeContext built. Every format's decode entry starts here.

import { type DecodeContext, makeContext } from '../core/context.js';
import type { FormatId } from '../core/errors.js';
import { hasNativeZlib } from '../core/inflate.js';
import { type DecodeOptions, type InflaterChoice, resolveOptions } from '../core/limits.js';
import { inputBytes } from '../core/reader.js';
import { chooseKernels, inflateKernels } from '../kernels/select.js';
import type { Kernels } from '../kernels/types.js';

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
  const kernels = chooseKernels(resolved.backend, resolved.kernels);
  return { bytes, ctx: makeContext<W>(format, resolved, kernels, chooseInflater(resolved.inflate, kernels), bytes.length) };
}

/**
 * `native` and `pako` as named; `wasm` the WASM kernels' inflater (WasmUnavailableError where they
 * cannot run); `auto` node:zlib when the host has it, else the decode's kernel set's own inflater:
 * WASM where the WASM kernels run, pako where the TypeScript ones do (so `backend: 'js'` stays
 * all-TypeScript). `native` is checked when the first block is inflated, not here.
 */
export function chooseInflater(choice: InflaterChoice, kernels: Kernels): 'native' | Kernels {
  if (choice === 'native') return 'native';
  if (choice === 'pako' || choice === 'wasm') return inflateKernels(choice);
  return hasNativeZlib() ? 'native' : kernels;
}
