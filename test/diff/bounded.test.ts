// diff at any size: no recursion or argument spread proportional to the input (a 600 × 600
// checkerboard of changed cells, 400 KB scripts that differ throughout), the line diff bounded by
// its caps with a coarse hunk that says so, and layer matching linear in the layers.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineHunks, MAX_EDITS, matchSequence } from '../../src/diff/index.js';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { diff, graal, teeworlds, textFrom } from '../../src/index.js';
import { CLI_ARGV } from '../helpers/cli.js';
import { FIXTURES, ROOT, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';

const SIDE = 600;
let tmp: string;
let mapA: string;
let mapB: string;
let nwA: string;
let nwB: string;

/** The all-items fixture with its game layer made SIDE × SIDE, cell i set to cell(x, y). */
function bigMap(cell: (x: number, y: number) => number): Uint8Array {
  const m: TeeworldsMap = teeworlds.decode(readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map')));
  const game = m.groups.flatMap((g) => g.layers).find((l) => l.kind === 'game');
  if (game?.kind !== 'game') throw new Error('the fixture has no game layer');
  game.width = SIDE;
  game.height = SIDE;
  const index = new Uint8Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) index[y * SIDE + x] = cell(x, y);
  game.tiles = { index, flags: new Uint8Array(SIDE * SIDE) };
  return teeworlds.encode(m);
}

/** A Graal .nw fixture whose first NPC's script is ~400 KB of one-letter lines, `letters` in turn. */
function bigScript(letters: string): Uint8Array {
  const level = graal.decode(readBytes(join(FIXTURES, 'graal/layers.nw')));
  if (level.format !== 'graal-nw' || !level.npcs.length) throw new Error('the fixture has no NPC');
  const lines = Array.from({ length: 200_000 }, (_, i) => letters[i % letters.length]!);
  level.npcs[0]!.script = textFrom(lines.join('\n'));
  return graal.encode(level);
}

/** `levelkit …args` from source, its whole output kept (the helper's 1 MiB buffer would cut a 180,000-line --json short). */
function cli(...args: string[]) {
  return spawnSync(process.execPath, [...CLI_ARGV, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, maxBuffer: 256 << 20 });
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'levelkit-diff-bounded-'));
  mapA = join(tmp, 'a.map');
  mapB = join(tmp, 'b.map');
  writeFileSync(
    mapA,
    bigMap(() => 0),
  );
  writeFileSync(
    mapB,
    bigMap((x, y) => (x + y) % 2),
  );
  nwA = join(tmp, 'a.nw');
  nwB = join(tmp, 'b.nw');
  writeFileSync(nwA, bigScript('ab'));
  writeFileSync(nwB, bigScript('cd'));
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('diff of big levels', () => {
  it('two 600 × 600 maps differing in every other cell: one 1 × 1 change per changed cell', () => {
    const changes = diff(teeworlds.decode(readBytes(mapA)), teeworlds.decode(readBytes(mapB)));
    expect(changes).toHaveLength((SIDE * SIDE) / 2);
    expect(changes[0]).toEqual({
      kind: 'tile',
      layer: changes[0]!.layer,
      layerKind: 'game',
      layerName: 'Game',
      group: 1,
      groupName: '#1 Game',
      x: 1,
      y: 0,
      w: 1,
      h: 1,
      cells: 1,
      from: { index: 0 },
      to: { index: 1 },
    });
    expect(changes.filter((c) => c.w !== 1 || c.h !== 1 || (c.x! + c.y!) % 2 !== 1)).toEqual([]);
  }, 60_000);

  it('the same maps on the command line: counts and the first changes, --json every change', () => {
    const r = cli('diff', mapA, mapB);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[0]).toMatch(/: 180000 changes: tile 180000$/);
    const json = cli('diff', '--json', mapA, mapB);
    expect(json.status).toBe(1);
    expect(json.stdout.trimEnd().split('\n')).toHaveLength(180_000);
  }, 60_000);

  it('two 400 KB scripts that differ throughout: one coarse hunk, in the library and on the command line', () => {
    const changes = diff(graal.decode(readBytes(nwA)), graal.decode(readBytes(nwB)));
    expect(changes).toHaveLength(1);
    const [hunk, ...more] = changes[0]!.hunks!;
    expect(more).toEqual([]);
    expect(hunk).toMatchObject({ fromLine: 1, toLine: 1, coarse: true });
    expect([hunk!.removed.length, hunk!.added.length]).toEqual([200_000, 200_000]);
    const r = cli('diff', nwA, nwB);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('@@ -1 +1 (200000 lines replaced by 200000: too different to align line by line)');
  }, 60_000);
});

describe('the line diff is bounded', () => {
  /** `a` with the hunks applied: must be `b` whatever the hunks are. */
  function apply(a: string[], hunks: ReturnType<typeof lineHunks>): string[] {
    const out: string[] = [];
    let i = 0;
    for (const h of hunks) {
      while (i < h.fromLine - 1) out.push(a[i++]!);
      expect(a.slice(i, i + h.removed.length)).toEqual(h.removed);
      i += h.removed.length;
      out.push(...h.added);
    }
    while (i < a.length) out.push(a[i++]!);
    return out;
  }

  it('past MAX_EDITS edits the middle is one coarse hunk, still a correct edit script; within it, a shortest one', () => {
    const rng = new Prng(38);
    const text = (n: number) => Array.from({ length: n }, () => `line ${rng.int(50)}`);
    const head = ['same first'];
    const tail = ['same last'];
    const a = [...head, ...text(5 * MAX_EDITS), ...tail];
    const b = [...head, ...text(5 * MAX_EDITS), ...tail];
    const hunks = lineHunks(a, b);
    expect(hunks).toHaveLength(1);
    expect(hunks[0]).toMatchObject({ fromLine: 2, toLine: 2, coarse: true });
    expect(apply(a, hunks)).toEqual(b);
    const near = a.slice();
    near[100] = 'changed';
    const small = lineHunks(a, near);
    expect(small).toEqual([{ fromLine: 101, toLine: 101, removed: [a[100]], added: ['changed'] }]);
  });

  it('layers matched in linear time: 100,000 layers in reverse order are all found moved', () => {
    const a = Array.from({ length: 100_000 }, (_, i) => ({ key: `tiles:${i}`, kind: 'tiles' }));
    const b = a.slice().reverse();
    const m = matchSequence(a, b);
    expect(m.pairs).toHaveLength(a.length);
    expect(m.added).toEqual([]);
    expect(m.removed).toEqual([]);
    expect(m.pairs.filter(([i, j]) => a[i]!.key !== b[j]!.key)).toEqual([]);
  }, 20_000);
});
