// The bytecode analysis on the real cartridges of ../shared/corpus/gwc: objects read by hand from
// the GWZ sources of the same cartridges (WF.Cartridges' TaskTest and Testsuite) and from the
// disassembly (openwig's tutorial, which has no GWZ), and every cartridge analysed without error.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { modelFacts, objectModel } from '../../src/formats/gwc/analysis/index.js';
import { decode, type GwcCartridge } from '../../src/formats/gwc/index.js';
import { itCorpus } from '../helpers/needs.js';

const facts = (dir: string, file: string) => {
  const model = objectModel(decode(readFileSync(join(dir, file))) as GwcCartridge);
  return { model, facts: modelFacts(model) };
};

itCorpus('gwc', 'TaskTest: its items, tasks and commands with their names and ids (Urwigo layout)', (dir) => {
  const { model, facts: f } = facts(dir, 'WF.Cartridges__TaskTest__498d36fc.gwc');
  // _cartridge.lua: objCompletion = Wherigo.ZItem{ Cartridge = cartTaskTest, Container = Player } …
  expect(f.filter((o) => o.kind === 'item').map((o) => [o.name, o.id, o.container])).toEqual([
    ['Completion', '5331dc8d-9033-44e9-a3cd-2950ab8b07d9', 'Player'],
    ['Correctness', '319864fc-3a19-4d5d-85be-2269cbe2e441', 'Player'],
    ['Active', 'e18c20d3-9587-4801-82cc-9b28772e9f3c', 'Player'],
    ['Visible', '77aeb0d9-86b2-43e9-8b68-9e1119b334e7', 'Player'],
    ['Icon', '344fb7f9-c556-4701-8502-bb3e26039250', 'Player'],
    ['State', 'a5ef61ca-03e0-4cc3-826e-cc1394bc4eee', 'Player'],
    ['Nulltask', '9c373e1a-6eb3-45e4-8356-237c36304aba', 'Player'],
  ]);
  expect(f.filter((o) => o.kind === 'task').map((o) => [o.name, o.visible, o.active, o.icon])).toEqual([
    ['Testtask', true, true, 1],
    ['Nulltask', false, true, null],
  ]);
  const completion = model.objects.find((o) => o.variable === 'objCompletion')!;
  expect(completion.commands.map((c) => [c.key, model.objects[c.n]!.variable])).toEqual([
    ['cmdComplete', 'objCompletion.Commands.cmdComplete'],
    ['cmdNotcomplete', 'objCompletion.Commands.cmdNotcomplete'],
  ]);
  expect(completion.handlers.map((h) => h.event)).toEqual(['OncmdComplete', 'OncmdNotcomplete']);
  const nulltask = model.objects.find((o) => o.variable === 'ztaskNulltask')!;
  expect(nulltask.handlers.map((h) => [h.event, h.messages.map((m) => m.text)])).toEqual([['OnClick', ['Called task OnClick event']]]);
});

itCorpus('gwc', 'Testsuite: the zone and its points as the GWZ source lists them', (dir) => {
  const { facts: f } = facts(dir, 'WF.Cartridges__Wherigo_Testsuite__d9ca8690.gwc');
  // PlayersZone.Points = { ZonePoint(47.6147950642962, 9.59668175816523, 0), … }
  expect(f.filter((o) => o.kind === 'zone')).toEqual([
    expect.objectContaining({
      name: 'PlayersZone',
      visible: true,
      active: false,
      points: [
        [47.6147950642962, 9.59668175816523],
        [47.6147372047947, 9.5964242660998],
        [47.6144189763918, 9.59629552006709],
      ],
    }),
  ]);
});

itCorpus('gwc', "openwig's tutorial (wherigo.com layout): a zone west of Greenwich, characters with media, a timer, an input", (dir) => {
  const { model, facts: f } = facts(dir, 'openwig__cartridge__1558619c.gwc');
  const zone = f.find((o) => o.kind === 'zone')!;
  expect(zone).toMatchObject({ name: '50 Meters Away', id: '25bdac1b-ad2f-4df6-86a2-9b0ac50006db', active: true });
  expect(zone.points).toEqual([
    [47.61422068, -122.34041333],
    [47.61422068, -122.33993053],
    [47.61427131, -122.33993053],
    [47.61427131, -122.34041333],
  ]);
  const captain = model.objects.find((o) => o.variable === 'zcharacterCaptainJon')!;
  expect(model.objects[(captain.media as { n: number }).n]!.variable).toBe('zmediacaptainjon');
  expect(f.find((o) => o.kind === 'timer')).toMatchObject({ name: 'getout', duration: 30 });
  expect(f.find((o) => o.kind === 'input')).toMatchObject({ name: 'nameinput', inputType: 'Text' });
  // 49 ZMedia, one per media object of the file, in order.
  expect(model.objects.filter((o) => o.kind === 'media').map((o) => o.mediaObject)).toEqual(Array.from({ length: 49 }, (_, i) => i + 1));
});

itCorpus(
  'gwc',
  'every corpus cartridge is analysed: its cartridge object first, then its other objects',
  (dir) => {
    for (const file of readdirSync(dir).filter((n) => n.endsWith('.gwc'))) {
      const { model } = facts(dir, file);
      expect(model.objects[0]?.kind, file).toBe('cartridge');
      expect(model.objects.length, file).toBeGreaterThan(3);
    }
  },
  60_000,
);
