// modelFromHeap: the Wherigo objects in what the main function left (AbstractHeap), the same for
// either front-end. An object is a table a Wherigo constructor made (ZonePoint, Distance and
// Bearing make values, not objects), in the order made; its fields are its constructor's table
// argument's, then what was set on it later. What the heap does not pin down stays unknown.

import type { Text } from '../../../core/text.js';
import type {
  AbstractHeap,
  AbstractTable,
  AbstractValue,
  Maybe,
  ObjectRef,
  Unknown,
  WherigoHandler,
  WherigoKind,
  WherigoModel,
  WherigoObject,
  ZonePoint,
} from './types.js';

const KINDS: Record<string, WherigoKind> = {
  'Wherigo.ZCartridge': 'cartridge',
  'Wherigo.Zone': 'zone',
  'Wherigo.ZItem': 'item',
  'Wherigo.ZCharacter': 'character',
  'Wherigo.ZTask': 'task',
  'Wherigo.ZTimer': 'timer',
  'Wherigo.ZInput': 'input',
  'Wherigo.ZMedia': 'media',
  'Wherigo.ZCommand': 'command',
};

/** The kind of object constructor `by` makes, or null when it makes a value (ZonePoint, Distance …) or is not Wherigo's. */
export function objectKind(by: string): WherigoKind | null {
  const kind = KINDS[by];
  if (kind) return kind;
  return by.startsWith('Wherigo.Z') && by !== 'Wherigo.ZonePoint' ? 'other' : null;
}

/**
 * The fields the model reads of an object, each a slot of the array `ObjectReader.fields` fills:
 * one pass over the object's entries (a map lookup each) instead of a lookup per field read.
 */
const F = {
  Id: 0,
  Name: 1,
  Description: 2,
  Visible: 3,
  Active: 4,
  Points: 5,
  OriginalPoint: 6,
  ObjectLocation: 7,
  Container: 8,
  Media: 9,
  Icon: 10,
  Commands: 11,
  Text: 12,
  Enabled: 13,
  InputType: 14,
  Choices: 15,
  OnGetInput: 16,
  Duration: 17,
  Type: 18,
  Resources: 19,
} as const;
const SLOT = new Map<string, number>(Object.entries(F));
const SLOTS = SLOT.size;

/** Metres per unit of `Wherigo.Distance(v, unit)` (the units the players accept). */
const METRES: Record<string, number> = {
  m: 1,
  meter: 1,
  meters: 1,
  metre: 1,
  metres: 1,
  km: 1000,
  kilometer: 1000,
  kilometers: 1000,
  ft: 0.3048,
  feet: 0.3048,
  foot: 0.3048,
  mi: 1609.344,
  mile: 1609.344,
  miles: 1609.344,
  nauticalmiles: 1852,
  nm: 1852,
};

export function modelFromHeap(heap: AbstractHeap, opts: { mediaCount?: number } = {}): WherigoModel {
  return new ModelReader(heap, opts.mediaCount).read();
}

class ModelReader {
  /** Object number of each table id that is an object (by table id: ids are the tables' indexes). */
  private readonly objectOf: (number | undefined)[] = [];
  /** The kind each constructor name makes (a cartridge calls a handful of them, hundreds of times). */
  private readonly kinds = new Map<string, WherigoKind | null>();
  /** The current object's fields by slot (F), and its `On…` entries in the order first set. */
  private readonly slots: (AbstractValue | undefined)[] = [];
  private events = new Map<string, AbstractValue>();

  constructor(
    private readonly heap: AbstractHeap,
    private readonly mediaCount: number | undefined,
  ) {}

  read(): WherigoModel {
    const made: { table: AbstractTable; kind: WherigoKind }[] = [];
    for (const t of this.heap.tables) {
      const kind = t.made ? this.kindOf(t.made.by) : null;
      if (!kind) continue;
      this.objectOf[t.id] = made.length;
      made.push({ table: t, kind });
    }
    let mediaRank = 0;
    const objects = made.map(({ table, kind }, n) => this.object(table, kind, n, kind === 'media' ? ++mediaRank : 0));
    return { from: this.heap.from, objects, messages: this.messages(objects), decoders: this.heap.decoders, notes: [...this.heap.notes] };
  }

  private kindOf(by: string): WherigoKind | null {
    let kind = this.kinds.get(by);
    if (kind === undefined) {
      kind = objectKind(by);
      this.kinds.set(by, kind);
    }
    return kind;
  }

