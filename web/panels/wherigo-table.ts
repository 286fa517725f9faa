// What the cartridge panel lists of each Wherigo object (#42), as plain values: no DOM here, so
// the listing is tested in Node against hand-built models; wherigo.ts sets each value as text.
// A value the analysis could not pin down is shown as unknown, with why, never as a guess.

import { isUnknown, type Maybe, type ObjectRef, type WherigoModel, type WherigoObject, type ZonePoint } from '../../src/formats/gwc/analysis/types.js';

/** One value as shown: its text, and whether it is the analysis's "unknown" (then `text` says why). */
export interface Shown {
  text: string;
  unknown?: true;
}

/** A line of an object's details: a label and its values. */
export interface Detail {
  label: string;
  values: Shown[];
}

export interface ObjectLine {
  n: number;
  kind: string;
  variable: string;
  name: Shown;
  id: Shown;
  visible: Shown;
  active: Shown;
  container: Shown;
  details: Detail[];
}

const NONE: Shown = { text: '—' };
const unknown = (why: string): Shown => ({ text: `unknown (${why})`, unknown: true });

/** Each object of `model` as the panel's table lists it, in the model's order. */
export function objectLines(model: WherigoModel): ObjectLine[] {
  const nameOf = (n: number) => {
    const o = model.objects[n];
    const name = o && o.name !== null && !isUnknown(o.name) ? o.name.text : null;
    return name || o?.variable || `#${n}`;
  };
  const ref = (r: Maybe<ObjectRef> | null): Shown =>
    r === null ? NONE : isUnknown(r) ? unknown(r.unknown) : 'n' in r ? { text: `${nameOf(r.n)} (#${r.n})` } : { text: r.builtin };
  return model.objects.map((o) => ({
    n: o.n,
    kind: o.kind,
    variable: o.variable ?? '',
    name: value(o.name, (t) => t.text),
    id: value(o.id, String),
    visible: value(o.visible, yesNo),
    active: value(o.active, yesNo),
    container: ref(o.container),
    details: detailsOf(o, ref, nameOf),
  }));
}

function detailsOf(o: WherigoObject, ref: (r: Maybe<ObjectRef> | null) => Shown, nameOf: (n: number) => string): Detail[] {
  const d: Detail[] = [];
  const add = (label: string, values: Shown[]) => {
    if (values.length) d.push({ label, values });
  };
  const one = <T>(label: string, v: Maybe<T> | null, show: (x: T) => string) => {
    if (v !== null) add(label, [value(v, show)]);
  };
  one('description', o.description, (t) => t.text);
  if (o.points !== null) add('points', isUnknown(o.points) ? [unknown(o.points.unknown)] : o.points.map((p) => value(p, place)));
  one('original point', o.originalPoint, place);
  one('location', o.location, place);
  if (o.media !== null) add('media', [ref(o.media)]);
  if (o.icon !== null) add('icon', [ref(o.icon)]);
  add(
    'commands',
    o.commands.map((c) => ({ text: `${c.key}: ${nameOf(c.n)}` })),
  );
  one(o.kind === 'input' ? 'question' : 'text', o.text, (t) => t.text);
  one('enabled', o.enabled, yesNo);
  one('input type', o.inputType, String);
  if (o.choices !== null) add('choices', isUnknown(o.choices) ? [unknown(o.choices.unknown)] : o.choices.map((c) => value(c, (t) => t.text)));
  if (o.kind === 'input') add('answers', o.answers.length ? o.answers.map((a) => ({ text: a.text })) : [{ text: 'none found' }]);
  one('duration', o.duration, (s) => `${s} s`);
  one('timer type', o.timerType, String);
  add(
    'resources',
    o.resources.map((r) => ({ text: `${show(r.filename, (t) => t.text)} (${show(r.type, String)})` })),
  );
  for (const h of o.handlers)
    add(h.event, [
      ...h.messages.map((m) => ({ text: m.text })),
      ...(h.unknownMessages ? [unknown(`${h.unknownMessages} message${h.unknownMessages === 1 ? '' : 's'} not pinned down`)] : []),
      ...(h.messages.length || h.unknownMessages ? [] : [{ text: 'shows no message' }]),
    ]);
  return d;
}

function value<T>(v: Maybe<T> | null, show: (x: T) => string): Shown {
  if (v === null) return NONE;
  return isUnknown(v) ? unknown(v.unknown) : { text: show(v) };
}

function show<T>(v: Maybe<T> | null, f: (x: T) => string): string {
  return value(v, f).text;
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** Latitude, longitude in degrees (6 decimals: about 10 cm), and altitude when given. */
export function place(p: ZonePoint): string {
  const alt = p.alt === null ? '' : isUnknown(p.alt) ? ', altitude unknown' : `, ${p.alt} m`;
  return `${p.lat.toFixed(6)}, ${p.lon.toFixed(6)}${alt}`;
}

/** Counts by kind, for the panel's heading line: `3 zones, 2 items …` in the model's order of kinds. */
export function kindCounts(model: WherigoModel): string {
  const counts = new Map<string, number>();
  for (const o of model.objects) counts.set(o.kind, (counts.get(o.kind) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}${n === 1 ? '' : k === 'media' ? '' : 's'}`).join(', ');
}
