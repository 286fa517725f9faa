// A GWZ's Lua source, parsed by luaparse (npm, MIT) into its AST: the source's bytes go in one
// char per byte (luaparse's `pseudo-latin1` mode), so string literals come out as the bytes the
// Lua compiler would store (escapes included) and every position is a byte offset into the source.
// Bounds are checked before luaparse runs (the source's size) and its recursion is caught: a
// source nested deeper than the call stack is LIMIT_EXCEEDED, not a RangeError.

import { type Chunk, parse } from 'luaparse';
import { type DecodeError, decodeError } from '../../../core/errors.js';
import type { Text } from '../../../core/text.js';
import { DEFAULT_ANALYSIS_LIMITS } from './budget.js';
import type { AnalysisOptions } from './index.js';

/** Bounds of one source's analysis: those of every analysis, and the source's size. */
export interface SourceLimits extends AnalysisOptions {
  /** Bytes of Lua source parsed at most (checked before parsing). */
  maxSourceBytes?: number;
}

/** Defaults of SourceLimits: every analysis's (budget.ts), and a source size far above any known cartridge's (the largest corpus source is 103 KB). */
export const SOURCE_LIMITS: Required<SourceLimits> = { ...DEFAULT_ANALYSIS_LIMITS, maxSourceBytes: 16 << 20 };

/**
 * Nesting of blocks, functions and expressions followed at most: the Lua 5.1 compiler's own bound
 * (LUAI_MAXCCALLS, "chunk has too many syntax levels"), so no cartridge a player loads is deeper.
 */
export const SOURCE_MAX_DEPTH = 200;

/** The source's bytes as a string of one char per byte (never a WHATWG `latin1`, which is Windows-1252). */
function byteString(raw: Uint8Array): string {
  let s = '';
  for (let i = 0; i < raw.length; i += 8192) s += String.fromCharCode(...raw.subarray(i, i + 8192));
  return s;
}

/** A parsed source and the string luaparse read (for line numbers of errors raised later). */
export interface ParsedSource {
  chunk: Chunk;
  /** The source as luaparse saw it: one char per byte. */
  bytes: string;
}

/** 1-based line and column of byte `at` in `bytes`. */
export function lineColumn(bytes: string, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = bytes.indexOf('\n'); i !== -1 && i < at; i = bytes.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: at - start + 1 };
}

/** A LIMIT_EXCEEDED error naming the bound passed (`limits.maxSteps`, `SOURCE_MAX_DEPTH` …); `at` is a byte of the source. */
export function sourceLimitError(limit: string, value: number, fileName: string, at?: number, detail?: string): DecodeError {
  return decodeError('gwc', 'LIMIT_EXCEEDED', {
    offset: at,
    path: `${fileName} (${limit})`,
    expected: `at most ${value}`,
    detail: detail ?? `the Lua source needs more than ${limit}`,
  });
}

/**
 * Parses `source` as Lua 5.1. DecodeError (format `gwc`): CORRUPT for a syntax error (offset = its
 * byte in the source, the message with line and column), LIMIT_EXCEEDED for a source over
 * `maxSourceBytes` (before parsing) or nested deeper than the parser's stack.
 */
export function parseSource(source: Text, fileName: string, maxSourceBytes: number): ParsedSource {
  const raw = source.raw;
  if (raw.length > maxSourceBytes)
    throw sourceLimitError('limits.maxSourceBytes', maxSourceBytes, fileName, undefined, `the Lua source is ${raw.length} bytes`);
  let bytes = byteString(raw);
  // A UTF-8 byte-order mark (some editors write one) is not Lua; blanked so offsets stay those of the file.
  if (bytes.startsWith('\xef\xbb\xbf')) bytes = `   ${bytes.slice(3)}`;
  try {
    return { chunk: parse(bytes, { luaVersion: '5.1', encodingMode: 'pseudo-latin1', locations: true, ranges: true }), bytes };
  } catch (e) {
    if (e instanceof RangeError) {
      // luaparse descends recursively: a source nested past the call stack ends here.
      throw sourceLimitError('SOURCE_MAX_DEPTH', SOURCE_MAX_DEPTH, fileName, undefined, `the Lua source nests deeper than the parser's stack (${e.message})`);
    }
    const err = e as { index?: unknown; line?: unknown; column?: unknown; message?: unknown };
    if (e instanceof SyntaxError && typeof err.index === 'number' && typeof err.line === 'number' && typeof err.column === 'number') {
      const what = String(err.message).replace(/^\[\d+:\d+\] /, '');
      throw decodeError('gwc', 'CORRUPT', {
        offset: err.index,
        path: `${fileName}:${err.line}:${err.column + 1}`,
        expected: 'Lua 5.1 source',
        detail: `line ${err.line}, column ${err.column + 1}: ${what}`,
      });
    }
    throw e;
  }
}