  private object(t: AbstractTable, kind: WherigoKind, n: number, mediaRank: number): WherigoObject {
    const f = this.fields(t);
    const handlers: WherigoHandler[] = [];
    for (const [event, v] of this.events) {
      if (v.kind !== 'function') continue;
      const fn = this.heap.functions[v.fn];
      handlers.push({ event, fn: v.fn, messages: fn?.messages ?? [], unknownMessages: fn?.unknownMessages ?? 0 });
    }
    const onInput = f[F.OnGetInput];
    return {
      n,
      kind,
      maker: t.made!.by,
      variable: t.names[0] ?? null,
      id: this.string(f[F.Id]),
      name: this.text(f[F.Name]),
      description: this.text(f[F.Description]),
      visible: this.bool(f[F.Visible]),
      active: this.bool(f[F.Active]),
      points: this.points(f[F.Points]),
      originalPoint: this.point(f[F.OriginalPoint]),
      location: this.point(f[F.ObjectLocation]),
      container: this.ref(f[F.Container]),
      media: this.ref(f[F.Media]),
      icon: this.ref(f[F.Icon]),
      commands: this.commands(f[F.Commands]),
      text: this.text(f[F.Text]),
      enabled: this.bool(f[F.Enabled]),
      inputType: kind === 'input' ? this.string(f[F.InputType]) : null,
      choices: this.choices(f[F.Choices]),
      answers: onInput?.kind === 'function' ? (this.heap.functions[onInput.fn]?.compares ?? []) : [],
      duration: kind === 'timer' ? this.seconds(f[F.Duration]) : null,
      timerType: kind === 'timer' ? this.string(f[F.Type]) : null,
      resources: this.resources(f[F.Resources]),
      mediaObject: kind === 'media' && (this.mediaCount === undefined || mediaRank <= this.mediaCount) ? mediaRank : null,
      handlers,
    };
  }

  /**
   * The object's fields the model reads, by slot, and its `On…` entries (this.events): its
   * constructor's table argument's, then its own (which win, in the argument's order).
   */
  private fields(t: AbstractTable): (AbstractValue | undefined)[] {
    for (let i = 0; i < SLOTS; i++) this.slots[i] = undefined;
    if (this.events.size > 0) this.events = new Map();
    const arg = t.made?.args[0];
    const literal = arg?.kind === 'table' ? this.heap.tables[arg.table] : undefined;
    if (literal && !literal.made) literal.fields.forEach(this.visit);
    t.fields.forEach(this.visit);
    return this.slots;
  }

  /** One entry of the object's fields (a Map.forEach callback, made once: no entry arrays). */
  private readonly visit = (v: AbstractValue, key: string) => {
    const slot = SLOT.get(key);
    if (slot !== undefined) this.slots[slot] = v;
    if (key.startsWith('On')) this.events.set(key, v);
  };

  // A field read as one sort: null when not set or nil, the value when of that sort, else Unknown
  // (one method per sort, no reader closure: the model reads a dozen fields of each object).

  private string(v: AbstractValue | undefined): Maybe<string> | null {
    if (v === undefined || v.kind === 'nil') return null;
    return v.kind === 'string' ? v.value.text : this.notA(v, 'a string');
  }

  private text(v: AbstractValue | undefined): Maybe<Text> | null {
    if (v === undefined || v.kind === 'nil') return null;
    return v.kind === 'string' ? v.value : this.notA(v, 'a text');
  }

  private bool(v: AbstractValue | undefined): Maybe<boolean> | null {
    if (v === undefined || v.kind === 'nil') return null;
    return v.kind === 'boolean' ? v.value : this.notA(v, 'a boolean');
  }

  private seconds(v: AbstractValue | undefined): Maybe<number> | null {
    if (v === undefined || v.kind === 'nil') return null;
    return v.kind === 'number' ? v.value : this.notA(v, 'a number of seconds');
  }

  /** Why a set value is not of the `expected` sort. */
  private notA(v: AbstractValue, expected: string): Unknown {
    if (v.kind === 'unknown') return { unknown: v.why };
    return { unknown: `${v.kind === 'builtin' ? v.name : `a ${v.kind}`} where ${expected} was expected` };
  }

  private table(v: AbstractValue | undefined): AbstractTable | undefined {
    return v?.kind === 'table' ? this.heap.tables[v.table] : undefined;
  }

  /** A list table's items in key order (a list made in order, as nearly all are, needs no sort). */
  private items(t: AbstractTable): AbstractValue[] {
    const out: AbstractValue[] = [];
    let last = Number.NEGATIVE_INFINITY;
    for (const [key, v] of t.items) {
      // Not `key < last`: a NaN key compares as neither, so it takes the sort, as before.
      if (!(key > last)) return [...t.items].sort((x, y) => x[0] - y[0]).map(([, v]) => v);
      last = key;
      out.push(v);
    }
    return out;
  }

