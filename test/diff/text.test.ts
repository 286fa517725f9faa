// How `levelkit diff` prints a change for a person (src/cli/diff-text.ts): layers by number, kind and
// the names the editor shows, physics tiles by what they mean, and values too many to list said in
// those words, never as null (which reads as removed).
import { describe, expect, it } from 'vitest';
import { changeLines } from '../../src/cli/diff-text.js';
import { cellChanges } from '../../src/diff/index.js';

describe('changeLines', () => {
  it('names the layer and its group, and says what the tiles mean', () => {
    const [line] = changeLines({
      kind: 'tile',
      layer: 3,
      layerKind: 'game',
      layerName: 'Game',
      group: 1,
      groupName: '#1 Game',
      x: 5,
      y: 0,
      w: 3,
      h: 1,
      cells: 3,
      from: { index: 0 },
      to: { index: [3, 9, 2] },
      fromMeaning: 'air',
      toMeaning: ['unhookable', 'freeze', 'death'],
    });
    expect(line).toBe('  tile  layer 3 (game) "Game" in group "#1 Game"  at 5,0  3×1  {"index":0} → {"index":[3,9,2]}  (air → [unhookable, freeze, death])');
    expect(changeLines({ kind: 'group-changed', id: 0, group: 0, groupName: '#0', field: 'offsetX', from: 0, to: 3 })).toEqual([
      '  group-changed  group "#0"  offsetX:  0 → 3',
    ]);
  });

  it('says "too many different values to list" where a rectangle held too many, never null', () => {
    const side = 9;
    const grid = (f: (i: number) => number) => ({ width: side, height: side, columns: { tile: Uint8Array.from({ length: side * side }, (_, i) => f(i)) } });
    const [c] = cellChanges(
      grid(() => 0),
      grid((i) => 1 + (i % 5)),
      { layer: 1, layerKind: 'plane', layerName: 'Action' },
    );
    const [line] = changeLines(c!);
    expect(line).toBe('  tile  layer 1 (plane) "Action"  at 0,0  9×9  0 → too many different values to list (5 values)');
    expect(line).not.toContain('null');
    // A grid of several columns keeps the columns it could list.
    const two = (index: (i: number) => number, flags: number) => ({
      width: side,
      height: side,
      columns: { index: Uint8Array.from({ length: side * side }, (_, i) => index(i)), flags: new Uint8Array(side * side).fill(flags) },
    });
    const several = changeLines(
      cellChanges(
        two((i) => i % 3, 0),
        two((i) => 3 + (i % 7), 8),
        {},
      )[0]!,
    );
    expect(several[0]).toContain(
      '{"flags":0,"index": too many different values to list (3 values)} → {"flags":8,"index": too many different values to list (7 values)}',
    );
  });
});
