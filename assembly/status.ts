// Negative status codes every kernel may return instead of a count.
// Mirrored in src/kernels/status.ts; test/kernels/status.test.ts keeps the two in step.

// @ts-ignore: decorator
@inline export const STATUS_TRUNCATED: i32 = -1; // the source ended inside a record or run
// @ts-ignore: decorator
@inline export const STATUS_OVERFLOW: i32 = -2; // the output would exceed the destination's capacity
// @ts-ignore: decorator
@inline export const STATUS_CORRUPT: i32 = -3; // a value no writer produces
// @ts-ignore: decorator
@inline export const STATUS_NO_MEMORY: i32 = -4; // the arena could not grow
// The inflater's own (assembly/inflate.ts); the binding reports each as CORRUPT_COMPRESSED.
// @ts-ignore: decorator
@inline export const STATUS_BAD_ZLIB_HEADER: i32 = -5; // not method 8, window > 32 KiB, check bits wrong, or a preset dictionary
// @ts-ignore: decorator
@inline export const STATUS_BAD_HUFFMAN_CODE: i32 = -6; // code lengths over-subscribed, incomplete, repeated past the end, or no end-of-block
// @ts-ignore: decorator
@inline export const STATUS_BAD_DEFLATE_DATA: i32 = -7; // block type 3, stored LEN/NLEN mismatch, symbol outside the alphabet, distance before the output's start
// @ts-ignore: decorator
@inline export const STATUS_BAD_CHECKSUM: i32 = -8; // the Adler-32 after the stream is not that of the output
// @ts-ignore: decorator
@inline export const STATUS_SHORT_OUTPUT: i32 = -9; // the stream ended before the destination was full
