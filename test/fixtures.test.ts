// The committed synthetic fixtures are exactly what the generators produce today.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAll } from '../fixtures/generators/index.js';
import { FIXTURES } from './helpers/paths.js';

describe('fixtures', () => {
  it('are reproduced byte for byte by fixtures/generators (run `npm run fixtures` after changing one)', async () => {
    const all = await generateAll();
    for (const [rel, bytes] of Object.entries(all)) {
      const p = join(FIXTURES, rel);
      expect(existsSync(p), `${rel} is committed`).toBe(true);
      expect(Buffer.compare(readFileSync(p), Buffer.from(bytes)), `${rel} is up to date`).toBe(0);
    }
  });
});
