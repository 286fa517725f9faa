// assembly/status.ts and src/kernels/status.ts must agree value for value.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/kernels/status.js';
import { ROOT } from '../helpers/paths.js';

describe('kernel status codes', () => {
  it('match between AssemblyScript and TypeScript', () => {
    const src = readFileSync(join(ROOT, 'assembly/status.ts'), 'utf8');
    const as = Object.fromEntries([...src.matchAll(/STATUS_(\w+): i32 = (-?\d+)/g)].map((m) => [m[1], Number(m[2])]));
    expect(Object.keys(as).length).toBeGreaterThan(0);
    expect(as).toEqual({ ...Status });
  });
});
