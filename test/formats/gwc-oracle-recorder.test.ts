// The recording Wherigo library itself (test/oracles/wherigo-recorder.lua, run by
// test/helpers/wherigo-oracle.ts), on a cartridge written here: the facts it reports are exactly
// what the Lua builds, and what it cannot report fails loudly. The corpus suites
// (gwc-oracle.test.ts) can only check the oracle against itself; this pins what it means.
// Skipped visibly without lua5.1; failing under CI.
import { expect, it } from 'vitest';
import type { ObjectFacts } from '../../src/formats/gwc/analysis/types.js';
import { describeWith } from '../helpers/needs.js';
import { lua51, oracleFacts } from '../helpers/wherigo-oracle.js';

// Shaped as the builders write it: constructor tables (Urwigo's ZItem{…}), fields set afterwards,
// commands made inside a table constructor, obfuscated-style decimal escapes, a handler.
const CARTRIDGE = String.raw`
require "Wherigo"
ZonePoint = Wherigo.ZonePoint
Distance = Wherigo.Distance
Player = Wherigo.Player
cart = Wherigo.ZCartridge()
cart.Id = "0b1c-guid"
cart.Name = "Caf\195\169 \226\130\172"
icon = Wherigo.ZMedia(cart)
icon.Name = "Icon"
cart.Icon = icon
cart.Media = icon
zone = Wherigo.Zone{ Cartridge = cart, Name = "Z\233ro", Visible = true }
zone.Points = {
  ZonePoint(47.6147950642962, 9.59668175816523, 0),
  ZonePoint(-33.85, 151.2, Distance(3, "feet")),
  ZonePoint(0.1, -0.2)
}
zone.Active = false
item = Wherigo.ZItem{
  Cartridge = cart,
  Container = Player,
  Commands = { use = Wherigo.ZCommand{ Text = "Use", Enabled = true } }
}
item.Name = 'say "hi"\n\tnow\\'
item.Description = ""
item.Media = icon
box = Wherigo.ZItem(cart)
box.Container = zone
thing = Wherigo.ZThing(cart)
q = Wherigo.ZInput(cart)
q.InputType = "MultipleChoice"
q.Choices = { "A", "B" }
t = Wherigo.ZTimer(cart)
t.Duration = 2.5
function item:OnClick() error("a handler ran") end
Wherigo.MessageBox{ Text = "loaded" }
`;

const none = {
  id: null,
  name: null,
  description: null,
  visible: null,
  active: null,
  points: null,
  container: null,
  media: null,
  icon: null,
  inputType: null,
  choices: null,
  duration: null,
} as const;

describeWith(lua51(), 'the recording Wherigo library', () => {
  it('reports each object the main chunk makes, in order, as the Lua holds it', () => {
    const expected: ObjectFacts[] = [
      // UTF-8 text decodes as UTF-8, other bytes as Windows-1252 (as the library decodes a Lua string).
      { ...none, kind: 'cartridge', id: '0b1c-guid', name: 'Café €', media: 1, icon: 1 },
      { ...none, kind: 'media', name: 'Icon' },
      {
        ...none,
        kind: 'zone',
        name: 'Zéro',
        visible: true,
        active: false,
        points: [
          [47.6147950642962, 9.59668175816523],
          [-33.85, 151.2],
          [0.1, -0.2],
        ],
      },
      // The command is made while the item's table is built, before the item.
      { ...none, kind: 'command' },
      { ...none, kind: 'item', name: 'say "hi"\n\tnow\\', description: '', container: 'Player', media: 1 },
      { ...none, kind: 'item', container: 2 },
      { ...none, kind: 'other' },
      { ...none, kind: 'input', inputType: 'MultipleChoice', choices: ['A', 'B'] },
      { ...none, kind: 'timer', duration: 2.5 },
    ];
    expect(oracleFacts({ source: CARTRIDGE })).toEqual(expected);
  });

  it('fails loudly on what it cannot run or report', () => {
    expect(() => oracleFacts({ source: 'require "Wherigo"\nWherigo.Teleport(1)' })).toThrow(/Wherigo\.Teleport is not provided/);
    expect(() => oracleFacts({ source: 'this is not Lua' })).toThrow(/cannot load/);
    expect(() => oracleFacts({ source: 'require "Wherigo"\nz = Wherigo.Zone()\nz.Points = { { 1, 2 } }' })).toThrow(
      /object 0 \(Wherigo\.Zone\) Points\[1\] is a table, not a ZonePoint/,
    );
    expect(() => oracleFacts({ source: 'require "Wherigo"\nz = Wherigo.ZItem()\nz.Container = {}' })).toThrow(/Container is a table, not an object/);
    expect(() => oracleFacts({ source: 'require "Wherigo"\nz = Wherigo.ZTimer()\nz.Duration = 0/0' })).toThrow(/Duration is -?nan/);
    expect(() => oracleFacts({ source: 'while true do end' }, 300)).toThrow(/still running after 300 ms/);
  });
});