  private number(v: AbstractValue | undefined): Maybe<number> {
    if (v?.kind === 'number') return v.value;
    return { unknown: v?.kind === 'unknown' ? v.why : 'not a number' };
  }

  /** `Wherigo.ZonePoint(lat, lon, alt)`; INVALID_ZONEPOINT is null. */
  private point(v: AbstractValue | undefined): Maybe<ZonePoint> | null {
    if (v === undefined || v.kind === 'nil' || (v.kind === 'builtin' && v.name === 'Wherigo.INVALID_ZONEPOINT')) return null;
    if (v.kind === 'unknown') return { unknown: v.why };
    const made = this.table(v)?.made;
    if (made?.by !== 'Wherigo.ZonePoint') return { unknown: 'not a ZonePoint' };
    const la = this.number(made.args[0]);
    const lo = this.number(made.args[1]);
    if (typeof la !== 'number') return la;
    if (typeof lo !== 'number') return lo;
    return { lat: la, lon: lo, alt: this.altitude(made.args[2]) };
  }

  /** A ZonePoint's altitude in metres: a `Wherigo.Distance(v, unit)`, or a number (metres). */
  private altitude(v: AbstractValue | undefined): Maybe<number> | null {
    if (v === undefined || v.kind === 'nil') return null;
    if (v.kind === 'number') return v.value;
    const t = this.table(v);
    if (t?.made?.by === 'Wherigo.Distance') {
      const [value, unit] = t.made.args;
      const per = unit === undefined || unit.kind === 'nil' ? 1 : unit.kind === 'string' ? METRES[unit.value.text.toLowerCase()] : undefined;
      if (value?.kind === 'number' && per !== undefined) return value.value * per;
      return { unknown: 'a distance whose value or unit is not known' };
    }
    return { unknown: v.kind === 'unknown' ? v.why : 'an altitude that is not a Distance' };
  }

  private points(v: AbstractValue | undefined): Maybe<ZonePoint>[] | Unknown | null {
    if (v === undefined || v.kind === 'nil') return null;
    const t = this.table(v);
    if (!t || t.made) return { unknown: v.kind === 'unknown' ? v.why : 'not a list of ZonePoints' };
    return this.items(t).map((p) => this.point(p) ?? { unknown: 'no point' });
  }

  private ref(v: AbstractValue | undefined): Maybe<ObjectRef> | null {
    if (v === undefined || v.kind === 'nil') return null;
    if (v.kind === 'unknown') return { unknown: v.why };
    if (v.kind === 'builtin') return { builtin: v.name.startsWith('Wherigo.') ? v.name.slice(8) : v.name };
    const n = v.kind === 'table' ? this.objectOf[v.table] : undefined;
    return n !== undefined ? { n } : { unknown: 'not a Wherigo object' };
  }

  private commands(v: AbstractValue | undefined): { key: string; n: number }[] {
    const t = this.table(v);
    if (!t) return [];
    const out: { key: string; n: number }[] = [];
    for (const [key, c] of t.fields) {
      const n = c.kind === 'table' ? this.objectOf[c.table] : undefined;
      if (n !== undefined) out.push({ key, n });
    }
    return out;
  }

  private choices(v: AbstractValue | undefined): Maybe<Text>[] | Unknown | null {
    if (v === undefined || v.kind === 'nil') return null;
    const t = this.table(v);
    if (!t) return { unknown: v.kind === 'unknown' ? v.why : 'not a list' };
    return this.items(t).map((c) => this.text(c) ?? { unknown: 'nil' });
  }

  private resources(v: AbstractValue | undefined): WherigoObject['resources'] {
    const t = this.table(v);
    if (!t) return [];
    return this.items(t).map((r) => {
      const res = this.table(r);
      if (!res) return { type: { unknown: 'not a resource table' }, filename: { unknown: 'not a resource table' } };
      return {
        type: this.string(res.fields.get('Type')),
        filename: this.text(res.fields.get('Filename')),
      };
    });
  }

  /** Messages of every function of the main chunk (nested ones are in their parent's), by the object and event it handles. */
  private messages(objects: WherigoObject[]): WherigoModel['messages'] {
    // By function id (ids are the functions' indexes): the first handler of each.
    const owner: ({ object: number; event: string } | undefined)[] = new Array(this.heap.functions.length);
    for (const o of objects) for (const h of o.handlers) owner[h.fn] ??= { object: o.n, event: h.event };
    const out: WherigoModel['messages'] = [];
    for (const fn of this.heap.functions) {
      if (fn.parent !== undefined && fn.parent !== null) continue;
      if (fn.messages.length === 0) continue;
      const by = owner[fn.id];
      for (const text of fn.messages) out.push({ object: by?.object ?? null, event: by?.event ?? null, fn: fn.id, text });
    }
    return out;
  }
}
