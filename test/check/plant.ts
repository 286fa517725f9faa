// Planting a defect through the library: decode a real level, change it, encode it, decode it
// again, then run one rule. The untouched level must not be flagged by that rule; the changed one must.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { checkLevel } from '../../src/check/run.js';
import type { Finding } from '../../src/check/types.js';
import { type AnyDecoded, decode, encode } from '../../src/index.js';
import { ROOT } from '../helpers/paths.js';

export function load<T extends AnyDecoded>(path: string): T {
  return decode(readFileSync(path.startsWith('/') ? path : join(ROOT, path))) as T;
}

/** The level after encode and decode (what a user's file would read back as). */
export function written<T extends AnyDecoded>(level: T): T {
  return decode(encode(level)) as T;
}

export function findingsOf(level: AnyDecoded, rule: string): Finding[] {
  return checkLevel(level, [rule]).findings;
}

/** `rule` finds nothing in `clean` and finds a message matching `expected` in `planted`. */
export function expectPlanted(rule: string, clean: AnyDecoded, planted: AnyDecoded, expected: RegExp): Finding[] {
  expect(findingsOf(clean, rule), 'the untouched level').toEqual([]);
  const found = findingsOf(planted, rule);
  expect(found.map((f) => f.message)).toContainEqual(expect.stringMatching(expected));
  for (const f of found) expect(f.rule).toBe(rule);
  return found;
}
