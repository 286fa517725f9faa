// What the main pass could not follow, kept once per kind of thing (bytecode-heap.ts): each note
// with where it was first seen and how often, and per callee the note and the unknown result of a
// call not followed, made once (builtins and functions are shared values; other kinds read alike).

import type { LuaChunk } from '../lua-types.js';
import type { Place } from './budget.js';
import { calleeText, type ValueCache } from './bytecode-values.js';
import type { AbstractValue } from './types.js';

export class PassNotes {
  private readonly seen = new Map<string, { count: number; first: string }>();
  private readonly unfollowedCalls = new Map<AbstractValue | string, { note: string; result: AbstractValue }>();

  constructor(
    private readonly cache: ValueCache,
    private readonly chunk: LuaChunk,
  ) {}

  /** Notes `what`; `place` (where the pass is) is asked only the first time. */
  add(what: string, place: () => Place): void {
    const seen = this.seen.get(what);
    if (seen) seen.count++;
    else this.seen.set(what, { count: 1, first: place().path });
  }

  /** The note and unknown result of a call of `callee`, which the pass does not follow. */
  unfollowed(callee: AbstractValue): { note: string; result: AbstractValue } {
    const key = callee.kind === 'builtin' || callee.kind === 'function' ? callee : callee.kind;
    let known = this.unfollowedCalls.get(key);
    if (!known) {
      const what = calleeText(callee, this.chunk);
      known = { note: `call of ${what} not followed, its results are unknown`, result: this.cache.unknown(`the result of ${what}`) };
      this.unfollowedCalls.set(key, known);
    }
    return known;
  }

  /** One line per note: what, where first, and how often. */
  lines(): string[] {
    return [...this.seen].map(([what, { count, first }]) => `${first}: ${what}${count > 1 ? ` (${count} times)` : ''}`);
  }
}
