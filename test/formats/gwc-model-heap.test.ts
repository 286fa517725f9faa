// modelFromHeap on heaps written by hand (issue 42): the cases the model reads by a fast path
// — an object's fields in one pass over its constructor's table argument and its own entries, a
// list read without a sort when made in key order — and the ones that must leave it.
import { describe, expect, it } from 'vitest';
import { textFrom } from '../../src/core/text.js';
import { modelFromHeap } from '../../src/formats/gwc/analysis/index.js';
import type { AbstractFunction, AbstractHeap, AbstractTable, AbstractValue } from '../../src/formats/gwc/analysis/types.js';

const str = (s: string): AbstractValue => ({ kind: 'string', value: textFrom(s) });
const num = (value: number): AbstractValue => ({ kind: 'number', value });
const fn = (n: number): AbstractValue => ({ kind: 'function', fn: n });
const ref = (table: number): AbstractValue => ({ kind: 'table', table });

function table(id: number, made: AbstractTable['made'], fields: [string, AbstractValue][] = [], items: [number, AbstractValue][] = []): AbstractTable {
  return { id, made, fields: new Map(fields), items: new Map(items), names: [], origin: `test table ${id}` };
}

function fnAt(id: number, message: string): AbstractFunction {
  return { id, origin: `test function ${id}`, messages: [textFrom(message)], unknownMessages: 0, compares: [], strings: [] };
}

function heapOf(tables: AbstractTable[]): AbstractHeap {
  const functions = [0, 1, 2, 3].map((id) => fnAt(id, `message of ${id}`));
  return { from: 'bytecode', globals: new Map(), tables, functions, decoders: [], notes: [] };
}

const point = (id: number, lat: number): AbstractTable => table(id, { by: 'Wherigo.ZonePoint', args: [num(lat), num(8), num(0)] });

describe('modelFromHeap, heaps written by hand', () => {
  it("merges a constructor's table argument and the object's own entries: own values win, handlers keep the argument's order", () => {
    const heap = heapOf([
      table(0, null, [
        ['Name', str('from the argument')],
        ['OnEnter', fn(0)],
        ['OnClick', fn(1)],
        ['OnExit', str('not a function')],
        ['Description', str('kept')],
      ]),
      table(1, { by: 'Wherigo.ZItem', args: [ref(0)] }, [
        ['OnSetCompleted', fn(2)],
        ['OnClick', fn(3)],
        ['Name', str('its own')],
        ['OnExit', fn(1)],
      ]),
    ]);
    const [item] = modelFromHeap(heap).objects;
    expect(item).toMatchObject({ kind: 'item', name: { text: 'its own' }, description: { text: 'kept' } });
    expect(item!.handlers.map((h) => [h.event, h.fn])).toEqual([
      ['OnEnter', 0],
      ['OnClick', 3],
      ['OnExit', 1],
      ['OnSetCompleted', 2],
    ]);
    // Each main-chunk function's messages once, by the first handler that runs it.
    expect(modelFromHeap(heap).messages.map((m) => [m.fn, m.event])).toEqual([
      [0, 'OnEnter'],
      [1, 'OnExit'],
      [2, 'OnSetCompleted'],
      [3, 'OnClick'],
    ]);
  });

  it('reads a table argument that is itself an object as no fields of its own (the cartridge passed to ZItem)', () => {
    const heap = heapOf([
      table(0, { by: 'Wherigo.ZCartridge', args: [] }, [['Name', str('the cartridge')]]),
      table(1, { by: 'Wherigo.ZItem', args: [ref(0)] }, [['Description', str('an item')]]),
    ]);
    expect(modelFromHeap(heap).objects[1]).toMatchObject({ name: null, description: { text: 'an item' } });
  });

  it('reads a list in key order whatever the order its items were set in', () => {
    const heap = heapOf([
      point(0, 47.1),
      point(1, 47.2),
      point(2, 47.3),
      table(
        3,
        null,
        [],
        [
          [3, ref(2)],
          [1, ref(0)],
          [2, ref(1)],
        ],
      ),
      table(
        4,
        null,
        [],
        [
          [2, str('second')],
          [1, str('first')],
        ],
      ),
      table(5, { by: 'Wherigo.Zone', args: [] }, [['Points', ref(3)]]),
      table(6, { by: 'Wherigo.ZInput', args: [] }, [['Choices', ref(4)]]),
    ]);
    const [zone, input] = modelFromHeap(heap).objects;
    expect((zone!.points as { lat: number }[]).map((p) => p.lat)).toEqual([47.1, 47.2, 47.3]);
    expect((input!.choices as { text: string }[]).map((c) => c.text)).toEqual(['first', 'second']);
  });

  it('says what a field holds when it is not of the sort read', () => {
    const heap = heapOf([
      table(0, { by: 'Wherigo.ZTimer', args: [] }, [
        ['Visible', { kind: 'builtin', name: 'Wherigo.Player' }],
        ['Name', num(3)],
        ['Duration', str('ninety')],
        ['Id', { kind: 'unknown', why: 'set in a loop' }],
        ['Type', { kind: 'nil' }],
      ]),
    ]);
    expect(modelFromHeap(heap).objects[0]).toMatchObject({
      visible: { unknown: 'Wherigo.Player where a boolean was expected' },
      name: { unknown: 'a number where a text was expected' },
      duration: { unknown: 'a string where a number of seconds was expected' },
      id: { unknown: 'set in a loop' },
      timerType: null,
    });
  });
});
