// Kernel status codes (mirror of assembly/status.ts). core/kernel-status.ts maps them to DecodeError codes.

export const Status = {
  TRUNCATED: -1,
  OVERFLOW: -2,
  CORRUPT: -3,
  NO_MEMORY: -4,
  BAD_ZLIB_HEADER: -5,
  BAD_HUFFMAN_CODE: -6,
  BAD_DEFLATE_DATA: -7,
  BAD_CHECKSUM: -8,
  SHORT_OUTPUT: -9,
} as const;

/** True when `offset` is a whole number within 0..src.length: kernels that take a start offset return TRUNCATED otherwise. */
export function isOffsetIn(src: Uint8Array, offset: number): boolean {
  return Number.isInteger(offset) && offset >= 0 && offset <= src.length;
}

export function statusName(status: number): string {
  for (const [k, v] of Object.entries(Status)) if (v === status) return k;
  return `status ${status}`;
}
