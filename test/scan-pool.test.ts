// The pool's batching, with workers faked (no threads): full batches while files keep coming,
// and once the walk is done (draining) batches that shrink with the queue, so two workers finish
// together instead of one working through a full last batch alone.
import { describe, expect, it } from 'vitest';
import type { BatchMessage, BatchResult } from '../src/scan/job.js';
import { BATCH_FILES, Pool, type PoolTask, type SpawnWorker } from '../src/scan/pool.js';

const config = { depth: 'cheap' as const, decode: {}, maxBytes: 1 << 20, all: false };

/** Two fake workers that take every batch and answer it at once, recording its size. */
function pool(draining: boolean, files: number, sizeOf = (_i: number) => 1000) {
  const sizes: number[] = [];
  const answered: number[] = [];
  let p!: Pool<PoolTask>;
  const spawn: SpawnWorker = (message) => {
    queueMicrotask(() => message('ready'));
    return {
      post(batch: BatchMessage) {
        sizes.push(batch.items.length);
        const r: BatchResult = {
          batch: batch.batch,
          from: 0,
          results: batch.items.map(() => null),
          lines: batch.items.map(() => '{}').join('\n'),
          done: true,
          stages: { read: 0, detect: 0, decode: 0, hash: 0, record: 0 },
          cpuMs: -1,
        };
        queueMicrotask(() => message(r));
      },
      terminate() {},
    };
  };
  p = new Pool<PoolTask>(spawn, 2, config, 5000, () => answered.push(1));
  for (let i = 0; i < files; i++) p.push({ item: { kind: 'file', path: `f${i}`, named: false }, size: sizeOf(i) });
  p.draining = draining;
  return { p, sizes, answered };
}

/** Lets the fake workers start, hands out everything queued, lets them answer, then closes the pool. */
async function runAll(p: Pool<PoolTask>): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
  p.dispatch(true);
  await new Promise((r) => setTimeout(r, 20));
  p.close();
}

describe('pool batching', () => {
  it('while files keep coming, batches are full (BATCH_FILES)', async () => {
    const { p, sizes, answered } = pool(false, 300);
    await runAll(p);
    expect(answered.length).toBe(300);
    expect(sizes.slice(0, 4)).toEqual([BATCH_FILES, BATCH_FILES, BATCH_FILES, BATCH_FILES]);
  });

  it('draining, each batch takes at most a quarter (2 × 2 workers) of what is left, down to single files', async () => {
    const { p, sizes, answered } = pool(true, 300);
    await runAll(p);
    expect(answered.length).toBe(300);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    let left = 300;
    for (const n of sizes) {
      expect(n).toBeLessThanOrEqual(Math.min(BATCH_FILES, Math.ceil(left / 4)));
      left -= n;
    }
    expect(sizes.at(-1)).toBe(1);
  });

  it('draining, the share is by bytes too: one big file leaves the small ones to other batches', async () => {
    const { p, sizes } = pool(true, 40, (i) => (i === 0 ? 4_000_000 : 1000));
    await runAll(p);
    expect(sizes[0]).toBe(1);
  });
});
