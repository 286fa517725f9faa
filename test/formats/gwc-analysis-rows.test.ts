// The index's rows of a cartridge's object model (#42): kinds, names and lat/lon in y/x, texts
// naming their object; a cartridge whose model fails keeps every other row and says why in a
// warnings row.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { objectModel } from '../../src/formats/gwc/analysis/index.js';
import { wherigoRows, zoneCentre } from '../../src/formats/gwc/analysis-rows.js';
import type { GwcCartridge } from '../../src/formats/gwc/types.js';
import { collectRows, levelRow } from '../../src/formats/rows.js';
import { DecodeError, decode, indexRows } from '../../src/index.js';
import { itCorpus } from '../helpers/needs.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';
import { pt, sampleModel, txt, wmodel, wobject } from '../helpers/wherigo-model.js';

const analysis = vi.hoisted(() => ({ fail: null as Error | null }));
vi.mock('../../src/formats/gwc/analysis/index.js', async (original) => {
  const real = await original<typeof import('../../src/formats/gwc/analysis/index.js')>();
  return {
    ...real,
    objectModel: (...args: Parameters<typeof real.objectModel>) => {
      if (analysis.fail) throw analysis.fail;
      return real.objectModel(...args);
    },
  };
});

const rowsOf = (model = sampleModel(), first = 5) =>
  collectRows((sink) => {
    wherigoRows(model, first, sink);
    sink.level(levelRow({}));
  });

describe('the object model as index rows', () => {
  it('makes one object row per object, of its kind, numbered after the rows before it', () => {
    const r = rowsOf();
    expect(r.objects.map((o) => [o.index, o.kind, o.name])).toEqual([
      [5, 'cartridge', 'Sample'],
      [6, 'zmedia', 'Picture'],
      [7, 'zone', 'Market square'],
      [8, 'zone', 'Park'],
      [9, 'item', 'Key'],
      [10, 'character', 'Guide'],
      [11, 'task', 'Find the key'],
      [12, 'timer', 'Wait'],
      [13, 'input', 'Code'],
      [14, 'command', null],
    ]);
  });

  it('puts a zone at the mean of its points and an item at its location: longitude in x, latitude in y', () => {
    const byName = new Map(rowsOf().objects.map((o) => [o.name, o]));
    expect(byName.get('Market square')!.x).toBeCloseTo(19.005, 9);
    expect(byName.get('Market square')!.y).toBeCloseTo(47.505, 9);
    expect(byName.get('Park')!.x).toBeCloseTo(19.03, 9);
    expect(byName.get('Park')!.y).toBeCloseTo((47.52 + 47.53 + 47.52) / 3, 9);
    expect([byName.get('Key')!.x, byName.get('Key')!.y]).toEqual([19.005, 47.505]);
    // An unknown location is no place, never a guessed one.
    expect([byName.get('Guide')!.x, byName.get('Guide')!.y]).toEqual([null, null]);
  });

  it('has no centre for a zone with an unknown point', () => {
    expect(zoneCentre([pt(1, 2), { unknown: 'computed' }])).toBeNull();
    expect(zoneCentre({ unknown: 'a call' })).toBeNull();
    expect(zoneCentre([])).toBeNull();
  });

  it('keeps the rest in fields, unknowns as ?, references as object numbers', () => {
    const byName = new Map(rowsOf().objects.map((o) => [o.name, o]));
    expect(byName.get('Park')!.fields).toMatchObject({ variable: 'zoneTriangle', visible: false, active: '?', points: 3 });
    expect(byName.get('Key')!.fields).toMatchObject({ container: 7, commands: 'cmdUse' });
    expect(byName.get('Guide')!.fields).toMatchObject({ container: 'Player' });
    expect(byName.get('Wait')!.fields).toMatchObject({ duration: 90, timer_type: 'Countdown' });
    expect(byName.get('Code')!.fields).toMatchObject({ input_type: 'MultipleChoice', handlers: 'OnGetInput' });
  });

  it('writes the texts of each object with its number: names, descriptions, question, choices, answers, messages', () => {
    const texts = rowsOf().texts;
    expect(texts.filter((t) => t.object === 13)).toEqual([
      { source: 'object-name', text: 'Code', object: 13 },
      { source: 'object-text', text: 'What is the code?', object: 13 },
      { source: 'choice', text: '1234', object: 13 },
      { source: 'choice', text: '4321', object: 13 },
      { source: 'answer', text: '4321', object: 13 },
      { source: 'message', text: 'Right!', object: 13 },
      { source: 'message', text: 'Wrong.', object: 13 },
    ]);
    expect(texts).toContainEqual({ source: 'object-description', text: 'Where it starts', object: 7 });
    expect(texts).toContainEqual({ source: 'message', text: 'Welcome to the square', object: 7 });
  });

  it("gives a message of a function set on no object to the level (object null), and an object's only once", () => {
    const model = wmodel([wobject(0, 'zone', null, { handlers: [{ event: 'OnEnter', fn: 0, messages: [txt('hi')], unknownMessages: 0 }] })]);
    model.messages.push({ object: null, event: null, fn: 1, text: txt('loose') });
    const texts = rowsOf(model, 0).texts;
    expect(texts).toEqual([
      { source: 'message', text: 'hi', object: 0 },
      { source: 'message', text: 'loose', object: null },
    ]);
  });
});

