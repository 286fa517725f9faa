// What every per-format entry (levelkit/teeworlds, levelkit/wwd, …) exports beside its format's
// namespace: the error classes and option types, and init() for hosts that forbid synchronous WASM
// compilation. Nothing here reaches another format, the registry or render/.
export {
  DecodeError,
  type DecodeWarning,
  EncodeError,
  type EncodeErrorCode,
  type ErrorCode,
  type ErrorFormat,
  type ErrorRecord,
  type FormatId,
} from '../core/errors.js';
export type { Backend, DecodeOptions, DecodeProgress, InflaterChoice, Limits, Sections } from '../core/limits.js';
export { DEFAULT_LIMITS, LIMIT_NAMES, ZIP_INFLATE_ALLOWANCE, zipInflateBudget } from '../core/limits.js';
export { type Text, textFrom } from '../core/text.js';
export type { ExtractedFile, ExtractedImage, MainGrid, Summary } from '../formats/define.js';
export { init, wasmAvailable } from '../kernels/wasm/index.js';
