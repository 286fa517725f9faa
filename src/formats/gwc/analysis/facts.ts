// modelFacts: the comparable part of each object (types.ts ObjectFacts) — plain JSON, texts as
// strings, references as object numbers (the player as `Player`), unknowns as `?` — for tests
// against a cartridge run by a real Lua and for GWC ↔ GWZ agreement.

import type { Text } from '../../../core/text.js';
import { isUnknown, type Maybe, type ObjectFacts, type ObjectRef, type Unknown, type WherigoModel, type ZonePoint } from './types.js';

export function modelFacts(model: WherigoModel): ObjectFacts[] {
  return model.objects.map((o) => ({
    kind: o.kind,
    id: plain(o.id, (s) => s),
    name: plain(o.name, text),
    description: plain(o.description, text),
    visible: plain(o.visible, (b) => b),
    active: plain(o.active, (b) => b),
    points: o.points === null ? null : isUnknown(o.points) ? '?' : (o.points as Maybe<ZonePoint>[]).map((p) => (isUnknown(p) ? '?' : [p.lat, p.lon])),
    container: plain(o.container, (r) => ('n' in r ? r.n : r.builtin)),
    media: plain(o.media, objectNumber),
    icon: plain(o.icon, objectNumber),
    inputType: plain(o.inputType, (s) => s),
    choices: o.choices === null ? null : isUnknown(o.choices) ? '?' : (o.choices as Maybe<Text>[]).map((c) => (isUnknown(c) ? '?' : c.text)),
    duration: plain(o.duration, (d) => d),
  }));
}

const text = (t: Text) => t.text;
const objectNumber = (r: ObjectRef): number | '?' => ('n' in r ? r.n : '?');

function plain<T, R>(v: T | Unknown | null, read: (v: T) => R): R | '?' | null {
  if (v === null) return null;
  return isUnknown(v) ? '?' : read(v as T);
}
