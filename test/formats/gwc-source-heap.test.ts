// heapFromSource on small sources and fixtures/gwc/sample.gwz: what the main chunk leaves (globals,
// tables with their makers, fields, items and names), what handlers show and compare, string
// decoders evaluated on constants, and what is not followed left unknown (never guessed).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heapFromSource } from '../../src/formats/gwc/analysis/source-heap.js';
import type { AbstractHeap, AbstractTable, AbstractValue } from '../../src/formats/gwc/analysis/types.js';
import { autoText } from '../../src/formats/gwc/lua.js';
import { gwc } from '../../src/index.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const source = (lua: string) => autoText(new TextEncoder().encode(lua));
const heapOf = (lua: string) => heapFromSource(source(lua));

/** A value as plain JSON for comparisons: strings as text, tables as `#id`. */
function plain(v: AbstractValue | undefined): unknown {
  if (!v) return undefined;
  switch (v.kind) {
    case 'string':
      return v.value.text;
    case 'number':
    case 'boolean':
      return v.value;
    case 'table':
      return `#${v.table}`;
    case 'function':
      return `fn${v.fn}`;
    case 'builtin':
      return `builtin ${v.name}`;
    case 'nil':
      return null;
    case 'unknown':
      return '?';
  }
}
const fields = (t: AbstractTable) => Object.fromEntries([...t.fields].map(([k, v]) => [k, plain(v)]));
const items = (t: AbstractTable) => [...t.items].map(([k, v]) => [k, plain(v)]);
const tableOf = (h: AbstractHeap, global: string) => {
  const v = h.globals.get(global);
  if (v?.kind !== 'table') throw new Error(`${global} is not a table`);
  return h.tables[v.table]!;
};

/** Urwigo's decoder (a 127-byte table looked up by byte), with the identity table but for a↔b. */
const URWIGO_DECODER = `function _dec(str)
  local res = ""
  local dtable = "${Array.from({ length: 127 }, (_, i) => {
    const b = i + 1 === 97 ? 98 : i + 1 === 98 ? 97 : i + 1;
    return `\\${String(b).padStart(3, '0')}`;
  }).join('')}"
  for i=1, #str do
    local b = str:byte(i)
    if b > 0 and b <= 0x7F then
      res = res .. string.char(dtable:byte(b))
    else
      res = res .. string.char(b)
    end
  end
  return res
end
`;

