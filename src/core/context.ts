// Everything one decode carries around: the kernel set, limits, inflater choice, text code page
// and the warning sink. Formats build it once from the caller's options.

import { WarningSink, type FormatId } from './errors.js';
import { resolveLimits, type DecodeOptions, type InflaterChoice, type Limits } from './limits.js';
import { chooseKernels } from '../kernels/select.js';
import type { Kernels } from '../kernels/types.js';

export interface DecodeContext {
  readonly format: FormatId;
  readonly kernels: Kernels;
  readonly limits: Limits;
  readonly inflate: InflaterChoice;
  readonly encoding: string;
  readonly strict: boolean;
  readonly warnings: WarningSink;
}

export function makeContext(format: FormatId, opts: DecodeOptions = {}): DecodeContext {
  const strict = opts.strict ?? false;
  return {
    format,
    kernels: chooseKernels(opts.backend ?? 'auto', opts.kernels),
    limits: resolveLimits(opts),
    inflate: opts.inflate ?? 'auto',
    encoding: opts.encoding ?? 'windows-1252',
    strict,
    warnings: new WarningSink(format, strict),
  };
}
