// A kernel's negative status as a DecodeError: kernels return statuses (they never throw), and
// the format that called one turns it into an error at the block it was decoding.

import { Status, statusName } from '../kernels/status.js';
import { type DecodeError, type DecodeErrorDetails, decodeError, type ErrorCode, type ErrorFormat } from './errors.js';

export function statusToErrorCode(status: number): ErrorCode {
  switch (status) {
    case Status.TRUNCATED:
      return 'TRUNCATED';
    case Status.NO_MEMORY:
      return 'LIMIT_EXCEEDED';
    case Status.BAD_ZLIB_HEADER:
    case Status.BAD_HUFFMAN_CODE:
    case Status.BAD_DEFLATE_DATA:
    case Status.BAD_CHECKSUM:
    case Status.SHORT_OUTPUT:
      return 'CORRUPT_COMPRESSED';
    default:
      return 'CORRUPT'; // OVERFLOW, CORRUPT and anything a newer kernel adds
  }
}

/** The DecodeError for kernel status `status`, its name prefixed to `details.detail`. */
export function kernelError(format: ErrorFormat, status: number, details: DecodeErrorDetails): DecodeError {
  const detail = details.detail ? `${details.detail}: ${statusName(status)}` : statusName(status);
  return decodeError(format, statusToErrorCode(status), { ...details, detail });
}

export { statusName };
