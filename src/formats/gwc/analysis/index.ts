// objectModel: a cartridge's Wherigo objects, by static analysis of its Lua (types.ts says how
// the stages meet). The bytecode of a GWC and the source of a GWZ give the same model.

import { decodeLua } from '../lua-chunk.js';
import type { GwcDecoded } from '../types.js';
import { heapFromChunk } from './bytecode-heap.js';
import { modelFromHeap } from './model.js';
import type { WherigoModel } from './types.js';

/** Bounds of one analysis (the whole cartridge), each checked before the work it bounds. */
export interface AnalysisOptions {
  /** Abstract instructions (or source nodes) followed, whole cartridge. */
  maxSteps?: number;
  /** Tables made. */
  maxTables?: number;
  /** Steps of string-decoder evaluation, whole cartridge. */
  maxDecoderSteps?: number;
  /** Functions summarised (prototypes other than the main function). */
  maxFunctions?: number;
  /** Table entries set (fields and list items), whole cartridge. */
  maxEntries?: number;
}

/**
 * The Wherigo objects of a decoded GWC or GWZ. DecodeError (format `gwc`) when the chunk or the
 * source cannot be read or a limit is passed; what the analysis cannot pin down is `unknown`.
 */
export function objectModel(value: GwcDecoded, opts: AnalysisOptions = {}): WherigoModel {
  if (value.format === 'gwz') {
    // Wired when the source front-end merges (#42): heapFromSource.
    throw new Error('levelkit: the object model of a GWZ (Lua source) is not available yet');
  }
  // Error offsets count in the cartridge's file: the chunk starts 4 bytes after its object offset.
  const chunk = decodeLua(value);
  // String decoders (findStringDecoders) are wired when that helper merges (#42).
  const heap = heapFromChunk(chunk, { decoders: null, limits: opts, base: value.lua.offset + 4 });
  return modelFromHeap(heap, { mediaCount: value.media.length });
}

export { heapFromChunk } from './bytecode-heap.js';
export { modelFacts } from './facts.js';
export { modelFromHeap } from './model.js';
