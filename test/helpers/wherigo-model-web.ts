// Hand-built Wherigo object models for the index rows and the page's panel (#42): what the
// analysis would give, so the surfaces are tested without it (and with the values it cannot pin
// down, which a real cartridge may not show).

import type { Text } from '../../src/core/text.js';
import { textFrom } from '../../src/core/text.js';
import type { WherigoKind, WherigoModel, WherigoObject, ZonePoint } from '../../src/formats/gwc/analysis/types.js';

export const txt = (s: string): Text => textFrom(s, 'utf-8');
export const pt = (lat: number, lon: number): ZonePoint => ({ lat, lon, alt: null });

/** An object of `kind` numbered `n`, every field unset but those given. */
export function wobject(n: number, kind: WherigoKind, fields: Partial<WherigoObject> = {}): WherigoObject {
  return {
    n,
    kind,
    maker: `Wherigo.${MAKERS[kind]}`,
    variable: null,
    id: null,
    name: null,
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

/** A model of `objects`, with the messages their handlers show listed as the analysis lists them. */
export function wmodel(objects: WherigoObject[], extra: Partial<WherigoModel> = {}): WherigoModel {
  const messages = objects.flatMap((o) => o.handlers.flatMap((h) => h.messages.map((text) => ({ object: o.n, event: h.event, fn: h.fn, text }))));
  return { from: 'bytecode', objects, messages, decoders: [], notes: [], ...extra };
}

/**
 * A small cartridge: two zones (a square and a triangle), an item in the first zone at a
 * location, a character with an unknown location, a task, a timer, an input with choices and
 * answers and a handler, a command on the item, and a media.
 */
export function sampleModel(): WherigoModel {
  return wmodel([
    wobject(0, 'cartridge', { variable: 'cart', name: txt('Sample') }),
    wobject(1, 'media', { variable: 'zmedia', name: txt('Picture'), resources: [{ type: 'jpg', filename: txt('pic.jpg') }], mediaObject: 1 }),
    wobject(2, 'zone', {
      variable: 'zoneSquare',
      id: 'z-1',
      name: txt('Market square'),
      description: txt('Where it starts'),
      visible: true,
      active: true,
      points: [pt(47.5, 19.0), pt(47.5, 19.01), pt(47.51, 19.01), pt(47.51, 19.0)],
      originalPoint: pt(47.505, 19.005),
      media: { n: 1 },
      handlers: [{ event: 'OnEnter', fn: 3, messages: [txt('Welcome to the square')], unknownMessages: 1 }],
    }),
    wobject(3, 'zone', {
      variable: 'zoneTriangle',
      name: txt('Park'),
      visible: false,
      active: { unknown: 'set by a branch' },
      points: [pt(47.52, 19.02), pt(47.53, 19.03), pt(47.52, 19.04)],
    }),
    wobject(4, 'item', {
      variable: 'itemKey',
      name: txt('Key'),
      description: txt('A rusty key'),
      visible: true,
      location: pt(47.505, 19.005),
      container: { n: 2 },
      commands: [{ key: 'cmdUse', n: 9 }],
    }),
    wobject(5, 'character', { variable: 'charGuide', name: txt('Guide'), location: { unknown: 'computed' }, container: { builtin: 'Player' } }),
    wobject(6, 'task', { variable: 'taskFind', name: txt('Find the key'), active: true }),
    wobject(7, 'timer', { variable: 'timerWait', name: txt('Wait'), duration: 90, timerType: 'Countdown' }),
    wobject(8, 'input', {
      variable: 'inputCode',
      name: txt('Code'),
      text: txt('What is the code?'),
      inputType: 'MultipleChoice',
      choices: [txt('1234'), txt('4321'), { unknown: 'a call' }],
      answers: [txt('4321')],
      handlers: [{ event: 'OnGetInput', fn: 5, messages: [txt('Right!'), txt('Wrong.')], unknownMessages: 0 }],
    }),
    wobject(9, 'command', { variable: 'cmdUse', text: txt('Use'), enabled: true }),
  ]);
}
