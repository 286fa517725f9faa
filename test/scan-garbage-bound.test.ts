// The scan worker's bound on dead arrays (src/scan/garbage-bound.ts): a full collection once the
// array memory grew past the budget since its lowest reading, and none before.
import { describe, expect, it } from 'vitest';
import { fullCollector, garbageBound } from '../src/scan/garbage-bound.js';

/** A bound over a memory reading the test sets, counting its collections. */
function fake(budget: number) {
  const state = { memory: 100, collections: 0 };
  const bound = garbageBound(
    budget,
    () => {
      state.collections++;
    },
    () => state.memory,
  );
  return { state, bound };
}

describe('garbageBound', () => {
  it('collects once the memory grew past the budget since its low, then measures from there', () => {
    const { state, bound } = fake(10);
    state.memory = 110;
    bound();
    expect(state.collections).toBe(0); // at the budget, not past it
    state.memory = 111;
    bound();
    expect(state.collections).toBe(1);
    // The reading falls only later (V8 counts freed arrays after sweeping): the low follows it down.
    state.memory = 105;
    bound();
    state.memory = 60;
    bound();
    state.memory = 70;
    bound();
    expect(state.collections).toBe(1);
    state.memory = 71;
    bound();
    expect(state.collections).toBe(2);
  });

  it('never collects without a budget or a collector', () => {
    const { state, bound } = fake(0);
    state.memory = 1e12;
    bound();
    expect(state.collections).toBe(0);
    const none = garbageBound(1, undefined, () => 0);
    expect(() => none()).not.toThrow();
  });

  it('the real collector is reachable under Node and frees dead arrays', async () => {
    const gc = fullCollector();
    expect(gc).toBeTypeOf('function');
    const before = process.memoryUsage().arrayBuffers;
    const made: Uint8Array[] = [];
    for (let i = 0; i < 32; i++) made.push(new Uint8Array(1 << 20).fill(1));
    made.length = 0;
    gc!();
    // Freed by V8's sweeper, possibly on its own thread: give it a moment.
    for (let i = 0; i < 50 && process.memoryUsage().arrayBuffers - before >= 16 << 20; i++) await new Promise((r) => setTimeout(r, 10));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 << 20);
  });
});