describe('heapFromSource', () => {
  it('reads sample.gwz: the cartridge, its media and the resource tables, in the order made', () => {
    const gwz = gwc.decode(readBytes(join(FIXTURES, 'gwc/sample.gwz')));
    if (gwz.format !== 'gwz') throw new Error('not a gwz');
    const before = Uint8Array.from(gwz.lua.raw);
    const h = heapFromSource(gwz.lua, { fileName: gwz.luaFile });
    expect(gwz.lua.raw).toEqual(before); // nothing the caller passed is changed
    expect(h.from).toBe('source');
    expect([...h.globals.keys()]).toEqual(['cartSample', 'objIcon']);
    expect(h.tables.map((t) => [t.made?.by ?? null, t.made?.args.map(plain) ?? null, t.names])).toEqual([
      ['Wherigo.ZCartridge', [], ['cartSample']],
      ['Wherigo.ZMedia', ['#0'], ['objIcon']],
      [null, null, ['objIcon.Resources']],
      [null, null, []],
      [null, null, []],
    ]);
    expect(items(h.tables[2]!)).toEqual([[1, '#3']]);
    expect(fields(h.tables[3]!)).toEqual({ Type: 'jpg', Filename: 'Icon.jpg', Directives: '#4' });
    expect(h.tables[1]!.origin).toBe('_cartridge.lua line 4');
    expect(h.notes).toEqual([]);
  });

  it('follows constructors, aliases, negative coordinates, field paths and methods', () => {
    const h = heapFromSource(
      source(`require "Wherigo"
ZonePoint = Wherigo.ZonePoint
Distance = Wherigo.Distance
cart = Wherigo.ZCartridge()
zoneA = Wherigo.Zone(cart)
zoneA.Points = { ZonePoint(52.5, -13.25, 0), ZonePoint(52.6, -13.3, 0) }
zoneA.OriginalPoint = ZonePoint(52.55, -13.275, 0)
zoneA.ProximityRange = Distance(60, "meters")
item = Wherigo.ZItem{ Cartridge = cart, Container = zoneA }
item.Commands = { cmdLook = Wherigo.ZCommand{ Text = "Look", CmdWith = false } }
item.Commands.cmdLook.Custom = true
function item:OncmdLook(target)
  Wherigo.MessageBox{ Text = "You look." }
end
a, b = 1, "two"
do return cart end
ignored = 1
`),
      { fileName: 'x.lua' },
    );
    expect([...h.globals.keys()]).toEqual(['ZonePoint', 'Distance', 'cart', 'zoneA', 'item', 'b', 'a']);
    const zone = tableOf(h, 'zoneA');
    expect(zone.made).toEqual({ by: 'Wherigo.Zone', args: [{ kind: 'table', table: 0 }] });
    const points = h.tables[(zone.fields.get('Points') as { table: number }).table]!;
    expect(points.names).toEqual(['zoneA.Points']);
    const coords = [...points.items.values()].map((p) => h.tables[(p as { table: number }).table]!.made);
    expect(coords.map((m) => [m?.by, m?.args.map(plain)])).toEqual([
      ['Wherigo.ZonePoint', [52.5, -13.25, 0]],
      ['Wherigo.ZonePoint', [52.6, -13.3, 0]],
    ]);
    const range = h.tables[(zone.fields.get('ProximityRange') as { table: number }).table]!;
    expect(range.made?.args.map(plain)).toEqual([60, 'meters']);
    const item = tableOf(h, 'item');
    expect(item.made?.by).toBe('Wherigo.ZItem');
    expect(fields(h.tables[(item.made!.args[0] as { table: number }).table]!)).toEqual({ Cartridge: '#0', Container: '#1' });
    // The command got its name when the literal holding it was stored on the item.
    const cmd = h.tables.find((t) => t.made?.by === 'Wherigo.ZCommand')!;
    expect(cmd.names).toEqual(['item.Commands.cmdLook']);
    expect(fields(cmd)).toEqual({ Custom: true });
    expect(plain(item.fields.get('OncmdLook'))).toBe('fn0');
    expect(h.functions[0]).toMatchObject({ origin: 'x.lua lines 12–14', unknownMessages: 0, compares: [] });
    expect(h.functions[0]!.messages.map((t) => t.text)).toEqual(['You look.']);
    expect(h.functions[0]!.strings.map((t) => t.text)).toEqual(['You look.']);
    expect(h.globals.has('ignored')).toBe(false); // after the chunk's return
  });

  it('leaves what it does not follow unknown, with a note', () => {
    const h = heapOf(`obj = Wherigo.ZItem(cart)
obj.Visible = true
if math.random() > 0.5 then obj.Visible = false; flag = 1 end
function helper() obj.Name = "x" end
helper()
obj.Name = helper()
local n = 10
count = n * 2 + 1
label = "n=" .. n
`);
    const obj = tableOf(h, 'obj');
    expect(plain(obj.fields.get('Visible'))).toBe('?');
    expect(plain(h.globals.get('flag'))).toBe('?');
    expect(plain(obj.fields.get('Name'))).toBe('?');
    expect(plain(h.globals.get('count'))).toBe(21);
    expect(plain(h.globals.get('label'))).toBe('n=10');
    expect(h.notes).toEqual([
      '_cartridge.lua line 3: if statement not followed: what it assigns is unknown',
      '_cartridge.lua line 5: call of the function at _cartridge.lua line 4 not followed',
      '_cartridge.lua line 6: call of the function at _cartridge.lua line 4 not followed',
    ]);
  });

  it('reads messages, compared answers and strings of handlers, nested functions included', () => {
    const h = heapOf(`${URWIGO_DECODER}
input = Wherigo.ZInput(cart)
question = Wherigo.ZInput(cart)
question.Text = "What?"
function input:OnGetInput(answer)
  if answer == "bab" or Wherigo.NoCaseEquals(answer, _dec("bab")) then
    Wherigo.MessageBox{ Text = _dec("ab") .. "c", Callback = function() Wherigo.Dialog{ { Text = "one" }, { Text = answer } } end }
  elseif 3 == answer then
    _Urwigo.Dialog(false, { { Text = "two" } }, nil)
  end
  Wherigo.GetInput(question)
end
`);
    expect(h.decoders).toEqual([{ name: '_dec', origin: '_cartridge.lua lines 1–13', shape: 'urwigo-table' }]);
    const fn = h.functions[plain(tableOf(h, 'input').fields.get('OnGetInput')) === 'fn1' ? 1 : -1]!;
    expect(fn.compares.map((t) => t.text)).toEqual(['bab', 'aba']);
    expect(fn.messages.map((t) => t.text)).toEqual(['bac', 'one', 'two', 'What?']);
    expect(fn.unknownMessages).toBe(1); // { Text = answer }
    expect(fn.strings.map((t) => t.text)).toEqual(['bab', 'aba', 'ba', 'c', 'one', 'two']);
  });

  it('decodes calls of a decoder in the main chunk, and keeps text by the UTF-8-else-1252 rule', () => {
    const h = heapOf(`${URWIGO_DECODER}
obj = Wherigo.ZItem(cart)
obj.Name = _dec("abc")
obj.Description = _dec(someGlobal)
utf8 = "\\195\\164"
cp1252 = "\\228"
`);
    const obj = tableOf(h, 'obj');
    expect(obj.fields.get('Name')).toMatchObject({ kind: 'string', decoded: true, value: { text: 'bac' } });
    expect(plain(obj.fields.get('Description'))).toBe('?');
    expect(h.globals.get('utf8')).toMatchObject({ value: { text: 'ä', encoding: 'utf-8' } });
    expect(h.globals.get('cp1252')).toMatchObject({ value: { text: 'ä', encoding: 'windows-1252' } });
  });

  it('stores a long string’s line ends as the Lua compiler does: each one LF', () => {
    const h = heapOf('long = [[\r\nTaskTest\r\n\r\nby me\rend\n\r]]\nquoted = "a\\r\\n"');
    expect(plain(h.globals.get('long'))).toBe('TaskTest\n\nby me\nend\n');
    expect(plain(h.globals.get('quoted'))).toBe('a\r\n');
  });

  it('stores a backslash-escaped line end in a quoted string as the Lua compiler does: one LF', () => {
    // llex.c: `\` then CR LF, LF CR, CR or LF saves one LF (luaparse reads it the same way).
    const h = heapOf('crlf = "a\\\r\nb"\nlfcr = "a\\\n\rb"\ncr = "a\\\rb"\nlf = "a\\\nb"');
    for (const name of ['crlf', 'lfcr', 'cr', 'lf']) expect(plain(h.globals.get(name)), name).toBe('a\nb');
  });

  it('does not take a function that writes globals or calls others for a decoder', () => {
    const h = heapOf(`function f(s) seen = s return s .. "x" end
function g(s) return print(s) .. "" end
x = f("a")
y = g("a")`);
    expect(h.decoders).toEqual([]);
    expect(plain(h.globals.get('x'))).toBe('?');
  });
});

describe('heapFromSource reads fields as the bytecode front-end does', () => {
  it('finds an object’s first fields in its constructor’s table, and a field never set is unknown', () => {
    const h = heapOf(`item = Wherigo.ZItem{ Name = "Key", Cartridge = cart }
copy = item.Name
missing = item.Description
plainTable = {}
none = plainTable.x`);
    expect(plain(h.globals.get('copy'))).toBe('Key');
    expect(h.globals.get('missing')).toMatchObject({ kind: 'unknown', why: 'Description not set by the main chunk' });
    expect(plain(h.globals.get('none'))).toBeNull();
  });

  it('names an unnamed table by its first holder only', () => {
    const h = heapOf(`shared = {}
a = { inner = shared }
b = { inner = shared }`);
    expect(h.tables[0]!.names).toEqual(['shared']);
    // Stored in a table before that table has a name: the first name stays the only one.
    const c = heapOf(`a = { inner = {} }
b = { inner = a.inner }
a.again = a.inner`);
    expect(c.tables[1]!.names).toEqual(['a.inner', 'a.again']);
  });
});
