// objectModel: a cartridge's Wherigo objects, by static analysis of its Lua (types.ts says how
// the stages meet). The bytecode of a GWC and the source of a GWZ give the same model.

import type { GwcDecoded } from '../types.js';
import type { WherigoModel } from './types.js';

/** Bounds of one analysis (the whole cartridge), each checked before the work it bounds. */
export interface AnalysisOptions {
  /** Abstract instructions (or source nodes) followed, whole cartridge. */
  maxSteps?: number;
  /** Tables made. */
  maxTables?: number;
  /** Steps of string-decoder evaluation, whole cartridge. */
  maxDecoderSteps?: number;
}

/**
 * The Wherigo objects of a decoded GWC or GWZ. DecodeError (format `gwc`) when the chunk or the
 * source cannot be read or a limit is passed; what the analysis cannot pin down is `unknown`.
 */
export function objectModel(value: GwcDecoded, opts: AnalysisOptions = {}): WherigoModel {
  void value;
  void opts;
  // Wired when the front-ends merge (#42): bytecode → heapFromChunk, source → heapFromSource.
  throw new Error('levelkit: objectModel is not wired yet');
}
