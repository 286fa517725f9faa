// The index's rows of a cartridge's object model (#42): each Wherigo object an `objects` row of
// its kind at (longitude, latitude) in x/y, and its texts (name, description, question or command
// text, choices, answers, the messages its handlers show) `texts` rows naming it. Pure: the model
// in, calls on the sink out (index-rows.ts runs the analysis and keeps a failure to a warning).
import type { RowSink } from '../define.js';
import { objectRow } from '../rows.js';
import { isUnknown, type Maybe, type ObjectRef, type WherigoKind, type WherigoModel, type WherigoObject, type ZonePoint } from './analysis/types.js';

/**
 * `objects.kind` of each Wherigo kind. A ZMedia is `zmedia`: the GWC's stored media entries are
 * already kind `media` (one row per entry of the file's object table), and a column's values keep
 * their meaning.
 */
const KIND: Record<WherigoKind, string> = {
  cartridge: 'cartridge',
  zone: 'zone',
  item: 'item',
  character: 'character',
  task: 'task',
  timer: 'timer',
  input: 'input',
  media: 'zmedia',
  command: 'command',
  other: 'other',
};

/** The object number of Wherigo object `n` when the level's rows before it number `first`. */
const rowNumber = (first: number, n: number) => first + n;

/**
 * Writes `model`'s objects as object rows numbered from `first` (object n is row `first + n`) and
 * their texts as texts rows of those numbers; the handlers' messages of functions set on no
 * object are the level's own texts (object null).
 */
export function wherigoRows(model: WherigoModel, first: number, sink: RowSink): void {
  for (const o of model.objects) {
    const at = placeOf(o);
    sink.object(
      objectRow({
        kind: KIND[o.kind],
        index: rowNumber(first, o.n),
        name: known(o.name)?.text ?? null,
        x: at?.lon ?? null,
        y: at?.lat ?? null,
        fields: fieldsOf(o, first),
      }),
    );
    objectTexts(o, rowNumber(first, o.n), sink);
  }
  for (const m of model.messages) if (m.object === null) sink.text('message', m.text.text);
}

/** Where an object is: a zone's centre (the mean of its points, when every point is known), an item's or character's location. */
export function placeOf(o: WherigoObject): ZonePoint | null {
  if (o.kind === 'zone') return zoneCentre(o.points);
  return known(o.location) ?? null;
}

/** The mean of a zone's points; null when it has none or one is unknown. */
export function zoneCentre(points: WherigoObject['points']): ZonePoint | null {
  if (!points || isUnknown(points) || points.length === 0) return null;
  let lat = 0;
  let lon = 0;
  for (const p of points) {
    if (isUnknown(p)) return null;
    lat += p.lat;
    lon += p.lon;
  }
  return { lat: lat / points.length, lon: lon / points.length, alt: null };
}

function objectTexts(o: WherigoObject, object: number, sink: RowSink): void {
  const put = (source: string, t: Maybe<{ text: string }> | null) => {
    const v = known(t);
    if (v?.text) sink.text(source, v.text, object);
  };
  put('object-name', o.name);
  put('object-description', o.description);
  put('object-text', o.text);
  if (o.choices && !isUnknown(o.choices)) for (const c of o.choices) put('choice', c);
  for (const a of o.answers) put('answer', a);
  for (const h of o.handlers) for (const m of h.messages) put('message', m);
}

/** The row's `fields`: what has no column of its own, unknowns as `?`, nulls left out. */
function fieldsOf(o: WherigoObject, first: number): Record<string, string | number | boolean | null> {
  const f: Record<string, string | number | boolean | null> = { maker: o.maker, n: o.n };
  const put = (key: string, v: Maybe<string | number | boolean> | null) => {
    if (v !== null) f[key] = isUnknown(v) ? '?' : v;
  };
  put('variable', o.variable);
  put('id', o.id);
  put('visible', o.visible);
  put('active', o.active);
  put('enabled', o.enabled);
  put('input_type', o.inputType);
  put('duration', o.duration);
  put('timer_type', o.timerType);
  if (o.points) f.points = isUnknown(o.points) ? '?' : o.points.length;
  const ref = (key: string, r: Maybe<ObjectRef> | null) => {
    if (r === null) return;
    f[key] = isUnknown(r) ? '?' : 'n' in r ? rowNumber(first, r.n) : r.builtin;
  };
  ref('container', o.container);
  ref('media', o.media);
  ref('icon', o.icon);
  if (o.commands.length) f.commands = o.commands.map((c) => c.key).join(',');
  if (o.mediaObject !== null) f.media_object = o.mediaObject;
  if (o.handlers.length) f.handlers = o.handlers.map((h) => h.event).join(',');
  return f;
}

/** `v` when the analysis pinned it down, else undefined (null stays null). */
function known<T>(v: Maybe<T> | null): T | null | undefined {
  return v !== null && isUnknown(v) ? undefined : v;
}
