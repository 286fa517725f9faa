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
  /** Object number of each table id that is an object. */
  private readonly objectOf = new Map<number, number>();

  constructor(
    private readonly heap: AbstractHeap,
    private readonly mediaCount: number | undefined,
  ) {}

  read(): WherigoModel {
    const made: { table: AbstractTable; kind: WherigoKind }[] = [];
    for (const t of this.heap.tables) {
      const kind = t.made ? objectKind(t.made.by) : null;
      if (!kind) continue;
      this.objectOf.set(t.id, made.length);
      made.push({ table: t, kind });
    }
    let mediaRank = 0;
    const objects = made.map(({ table, kind }, n) => this.object(table, kind, n, kind === 'media' ? ++mediaRank : 0));
    return { from: this.heap.from, objects, messages: this.messages(objects), decoders: this.heap.decoders, notes: [...this.heap.notes] };
  }

  private object(t: AbstractTable, kind: WherigoKind, n: number, mediaRank: number): WherigoObject {
    const fields = this.fieldsOf(t);
    const get = (k: string) => fields.get(k);
    const handlers: WherigoHandler[] = [];
    for (const [event, v] of fields) {
      if (!event.startsWith('On') || v.kind !== 'function') continue;
      const fn = this.heap.functions[v.fn];
      handlers.push({ event, fn: v.fn, messages: fn?.messages ?? [], unknownMessages: fn?.unknownMessages ?? 0 });
    }
    const onInput = get('OnGetInput');
    return {
      n,
      kind,
      maker: t.made!.by,
      variable: t.names[0] ?? null,
      id: this.maybe(get('Id'), (v) => (v.kind === 'string' ? v.value.text : undefined), 'a string'),
      name: this.text(get('Name')),
      description: this.text(get('Description')),
      visible: this.bool(get('Visible')),
      active: this.bool(get('Active')),
      points: this.points(get('Points')),
      originalPoint: this.point(get('OriginalPoint')),
      location: this.point(get('ObjectLocation')),
      container: this.ref(get('Container')),
      media: this.ref(get('Media')),
      icon: this.ref(get('Icon')),
      commands: this.commands(get('Commands')),
      text: this.text(get('Text')),
      enabled: this.bool(get('Enabled')),
      inputType: kind === 'input' ? this.maybe(get('InputType'), (v) => (v.kind === 'string' ? v.value.text : undefined), 'a string') : null,
      choices: this.choices(get('Choices')),
      answers: onInput?.kind === 'function' ? (this.heap.functions[onInput.fn]?.compares ?? []) : [],
      duration: kind === 'timer' ? this.maybe(get('Duration'), (v) => (v.kind === 'number' ? v.value : undefined), 'a number of seconds') : null,
      timerType: kind === 'timer' ? this.maybe(get('Type'), (v) => (v.kind === 'string' ? v.value.text : undefined), 'a string') : null,
      resources: this.resources(get('Resources')),
      mediaObject: kind === 'media' && (this.mediaCount === undefined || mediaRank <= this.mediaCount) ? mediaRank : null,
      handlers,
    };
  }

  /** The object's fields: its constructor's table argument's, then its own (which win). */
  private fieldsOf(t: AbstractTable): Map<string, AbstractValue> {
    const arg = t.made?.args[0];
    const literal = arg?.kind === 'table' ? this.heap.tables[arg.table] : undefined;
    if (!literal || literal.made) return t.fields;
    const all = new Map(literal.fields);
    for (const [k, v] of t.fields) all.set(k, v);
    return all;
  }

  /** `read(v)` for a value of the expected sort; null when not set or nil; Unknown otherwise. */
  private maybe<T>(v: AbstractValue | undefined, read: (v: AbstractValue) => T | undefined, expected: string): Maybe<T> | null {
    if (v === undefined || v.kind === 'nil') return null;
    if (v.kind === 'unknown') return { unknown: v.why };
    const got = read(v);
    return got !== undefined ? got : { unknown: `${v.kind === 'builtin' ? v.name : `a ${v.kind}`} where ${expected} was expected` };
  }

  private text(v: AbstractValue | undefined): Maybe<Text> | null {
    return this.maybe(v, (x) => (x.kind === 'string' ? x.value : undefined), 'a text');
  }

  private bool(v: AbstractValue | undefined): Maybe<boolean> | null {
    return this.maybe(v, (x) => (x.kind === 'boolean' ? x.value : undefined), 'a boolean');
  }

  private table(v: AbstractValue | undefined): AbstractTable | undefined {
    return v?.kind === 'table' ? this.heap.tables[v.table] : undefined;
  }

  /** A list table's items in key order. */
  private items(t: AbstractTable): AbstractValue[] {
    return [...t.items].sort((x, y) => x[0] - y[0]).map(([, v]) => v);
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
    const [lat, lon, alt] = made.args;
    const la = this.number(lat);
    const lo = this.number(lon);
    if (typeof la !== 'number') return la;
    if (typeof lo !== 'number') return lo;
    return { lat: la, lon: lo, alt: this.altitude(alt) };
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
    const n = v.kind === 'table' ? this.objectOf.get(v.table) : undefined;
    return n !== undefined ? { n } : { unknown: 'not a Wherigo object' };
  }

  private commands(v: AbstractValue | undefined): { key: string; n: number }[] {
    const t = this.table(v);
    if (!t) return [];
    const out: { key: string; n: number }[] = [];
    for (const [key, c] of t.fields) {
      const n = c.kind === 'table' ? this.objectOf.get(c.table) : undefined;
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
        type: this.maybe(res.fields.get('Type'), (x) => (x.kind === 'string' ? x.value.text : undefined), 'a string'),
        filename: this.text(res.fields.get('Filename')),
      };
    });
  }

  /** Messages of every function of the main chunk (nested ones are in their parent's), by the object and event it handles. */
  private messages(objects: WherigoObject[]): WherigoModel['messages'] {
    const owner = new Map<number, { object: number; event: string }>();
    for (const o of objects) for (const h of o.handlers) if (!owner.has(h.fn)) owner.set(h.fn, { object: o.n, event: h.event });
    const out: WherigoModel['messages'] = [];
    for (const fn of this.heap.functions) {
      if (fn.parent !== undefined && fn.parent !== null) continue;
      const by = owner.get(fn.id);
      for (const text of fn.messages) out.push({ object: by?.object ?? null, event: by?.event ?? null, fn: fn.id, text });
    }
    return out;
  }
}
