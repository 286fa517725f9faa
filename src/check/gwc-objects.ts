// GWC rules over the cartridge's objects, as the static analysis recovers them from its Lua
// (issue 42): a zone a player can never enter, media shown but not in the file, a question whose
// answer nothing checks. The checks are pure functions of the object model (and, for media, of
// what the file holds), so they are tested on models built by hand; the rules run the analysis
// once per decoded value and read it. A cartridge the analysis cannot read gets one finding of
// `gwc/analysis-failed` saying why, and the three rules are silent on it.
import type { Text } from '../core/text.js';
import { gwc } from '../index.js';
import { ruleMaker } from './rule.js';
import type { Report } from './types.js';

type GwcDecoded = gwc.GwcCartridge | gwc.GwzArchive;
type Model = gwc.WherigoModel;

const rule = ruleMaker<GwcDecoded>('gwc', 'gwc');

// One analysis per decoded value, however many of these rules read it; a value is collected
// with its model once the scan worker drops it.
const models = new WeakMap<GwcDecoded, Model | gwc.Unknown>();
function modelOf(v: GwcDecoded): Model | gwc.Unknown {
  const known = models.get(v);
  if (known) return known;
  const m = gwc.modelOrWhy(v);
  models.set(v, m);
  return m;
}
function withModel(check: (model: Model, v: GwcDecoded, report: Report) => void) {
  return (v: GwcDecoded, report: Report) => {
    const m = modelOf(v);
    if (!gwc.isUnknown(m)) check(m, v, report);
  };
}

/** Zones with fewer than 3 points (or none set): no area, so a player never sees anyone enter them. */
export function zonesWithTooFewPoints(model: Model, report: Report): void {
  for (const o of model.objects) {
    if (o.kind !== 'zone' || gwc.isUnknown(o.points)) continue;
    if (o.points === null) report(`${gwc.objectLabel(o)} sets no Points: it has no area to enter`, { object: o.n });
    else if (o.points.length < 3)
      report(`${gwc.objectLabel(o)} has ${o.points.length} point${o.points.length === 1 ? '' : 's'}; a zone needs 3 to have an area`, { object: o.n });
  }
}

/**
 * What is wrong with a ZMedia's file, or undefined when it is there: in a GWC its media object
 * (by number) missing or deleted, in a GWZ every resource file missing from the zip.
 */
export type MediaAbsence = (media: gwc.WherigoObject) => string | undefined;

/** Media or Icon references to a ZMedia whose file `absent` says is not there. */
export function missingMedia(model: Model, absent: MediaAbsence, report: Report): void {
  for (const o of model.objects)
    for (const field of ['media', 'icon'] as const) {
      const ref = o[field];
      if (!ref || gwc.isUnknown(ref) || !('n' in ref)) continue;
      const target = model.objects[ref.n];
      if (target?.kind !== 'media') continue;
      const why = absent(target);
      if (why) report(`${gwc.objectLabel(o)} shows ${gwc.objectLabel(target)} as its ${field === 'media' ? 'Media' : 'Icon'}, but ${why}`, { object: o.n });
    }
}

/** A GWC's absence test: the ZMedia's media object (`mediaObject`) must be in the file and not deleted. */
export function gwcMediaAbsence(c: gwc.GwcCartridge): MediaAbsence {
  return (m) => {
    if (m.mediaObject === null) return undefined;
    const stored = c.media[m.mediaObject - 1];
    if (!stored) return `the file has no media object ${m.mediaObject} (it has ${c.media.length})`;
    return stored.valid === 0 ? `media object ${m.mediaObject} is deleted` : undefined;
  };
}

/** A GWZ's absence test: at least one of the ZMedia's resource files must be a member (names compared as Windows builders do, ignoring case). */
export function gwzMediaAbsence(z: gwc.GwzArchive): MediaAbsence {
  const members = new Set(z.media.map((m) => m.name.toLowerCase()));
  return (m) => {
    const names = m.resources.map((r) => r.filename).filter((f): f is Text => f !== null && !gwc.isUnknown(f));
    if (names.length === 0 || names.length < m.resources.length) return undefined;
    return names.some((f) => members.has(f.text.toLowerCase())) ? undefined : `the GWZ has no file ${names.map((f) => JSON.stringify(f.text)).join(' or ')}`;
  };
}

/**
 * Inputs whose OnGetInput handler compares the answer with no string (or that have none). A
 * handler with messages the analysis could not pin down is not judged: what hid those (an
 * obfuscated string, a call it does not follow) can hide a compared answer the same way, and the
 * model keeps only the answers it knows (on the corpus, before string decoding, 15 inputs of an
 * obfuscated cartridge were "without answer" that way).
 */
export function inputsWithoutAnswer(model: Model, report: Report): void {
  for (const o of model.objects) {
    if (o.kind !== 'input' || o.answers.length > 0) continue;
    // Only an input nothing answers. A handler that compares the answer with no string constant
    // may still compare it with a number or a variable (five puzzles of a corpus cartridge do):
    // the model keeps string answers only, so such an input is not reported.
    if (o.handlers.some((h) => h.event === 'OnGetInput')) continue;
    report(`${gwc.objectLabel(o)} has no OnGetInput: nothing reads the answer`, { object: o.n });
  }
}

export const GWC_OBJECT_RULES = [
  rule(
    'analysis-failed',
    'warning',
    'levelkit',
    "the cartridge's objects could not be read from its Lua, so the object rules did not check it",
    (v, report) => {
      const m = modelOf(v);
      if (gwc.isUnknown(m)) report(m.unknown);
    },
  ),
  rule(
    'zone-too-few-points',
    'error',
    'levelkit',
    'a zone of fewer than 3 points has no area: players never see the player enter it, so what it starts never happens',
    withModel((model, _v, report) => zonesWithTooFewPoints(model, report)),
  ),
  rule(
    'missing-media',
    'warning',
    'levelkit',
    'an object shows a ZMedia whose file is not in the cartridge (missing or deleted): players show nothing or fail',
    withModel((model, v, report) => missingMedia(model, v.format === 'gwc' ? gwcMediaAbsence(v) : gwzMediaAbsence(v), report)),
  ),
  rule(
    'input-without-answer',
    'note',
    'levelkit',
    'a question with no OnGetInput handler: nothing reads the answer, often a puzzle left unfinished',
    withModel((model, _v, report) => inputsWithoutAnswer(model, report)),
  ),
];
