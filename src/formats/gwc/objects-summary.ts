// What `levelkit info` says about a cartridge's objects: how many of each kind, where its zones
// are, which string decoders it uses. A pure function of the object model, so it is tested on
// models built by hand. Not part of summarize(): see README.md § Objects.

import type { Text } from '../../core/text.js';
import { isUnknown, type Maybe, type Unknown, type WherigoKind, type WherigoModel, type WherigoObject } from './analysis/types.js';
import { type LatLon, zoneCentre } from './zone-geometry.js';

/** Kinds in the order they are listed (the ones a cartridge has to have come first). */
export const WHERIGO_KINDS: readonly WherigoKind[] = ['zone', 'item', 'character', 'task', 'timer', 'input', 'media', 'command', 'cartridge', 'other'];

/** One zone as `info` lists it. */
export interface ZoneSummary {
  /** Its number in the object model (`objects.json`). */
  n: number;
  name: string | Unknown | null;
  /** The mean of its points, or why it is not known. */
  centre: LatLon | Unknown;
}

/** The `objectModel` entry of a GWC's or GWZ's `info` summary. */
export interface ObjectsSummary {
  /** Objects by kind; every kind is listed, 0 included. */
  byKind: Record<WherigoKind, number>;
  zones: ZoneSummary[];
  /** The string decoders found (their global or field path; `local` for one kept only in a local), empty when none. */
  stringDecoders: string[];
}

export function objectsSummary(model: WherigoModel): ObjectsSummary {
  const byKind = Object.fromEntries(WHERIGO_KINDS.map((k) => [k, 0])) as Record<WherigoKind, number>;
  const zones: ZoneSummary[] = [];
  for (const o of model.objects) {
    byKind[o.kind]++;
    if (o.kind === 'zone') zones.push({ n: o.n, name: plainName(o.name), centre: zoneCentre(o) });
  }
  return { byKind, zones, stringDecoders: model.decoders.map((d) => d.name ?? 'local') };
}

/** A name as a string (or its unknown): what people read, with no encoding attached. */
export function plainName(name: Maybe<Text> | null): string | Unknown | null {
  if (name === null || isUnknown(name)) return name;
  return name.text;
}

/** What to call an object when listing it: `zone 3 "Parking"`, or with its variable or number when its name is not known. */
export function objectLabel(o: WherigoObject): string {
  const name = o.name !== null && !isUnknown(o.name) ? `"${o.name.text}"` : o.variable ? `(${o.variable})` : '(name not known)';
  return `${o.kind} ${o.n} ${name}`;
}
