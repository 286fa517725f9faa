// The bounds of one analysis (AnalysisOptions), counted over the whole cartridge and checked
// before the work they bound; passing one is DecodeError LIMIT_EXCEEDED at the place it happened.

import { type DecodeError, decodeError } from '../../../core/errors.js';
import type { AnalysisOptions } from './index.js';

/** Defaults: far above any real cartridge (the largest corpus chunk needs ~25,000 steps and ~5,000 tables). */
export const DEFAULT_ANALYSIS_LIMITS: Required<AnalysisOptions> = {
  maxSteps: 20_000_000,
  maxTables: 1_000_000,
  maxDecoderSteps: 50_000_000,
  maxFunctions: 1_000_000,
  maxEntries: 10_000_000,
};

/** Where a limit was passed, for the error: the prototype's offset and path, and the pc. */
export interface Place {
  offset: number;
  path: string;
}

export class Budget {
  readonly limits: Required<AnalysisOptions>;
  /** Abstract steps taken (instructions followed, registers and writes undone at joins …). */
  steps = 0;
  tables = 0;
  functions = 0;
  entries = 0;

  constructor(limits: AnalysisOptions | undefined) {
    this.limits = { ...DEFAULT_ANALYSIS_LIMITS };
    for (const [k, v] of Object.entries(limits ?? {})) if (v !== undefined) (this.limits as Record<string, number>)[k] = v;
  }

  /** The error for passing `what` (a key of AnalysisOptions) at `place`. */
  exceeded(what: keyof AnalysisOptions, place: Place, actual: number): DecodeError {
    const items: Record<keyof AnalysisOptions, string> = {
      maxSteps: 'abstract steps',
      maxTables: 'tables',
      maxDecoderSteps: 'string-decoder steps',
      maxFunctions: 'functions',
      maxEntries: 'table entries',
    };
    return decodeError('gwc', 'LIMIT_EXCEEDED', {
      offset: place.offset,
      path: place.path,
      expected: `at most ${this.limits[what]} ${items[what]} in the cartridge (${what})`,
      actual,
    });
  }

  /** Charges `n` steps at `place` (checked before the work they pay for). */
  charge(n: number, place: () => Place): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) throw this.exceeded('maxSteps', place(), this.steps);
  }

  /** Charges `n` table entries at `place`. */
  chargeEntries(n: number, place: () => Place): void {
    this.entries += n;
    if (this.entries > this.limits.maxEntries) throw this.exceeded('maxEntries', place(), this.entries);
  }
}
