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
