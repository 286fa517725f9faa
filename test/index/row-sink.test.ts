// The index builder takes a level's rows as writeRows() calls them (no row arrays): what it writes
// equals what it writes from indexRows()' gathered rows replayed one by one (so a format's own
// JSON text for object fields is JSON.stringify's), and a level whose rows fail part-way, or that
// is never finished, leaves no row behind.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LevelRowsBuilder } from '../../src/archive-index/level-rows.js';
import type { LevelRows, RowSink } from '../../src/formats/define.js';
import { levelRow } from '../../src/formats/rows.js';
import { indexRows, writeRows, wwd } from '../../src/index.js';
import { decodedFixtures, FIXTURE_FILES } from '../helpers/fixture-levels.js';
import { readBytes } from '../helpers/paths.js';

const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Calls on `sink` that give back `rows` (objects' fields as objects, so the builder stringifies them). */
function replay(rows: LevelRows, sink: RowSink): void {
  for (const r of rows.layers) sink.layer(r);
  // One call per layer, in the order the rows came.
  for (let i = 0; i < rows.tiles.length; ) {
    const { layer, kind } = rows.tiles[i]!;
    const run = [];
    while (i < rows.tiles.length && rows.tiles[i]!.layer === layer && rows.tiles[i]!.kind === kind) run.push(rows.tiles[i++]!);
    sink.tiles(
      layer,
      kind,
      run.map((t) => t.tile),
      run.map((t) => t.count),
    );
  }
  for (const r of rows.objects) sink.object(r);
  for (const t of rows.texts) sink.text(t.source, t.text, t.object ?? undefined);
  for (const r of rows.images) sink.image(r);
  for (const w of rows.warnings) sink.warning?.(w.code, w.message, w.offset);
  sink.level(rows.level);
}

describe('the index builder and writeRows()', () => {
  it('write exactly what indexRows() gathers, for every fixture level of every format', () => {
    const formats = new Set<string>();
    for (const { path, value } of decodedFixtures()) {
      const direct = new LevelRowsBuilder(hash);
      direct.addLevel('0123456789abcdef', value.format, (sink) => writeRows(value, sink))({ n: 1 });
      const replayed = new LevelRowsBuilder(hash);
      replayed.addLevel('0123456789abcdef', value.format, (sink) => replay(indexRows(value), sink))({ n: 1 });
      expect(direct.take(), path).toEqual(replayed.take());
      formats.add(value.format);
    }
    expect(formats.size).toBeGreaterThanOrEqual(6);
  });

  it('keep no row of a level whose rows fail part-way, nor of one never finished', () => {
    const { value } = decodedFixtures().find(({ value }) => value.format === 'wwd')!;
    const b = new LevelRowsBuilder(hash);
    b.addLevel('aaaaaaaaaaaaaaaa', value.format, (sink) => writeRows(value, sink))({});
    const one = b.take();
    expect(one?.[0]?.rows).toBe(1);

    b.addLevel('aaaaaaaaaaaaaaaa', value.format, (sink) => writeRows(value, sink))({});
    expect(() =>
      b.addLevel('bbbbbbbbbbbbbbbb', value.format, (sink) => {
        writeRows(value, { ...sink, level: () => {} });
        sink.text('x', 'y');
        throw new Error('a damaged stream');
      }),
    ).toThrow('a damaged stream');
    // Never finished: dropped when the batch is taken.
    b.addLevel('cccccccccccccccc', value.format, (sink) => writeRows(value, sink));
    expect(b.take()).toEqual(one);

    // A level that wrote no level row is refused, and leaves nothing either.
    expect(() => b.addLevel('dddddddddddddddd', value.format, (sink) => sink.text('x', 'y'))).toThrow(/no level row/);
    expect(b.take()).toBeNull();

    // A level whose finishing failed: its rows go, the failure's warnings row stays.
    b.addLevel('eeeeeeeeeeeeeeee', value.format, (sink) => writeRows(value, sink));
    b.addFailure('eeeeeeeeeeeeeeee', 'INDEX_ROWS_FAILED', 'levelkit bug: a test');
    const failed = b.take()!;
    expect(failed.map((t) => t?.rows ?? 0)).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });

  it("write a format's warning about its rows into warnings beside them, and drop it with them", () => {
    const b = new LevelRowsBuilder(hash);
    const warned = (sink: RowSink) => {
      sink.text('x', 'y');
      sink.warning?.('ANALYSIS_FAILED', 'object model: a test', 12);
      sink.level(levelRow({}));
    };
    b.addLevel('aaaaaaaaaaaaaaaa', 'gwc', warned)({});
    expect(b.take()!.map((t) => t?.rows ?? 0)).toEqual([1, 0, 0, 0, 1, 0, 1]);
    // Never finished: its warning goes with its other rows.
    b.addLevel('bbbbbbbbbbbbbbbb', 'gwc', warned);
    expect(b.take()).toBeNull();
  });
});

describe('WWD objectStrings()', () => {
  it("gives the texts the tables' Texts hold, before and after they are read, and a changed Text's new text", () => {
    let objects = 0;
    for (const path of FIXTURE_FILES.filter((p) => p.endsWith('.wwd'))) {
      let level: wwd.WwdLevel;
      try {
        level = wwd.decode(readBytes(path));
      } catch {
        continue;
      }
      for (const plane of level.planes) {
        const t = plane.objects;
        const before = wwd.objectStrings(t);
        const texts = wwd.OBJECT_STRINGS.map((k) => t[k].map((x) => x.text));
        expect(before, path).toEqual(texts);
        expect(wwd.objectStrings(t)).toEqual(texts);
        objects += t.count;
        if (t.count) {
          t.logic[0]!.text = 'ChangedLogic';
          expect(wwd.objectStrings(t)[1]![0]).toBe('ChangedLogic');
        }
      }
    }
    expect(objects).toBeGreaterThan(10);
  });
});
