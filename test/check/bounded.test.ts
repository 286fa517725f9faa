// Every rule is linear or n log n in what it reads: a map with tens of thousands of small images, or
// of unknown settings, is checked in well under a scan's time limit (built with levelkit's own
// encoder from a fixture). And a file whose check runs out of time is a TIMEOUT naming the rule.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/check/registry.js';
import { checkLevel } from '../../src/check/run.js';
import type { MapImage } from '../../src/formats/teeworlds/types.js';
import { teeworlds, textFrom } from '../../src/index.js';
import { type BatchMessage, type LostItem, lostRecord, PROGRESS_BATCH, PROGRESS_INDEX, PROGRESS_RULE, PROGRESS_STARTED } from '../../src/scan/job.js';
import { Pool, type PoolAnswer, type PoolTask, type SpawnWorker } from '../../src/scan/pool.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const MAP = join(FIXTURES, 'teeworlds/ddnet-all-items.map');

/** The fixture with `edit` applied, written with teeworlds.encode() and read back, as a user's file would be. */
function mapWith(edit: (m: ReturnType<typeof teeworlds.decode>) => void) {
  const m = teeworlds.decode(readBytes(MAP));
  edit(m);
  return teeworlds.decode(teeworlds.encode(m));
}

describe('rules at scale', () => {
  // Built once, outside the timed tests: encoding and decoding 30,000 images is not what is judged here.
  let images: ReturnType<typeof teeworlds.decode>;
  let settings: ReturnType<typeof teeworlds.decode>;
  let before: number;
  beforeAll(() => {
    before = teeworlds.decode(readBytes(MAP)).images.length;
    images = mapWith((m) => {
      for (let i = 0; i < 30_000; i++) {
        const n = i % 100 === 99 ? i - 1 : i;
        const image: MapImage = {
          version: 1,
          name: textFrom(`img${i}`, 'utf-8'),
          width: 1,
          height: 1,
          external: false,
          pixels: Uint8Array.of(n >> 16, n >> 8, n, 255),
        };
        m.images.push(image);
      }
    });
    settings = mapWith((m) => {
      m.info!.settings = Array.from({ length: 17_000 }, (_, i) => textFrom(i === 0 ? 'sv_tem 1' : `unknown_setting_number_${i} ${i}`, 'utf-8'));
    });
  }, 60_000);

  it('30,000 small embedded images (every 100th a duplicate): every rule in seconds, each duplicate found once', () => {
    const { findings } = checkLevel(images);
    const duplicates = findings.filter((f) => f.rule === 'tw/duplicate-image');
    expect(duplicates).toHaveLength(300);
    expect(duplicates[0]!.message).toBe(`image ${before + 99} 'img99' has the same pixels as image ${before + 98} 'img98'`);
    expect(findings.filter((f) => f.rule === 'tw/unused-image').length).toBeGreaterThanOrEqual(30_000);
    expect(findings.filter((f) => f.rule === 'check/internal')).toEqual([]);
  }, 10_000);

  it('17,000 unknown settings: every rule in seconds, each setting named with its guess', () => {
    const { findings } = checkLevel(settings);
    const unknown = findings.filter((f) => f.rule === 'tw/unknown-setting');
    expect(unknown).toHaveLength(17_000);
    expect(unknown[0]!.message).toBe("setting 0 'sv_tem 1' is not a DDNet map command (did you mean 'sv_team'?)");
    expect(unknown[1]!.message).toBe("setting 1 'unknown_setting_number_1 1' is not a DDNet map command");
  }, 10_000);
});

describe('a check that runs out of time', () => {
  it('is a TIMEOUT naming the rule the worker was in, not the decoding', async () => {
    const rule = RULES.findIndex((r) => r.id === 'tw/duplicate-image') + 1;
    // A worker that starts the file, marks the rule it is in, and never answers (a rule in an endless loop).
    const spawn: SpawnWorker = (message) => {
      queueMicrotask(() => message('ready'));
      return {
        post(batch: BatchMessage) {
          const slots = new Int32Array(batch.progress);
          Atomics.store(slots, PROGRESS_RULE, rule);
          Atomics.store(slots, PROGRESS_STARTED, Math.round(performance.timeOrigin + performance.now() - batch.epoch));
          Atomics.store(slots, PROGRESS_INDEX, 0);
          Atomics.store(slots, PROGRESS_BATCH, batch.batch);
        },
        terminate() {},
      };
    };
    const answers: PoolAnswer[] = [];
    const config = { depth: 'full' as const, decode: {}, maxBytes: 1 << 20, all: false };
    const pool = new Pool<PoolTask>(spawn, 1, config, 50, (_t, a) => answers.push(a));
    pool.push({ item: { kind: 'file', path: 'slow.map', named: true }, size: 100 });
    await new Promise((r) => setTimeout(r, 20));
    pool.dispatch(true);
    await new Promise((r) => setTimeout(r, 300));
    pool.close();
    expect(answers).toEqual([{ timeout: 50, rule }]);
    const record = lostRecord({ path: 'slow.map', member: null }, 100, answers[0] as LostItem);
    expect(record.error?.message).toBe('check rule tw/duplicate-image took longer than 50 ms (--timeout); its worker was replaced');
    expect(lostRecord({ path: 'slow.map', member: null }, 100, { timeout: 50 }).error?.message).toMatch(/^decoding took longer/);
  });

  it('checkLevel tells which rule it is about to run, in order, so a worker can mark it', () => {
    const seen: string[] = [];
    checkLevel(teeworlds.decode(readBytes(MAP)), undefined, (r) => seen.push(r.id));
    expect(seen).toEqual(RULES.filter((r) => r.format === 'teeworlds').map((r) => r.id));
  });
});