describe('a cartridge whose object model fails', () => {
  const basic = () => decode(readBytes(join(FIXTURES, 'gwc', 'basic.gwc')));

  it('keeps its header, media and string rows, and records the failure as a warnings row', () => {
    analysis.fail = new Error('boom');
    try {
      const r = indexRows(basic());
      expect(r.level.game).toBe('wherigo');
      expect(r.objects.map((o) => o.kind)).toContain('start');
      expect(r.texts.some((t) => t.source === 'lua-string' || t.source === 'name')).toBe(true);
      expect(r.warnings).toEqual([{ code: 'ANALYSIS_FAILED', message: 'object model: levelkit bug: boom', offset: null }]);
    } finally {
      analysis.fail = null;
    }
  });

  it("gives a typed refusal's code and offset", () => {
    analysis.fail = new DecodeError('gwc', 'LIMIT_EXCEEDED', { offset: 123, path: 'lua' });
    try {
      const w = indexRows(basic()).warnings;
      expect(w).toHaveLength(1);
      expect(w[0]).toMatchObject({ code: 'LIMIT_EXCEEDED', offset: 123 });
      expect(w[0]!.message).toMatch(/^object model: /);
    } finally {
      analysis.fail = null;
    }
  });
});

itCorpus('gwc', 'every corpus cartridge indexes its objects near its starting point, each text naming one of its objects', (dir) => {
  let zones = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.gwc'))) {
    const value = decode(readBytes(join(dir, name))) as GwcCartridge;
    const r = indexRows(value);
    expect(r.warnings, name).toEqual([]);
    const model = objectModel(value);
    const wherigo = r.objects.filter((o) => !['start', 'media'].includes(o.kind));
    expect(
      wherigo.map((o) => o.fields!.n),
      name,
    ).toEqual(model.objects.map((o) => o.n));
    const numbers = new Set(r.objects.map((o) => o.index));
    for (const t of r.texts) if (t.object !== null) expect(numbers.has(t.object), `${name}: ${t.source} ${t.text}`).toBe(true);
    // The header's starting point is the file's own, apart from the Lua: every zone lies near it
    // (within 0.5°, some 50 km) unless the cartridge is play-anywhere (360, 360).
    const { latitude, longitude } = value.header;
    for (const z of r.objects.filter((o) => o.kind === 'zone' && o.x !== null)) {
      zones++;
      if (latitude === 360) continue;
      expect(Math.abs(z.y! - latitude), `${name}: zone ${z.name} latitude`).toBeLessThan(0.5);
      expect(Math.abs(z.x! - longitude), `${name}: zone ${z.name} longitude`).toBeLessThan(0.5);
    }
  }
  expect(zones, 'zones placed across the corpus').toBeGreaterThan(0);
});
