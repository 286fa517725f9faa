// Wherigo object models built by hand, for the surfaces that read one (info's summary, extract's
// files, check's rules) tested without the static analysis: every field defaults to "not set".

import { type Text, textFrom } from '../../src/core/text.js';
import type { WherigoKind, WherigoModel, WherigoObject, ZonePoint } from '../../src/formats/gwc/analysis/types.js';

/** A UTF-8 Text (or windows-1252 when asked). */
export function txt(s: string, encoding: 'utf-8' | 'windows-1252' = 'utf-8'): Text {
  return textFrom(s, encoding);
}

/** A point at `lat`, `lon`, with no altitude. */
export function pt(lat: number, lon: number): ZonePoint {
  return { lat, lon, alt: null };
}

/** An object of `kind` numbered `n`, named `name` (a string becomes a UTF-8 Text), the rest from `fields` or unset. */
export function wobject(n: number, kind: WherigoKind, name: string | WherigoObject['name'], fields: Partial<WherigoObject> = {}): WherigoObject {
  return {
    n,
    kind,
    maker: `Wherigo.${kind === 'zone' ? 'Zone' : `Z${kind[0]!.toUpperCase()}${kind.slice(1)}`}`,
    variable: null,
    id: null,
    name: typeof name === 'string' ? txt(name) : name,
    description: null,
    visible: null,
    active: null,
    points: null,
    originalPoint: null,
    location: null,
    container: null,
    media: null,
    icon: null,
    commands: [],
    text: null,
    enabled: null,
    inputType: null,
    choices: null,
    answers: [],
    duration: null,
    timerType: null,
    resources: [],
    mediaObject: null,
    handlers: [],
    ...fields,
  };
}

/** A model of `objects` (numbered as given), with `messages` and the rest from `fields`. */
export function wmodel(objects: WherigoObject[], fields: Partial<WherigoModel> = {}): WherigoModel {
  objects.forEach((o, i) => {
    if (o.n !== i) throw new Error(`wmodel: object ${i} is numbered ${o.n}`);
  });
  return { from: 'bytecode', objects, messages: [], decoders: [], notes: [], ...fields };
}
