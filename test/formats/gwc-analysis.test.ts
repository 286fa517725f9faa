// The object model of a cartridge by static analysis of its bytecode (issue 42), on the fixture
// fixtures/gwc/analysis.gwc: a chunk luac5.1 compiled from fixtures/gwc/lua/analysis.lua, whose
// objects and messages are read here by hand from that source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeText } from '../../src/core/text.js';
import { heapFromChunk, modelFacts, modelFromHeap, objectModel } from '../../src/formats/gwc/analysis/index.js';
import { isUnknown, type WherigoModel } from '../../src/formats/gwc/analysis/types.js';
import { decode, decodeLua, encodeGwz, type GwcCartridge } from '../../src/formats/gwc/index.js';
import { FIXTURES } from '../helpers/paths.js';

const cart = decode(readFileSync(join(FIXTURES, 'gwc/analysis.gwc'))) as GwcCartridge;
const model: WherigoModel = objectModel(cart);
const byVar = (v: string) => model.objects.find((o) => o.variable === v)!;
const texts = (ts: { text: string }[]) => ts.map((t) => t.text);

describe('objectModel of a GWC (bytecode)', () => {
  it('finds every object a Wherigo constructor made, in the order made, with its first name', () => {
    expect(model.from).toBe('bytecode');
    expect(model.objects.map((o) => [o.n, o.kind, o.variable])).toEqual([
      [0, 'cartridge', 'cartFixture'],
      [1, 'media', 'objIcon'],
      [2, 'media', 'objSplash'],
      [3, 'media', 'objSound'],
      [4, 'zone', 'zoneHarbour'],
      [5, 'item', 'zitemKey'],
      [6, 'command', 'zitemKey.Commands.cmdTake'],
      [7, 'item', 'zitemLamp'],
      [8, 'character', 'zcharGuide'],
      [9, 'task', 'ztaskFind'],
      [10, 'timer', 'ztimerTick'],
      [11, 'input', 'zinputDoor'],
    ]);
  });

  it('reads names (a concatenation of constants too), ids, flags, and media by rank', () => {
    expect(byVar('cartFixture').name).toMatchObject({ text: 'Fixture cartridge' });
    expect(byVar('cartFixture').id).toBe('c0ffee00-0000-4000-8000-000000000001');
    expect(
      model.objects.filter((o) => o.kind === 'media').map((o) => [o.mediaObject, o.resources.map((r) => [r.type, (r.filename as { text: string }).text])]),
    ).toEqual([
      [1, [['jpg', 'Icon.jpg']]],
      [2, [['png', 'Splash.png']]],
      [3, [['mp3', 'ok.mp3']]],
    ]);
    expect(byVar('ztaskFind').active).toBe(true);
    expect(byVar('ztimerTick')).toMatchObject({ duration: 90, timerType: 'Countdown' });
  });

  it('reads zone points (a negated local longitude, a Distance altitude in metres) and the original point', () => {
    const zone = byVar('zoneHarbour');
    expect(zone.points).toEqual([
      { lat: 47.25, lon: -122.5, alt: 0 },
      { lat: 47.5, lon: -122.25, alt: 100 * 0.3048 },
      { lat: 47.75, lon: -122.5, alt: 0 },
    ]);
    expect(zone.originalPoint).toEqual({ lat: 47.5, lon: -122.4, alt: 0 });
    expect(zone.media).toEqual({ n: 2 });
  });

  it("takes a constructor's table argument as the object's first fields, and later sets on top", () => {
    const key = byVar('zitemKey');
    expect(key.container).toEqual({ n: 4 });
    expect(key.icon).toEqual({ n: 1 });
    expect(key.location).toEqual({ lat: 47.5, lon: -122.3, alt: 0 });
    expect(key.commands).toEqual([{ key: 'cmdTake', n: 6 }]);
    expect(model.objects[6]).toMatchObject({ text: { text: 'Take' }, enabled: true });
    const lamp = byVar('zitemLamp');
    expect(lamp.container).toEqual({ builtin: 'Player' });
    expect(lamp.location).toBeNull(); // Wherigo.INVALID_ZONEPOINT
  });

  it('never guesses a field set on one branch of an if', () => {
    const visible = byVar('zitemLamp').visible;
    expect(isUnknown(visible)).toBe(true);
    expect(visible).toMatchObject({ unknown: expect.stringContaining('one branch') });
  });

  it('reads an input: question, type, choices, and the answers its OnGetInput compares with', () => {
    const door = byVar('zinputDoor');
    expect(door.text).toMatchObject({ text: 'Which door?' });
    expect(door.inputType).toBe('MultipleChoice');
    expect(texts(door.choices as { text: string }[])).toEqual(['Red', 'Blue']);
    expect(texts(door.answers)).toEqual(['Red', 'blue']);
  });

  it('lists the messages of each handler, nested callbacks included, and counts the ones it cannot read', () => {
    expect(byVar('zoneHarbour').handlers.map((h) => [h.event, texts(h.messages), h.unknownMessages])).toEqual([
      ['OnEnter', ['Welcome to the harbour', 'Look around'], 0],
    ]);
    // "Try " .. input is not known before the player answers.
    expect(byVar('zinputDoor').handlers.map((h) => [h.event, texts(h.messages), h.unknownMessages])).toEqual([['OnGetInput', ['Right', 'Almost'], 1]]);
    // GetInput shows the input's question.
    expect(byVar('zitemKey').handlers.map((h) => [h.event, texts(h.messages)])).toEqual([['OncmdTake', ['Which door?']]]);
    expect(model.messages.map((m) => [m.object, m.event, m.text.text])).toEqual([
      [4, 'OnEnter', 'Welcome to the harbour'],
      [4, 'OnEnter', 'Look around'],
      [11, 'OnGetInput', 'Right'],
      [11, 'OnGetInput', 'Almost'],
      [5, 'OncmdTake', 'Which door?'],
    ]);
  });

  it('gives the facts the real-Lua oracle compares with', () => {
    const facts = modelFacts(model);
    expect(facts[4]).toEqual({
      kind: 'zone',
      id: 'zone-1',
      name: 'Harbour',
      description: null,
      visible: true,
      active: true,
      points: [
        [47.25, -122.5],
        [47.5, -122.25],
        [47.75, -122.5],
      ],
      container: null,
      media: 2,
      icon: null,
      inputType: null,
      choices: null,
      duration: null,
    });
    expect(facts[7]).toMatchObject({ name: 'Lamp', visible: '?', container: 'Player' });
    expect(facts[11]).toMatchObject({ inputType: 'MultipleChoice', choices: ['Red', 'Blue'] });
  });

  it('writes nothing it was given, and a heap gives the same model twice', () => {
    const chunk = decodeLua(cart);
    const raw = chunk.code.raw.slice();
    const k0 = JSON.stringify(chunk.main.k.map((k) => (k.type === 'string' ? k.value.text : k.type)));
    const heap = heapFromChunk(chunk);
    expect(chunk.code.raw).toEqual(raw);
    expect(JSON.stringify(chunk.main.k.map((k) => (k.type === 'string' ? k.value.text : k.type)))).toBe(k0);
    expect(modelFacts(modelFromHeap(heap, { mediaCount: 3 }))).toEqual(modelFacts(model));
  });

  it('gives a GWZ of the same source the same objects (the source front-end, wired in objectModel)', () => {
    const sample = decode(readFileSync(join(FIXTURES, 'gwc/sample.gwz')));
    if (sample.format !== 'gwz') throw new Error('sample.gwz is not a GWZ');
    const source = readFileSync(join(FIXTURES, 'gwc/lua/analysis.lua'));
    const gwz = decode(encodeGwz({ ...sample, lua: makeText(new Uint8Array(source), 'utf-8') }));
    const fromSource = objectModel(gwz);
    expect(fromSource.from).toBe('source');
    expect(modelFacts(fromSource)).toEqual(modelFacts(model));
  });

  it("refuses a GWZ decoded with sections 'summary' (its source is not read) rather than give it no objects", () => {
    const summary = decode(readFileSync(join(FIXTURES, 'gwc/sample.gwz')), { sections: 'summary' });
    expect(() => objectModel(summary)).toThrow(/sections 'all'/);
  });

  it('validates its options, naming the one at fault', () => {
    expect(() => objectModel(cart, { maxStep: 5 } as never)).toThrow(/unknown objectModel option 'maxStep'/);
    expect(() => objectModel(cart, { maxSteps: '5' } as never)).toThrow(/'maxSteps' must be a number/);
    expect(() => objectModel(cart, { maxTables: 0 })).toThrow(/'maxTables' must be a whole number/);
    expect(() => objectModel(cart, { maxEntries: 1.5 })).toThrow(/'maxEntries' must be a whole number/);
    const opts = Object.freeze({ maxSteps: 10 });
    expect(() => objectModel(cart, opts)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
  });
});
