// Wherigo object models built by hand, for the surfaces that read one (info's summary, extract's
// files, check's rules, the index's rows, the page's panel) tested without the static analysis —
// and with the values it cannot pin down, which a real cartridge may not show. Every field
// defaults to "not set".

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
export function wobject(n: number, kind: WherigoKind, name: string | WherigoObject['name'] = null, fields: Partial<WherigoObject> = {}): WherigoObject {
  return {
    n,
    kind,
    maker: `Wherigo.${MAKERS[kind]}`,
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

const MAKERS: Record<WherigoKind, string> = {
  cartridge: 'ZCartridge',
  zone: 'Zone',
  item: 'ZItem',
  character: 'ZCharacter',
  task: 'ZTask',
  timer: 'ZTimer',
  input: 'ZInput',
  media: 'ZMedia',
  command: 'ZCommand',
  other: 'ZObject',
};

/**
 * A model of `objects` (numbered as given), the rest from `fields`; unless given, `messages`
 * lists what the objects' handlers show, as the analysis lists them.
 */
export function wmodel(objects: WherigoObject[], fields: Partial<WherigoModel> = {}): WherigoModel {
  objects.forEach((o, i) => {
    if (o.n !== i) throw new Error(`wmodel: object ${i} is numbered ${o.n}`);
  });
  const messages = objects.flatMap((o) => o.handlers.flatMap((h) => h.messages.map((text) => ({ object: o.n, event: h.event, fn: h.fn, text }))));
  return { from: 'bytecode', objects, messages, decoders: [], notes: [], ...fields };
}

/**
 * A small cartridge: two zones (a square and a triangle), an item in the first zone at a
 * location, a character with an unknown location, a task, a timer, an input with choices and
 * answers and a handler, a command on the item, and a media.
 */
export function sampleModel(): WherigoModel {
  return wmodel([
    wobject(0, 'cartridge', 'Sample', { variable: 'cart' }),
    wobject(1, 'media', 'Picture', { variable: 'zmedia', resources: [{ type: 'jpg', filename: txt('pic.jpg') }], mediaObject: 1 }),
    wobject(2, 'zone', 'Market square', {
      variable: 'zoneSquare',
      id: 'z-1',
      description: txt('Where it starts'),
      visible: true,
      active: true,
      points: [pt(47.5, 19.0), pt(47.5, 19.01), pt(47.51, 19.01), pt(47.51, 19.0)],
      originalPoint: pt(47.505, 19.005),
      media: { n: 1 },
      handlers: [{ event: 'OnEnter', fn: 3, messages: [txt('Welcome to the square')], unknownMessages: 1 }],
    }),
    wobject(3, 'zone', 'Park', {
      variable: 'zoneTriangle',
      visible: false,
      active: { unknown: 'set by a branch' },
      points: [pt(47.52, 19.02), pt(47.53, 19.03), pt(47.52, 19.04)],
    }),
    wobject(4, 'item', 'Key', {
      variable: 'itemKey',
      description: txt('A rusty key'),
      visible: true,
      location: pt(47.505, 19.005),
      container: { n: 2 },
      commands: [{ key: 'cmdUse', n: 9 }],
    }),
    wobject(5, 'character', 'Guide', { variable: 'charGuide', location: { unknown: 'computed' }, container: { builtin: 'Player' } }),
    wobject(6, 'task', 'Find the key', { variable: 'taskFind', active: true }),
    wobject(7, 'timer', 'Wait', { variable: 'timerWait', duration: 90, timerType: 'Countdown' }),
    wobject(8, 'input', 'Code', {
      variable: 'inputCode',
      text: txt('What is the code?'),
      inputType: 'MultipleChoice',
      choices: [txt('1234'), txt('4321'), { unknown: 'a call' }],
      answers: [txt('4321')],
      handlers: [{ event: 'OnGetInput', fn: 5, messages: [txt('Right!'), txt('Wrong.')], unknownMessages: 0 }],
    }),
    wobject(9, 'command', null, { variable: 'cmdUse', text: txt('Use'), enabled: true }),
  ]);
}
