// Which indexes readers may read without looking for each file's latest rows (disjointRuns): one
// run, or one run per shard of one sharded scan. Anything else (two runs of one shard, shards of
// two counts, adopted legacy parts, names levelkit does not make, no commits) takes the latest.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitName, legacyCommitName } from '../../src/archive-index/commits.js';
import { disjointRuns } from '../../src/archive-index/parts.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-disjoint-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function indexWithCommits(names: string[] | null): string {
  const dir = join(tmp, String(n++));
  mkdirSync(dir);
  if (names) {
    mkdirSync(join(dir, '_commits'));
    for (const name of names) writeFileSync(join(dir, '_commits', name), '{}');
  }
  return dir;
}

const RUN_A = '20261128T180005Z-f882bc';
const RUN_B = '20261128T190005Z-0a1b2c';

describe('disjointRuns', () => {
  it.each([
    ['one run, several commits', [commitName('all', RUN_A, 0), commitName('all', RUN_A, 1), commitName('all', RUN_A, 2)], true],
    [
      'one run per shard of one sharded scan',
      [commitName('s0of3', RUN_A, 0), commitName('s1of3', RUN_B, 0), commitName('s2of3', RUN_A, 0), commitName('s2of3', RUN_A, 1)],
      true,
    ],
    ['an index with no commit yet', [], true],
    ['two runs of the whole archive (a scan again, a --resume)', [commitName('all', RUN_A, 0), commitName('all', RUN_B, 0)], false],
    ['one shard run twice', [commitName('s0of2', RUN_A, 0), commitName('s1of2', RUN_A, 0), commitName('s0of2', RUN_B, 0)], false],
    ['shards of two counts', [commitName('s0of2', RUN_A, 0), commitName('s1of3', RUN_B, 0)], false],
    ['the whole archive and a shard', [commitName('all', RUN_A, 0), commitName('s0of2', RUN_A, 0)], false],
    ['adopted legacy parts', [legacyCommitName(RUN_A), commitName('all', RUN_A, 0)], false],
    ['a commit name levelkit does not make', ['mine.json', commitName('all', RUN_A, 0)], false],
  ])('%s: %s', (_, names, expected) => {
    expect(disjointRuns(indexWithCommits(names as string[]))).toBe(expected);
  });

  it('an index without _commits (written before commits) is not known to be disjoint', () => {
    expect(disjointRuns(indexWithCommits(null))).toBe(false);
  });

  it('temporary commit files (dot names) are not commits', () => {
    expect(disjointRuns(indexWithCommits([commitName('all', RUN_A, 0), `.${commitName('all', RUN_B, 0)}.tmp`]))).toBe(true);
  });
});
