// objectModel: a cartridge's Wherigo objects, by static analysis of its Lua (types.ts says how
// the stages meet). The bytecode of a GWC and the source of a GWZ give the same model.

import { decodeLuaForAnalysis } from '../lua-chunk.js';
import type { GwcDecoded } from '../types.js';
import { heapFromChunk } from './bytecode-heap.js';
import { findStringDecoders } from './decoders.js';
import { modelFromHeap } from './model.js';
import { heapFromSource } from './source-heap.js';
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
  /** Bytes of a GWZ's Lua source parsed at most (checked before parsing). */
  maxSourceBytes?: number;
}

/** The options objectModel accepts (AnalysisOptions' keys). */
const OPTION_NAMES: readonly (keyof AnalysisOptions)[] = ['maxSteps', 'maxTables', 'maxDecoderSteps', 'maxFunctions', 'maxEntries', 'maxSourceBytes'];

/** `opts` checked: TypeError for an unknown option or one that is not a number, RangeError for one that is not a positive whole number; each names the option. */
function checkedOptions(opts: AnalysisOptions | undefined): AnalysisOptions {
  if (opts === undefined || opts === null) return {};
  if (typeof opts !== 'object') throw new TypeError(`levelkit: objectModel options must be an object, got ${typeof opts}`);
  const out: AnalysisOptions = {};
  for (const [key, v] of Object.entries(opts)) {
    if (!OPTION_NAMES.includes(key as keyof AnalysisOptions))
      throw new TypeError(`levelkit: unknown objectModel option '${key}' (known: ${OPTION_NAMES.join(', ')})`);
    if (v === undefined) continue;
    if (typeof v !== 'number') throw new TypeError(`levelkit: objectModel option '${key}' must be a number, got ${typeof v}`);
    if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`levelkit: objectModel option '${key}' must be a whole number ≥ 1, got ${v}`);
    out[key as keyof AnalysisOptions] = v;
  }
  return out;
}

/**
 * The Wherigo objects of a decoded GWC or GWZ. DecodeError (format `gwc`) when the chunk or the
 * source cannot be read or a limit is passed; what the analysis cannot pin down is `unknown`.
 * A GWC's obfuscated strings are decoded by findStringDecoders, a GWZ source's by its own
 * evaluator of the decoder's syntax tree; both give the same model for the same cartridge.
 * `opts` is validated (an error names the option) and never written.
 */
export function objectModel(value: GwcDecoded, opts?: AnalysisOptions): WherigoModel {
  const limits = checkedOptions(opts);
  if (value.format === 'gwz') {
    // A summary decode leaves the source deflated (its text empty): an empty model would be a lie.
    if (value.sections === 'summary')
      throw new TypeError("levelkit: objectModel needs a GWZ decoded with sections 'all' (a 'summary' decode holds no Lua source)");
    const heap = heapFromSource(value.lua, { limits, fileName: value.luaFile });
    return modelFromHeap(heap, { mediaCount: value.media.length });
  }
  // Error offsets count in the cartridge's file: the chunk starts 4 bytes after its object offset.
  // The analysis never reads local or upvalue names, so the decode leaves them out.
  const chunk = decodeLuaForAnalysis(value);
  const decoders = findStringDecoders(chunk, limits.maxDecoderSteps === undefined ? {} : { maxSteps: limits.maxDecoderSteps });
  const heap = heapFromChunk(chunk, { decoders, limits, base: value.lua.offset + 4 });
  return modelFromHeap(heap, { mediaCount: value.media.length });
}

export { heapFromChunk } from './bytecode-heap.js';
export { modelFacts } from './facts.js';
export { modelFromHeap } from './model.js';
