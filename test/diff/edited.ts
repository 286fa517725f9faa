// For the diff suites: a level decoded, edited through the library, written back with the format's
// encode() and decoded again; diffed against the untouched decode.
import { expect, it } from 'vitest';
import type { Change } from '../../src/index.js';

/** The codec of one format, as the suites use it. */
export interface Codec<L> {
  decode(bytes: Uint8Array): unknown;
  encode(level: L): Uint8Array;
  diff(a: L, b: L): Change[];
}

/** diff(decode(bytes), decode(encode(edit(decode(bytes))))). */
export function diffAfter<L>(codec: Codec<L>, bytes: Uint8Array, edit: (level: L) => void): Change[] {
  const b = codec.decode(bytes) as L;
  edit(b);
  return codec.diff(codec.decode(bytes) as L, codec.decode(codec.encode(b)) as L);
}

/** The test every suite starts with: diff a a, and diff a against its own re-encoding, say nothing. */
export function itSaysNothingForTheSameLevel<L>(codec: Codec<L>, bytesOf: () => Uint8Array): void {
  it('diff a a and diff a encode(a) are empty', () => {
    expect(codec.diff(codec.decode(bytesOf()) as L, codec.decode(bytesOf()) as L)).toEqual([]);
    expect(diffAfter(codec, bytesOf(), () => {})).toEqual([]);
  });
}

/** Inside a describe(): the same-level test, then a fresh decode and diffAfter() bound to `bytesOf`. */
export function editing<L>(codec: Codec<L>, bytesOf: () => Uint8Array) {
  itSaysNothingForTheSameLevel(codec, bytesOf);
  return { fresh: () => codec.decode(bytesOf()) as L, diffWith: (edit: (level: L) => void) => diffAfter(codec, bytesOf(), edit) };
}
