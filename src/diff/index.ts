// Semantic diffs of levels, shared by every format's diff() (src/formats/<fmt>/diff.ts): the Change
// record, and helpers for fields, cell grids, record lists and text lines. See README.md here.

export { appendAll, type Change, type DiffValue, INLINE_ARRAY_MAX, type LineHunk, type TooMany } from './change.js';
export { type FieldChange, fieldChanges, fieldChangesAs } from './fields.js';
export { type CellColumn, cellChanges, type Grid } from './grid.js';
export { lineHunks, splitLines } from './lines.js';
export { type Matching, matchSequence } from './match.js';
export { digestOf, isText, plain, sameBytes, sameValue } from './plain.js';
export { type RecordsSpec, recordChanges } from './records.js';
export { type Alignment, alignment, commonPairs, MAX_EDITS, MAX_STEPS } from './sequence.js';
