// The GWC rules over the object model: each check on models built by hand (found, and not found
// where the model is fine or does not know), then the rules as `levelkit check` runs them, on a
// fixture cartridge whose analysis is replaced by a given model (the analysis itself is tested on
// its own): one analysis per file, and a failed analysis reported once while the others stay silent.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { gwcMediaAbsence, gwzMediaAbsence, inputsWithoutAnswer, missingMedia, zonesWithTooFewPoints } from '../../src/check/gwc-objects.js';
import { checkLevel } from '../../src/check/run.js';
import type { Report, Where } from '../../src/check/types.js';
import { DecodeError } from '../../src/core/errors.js';
import type { WherigoModel } from '../../src/formats/gwc/analysis/types.js';
import { gwc } from '../../src/index.js';
import { pt, txt, wmodel, wobject } from '../helpers/wherigo-model.js';
import { load } from './plant.js';

const analysis = vi.hoisted(() => ({ next: (): WherigoModel => ({ from: 'bytecode', objects: [], messages: [], decoders: [], notes: [] }), calls: 0 }));
vi.mock('../../src/formats/gwc/analysis/index.js', () => ({
  objectModel: () => {
    analysis.calls++;
    return analysis.next();
  },
}));

function found(check: (report: Report) => void): { message: string; where: Where }[] {
  const out: { message: string; where: Where }[] = [];
  check((message, where = {}) => out.push({ message, where }));
  return out;
}

describe('gwc/zone-too-few-points', () => {
  it('finds zones of 0–2 points and zones without Points, each by name and number', () => {
    const m = wmodel([wobject(0, 'zone', 'Line', { points: [pt(1, 1), pt(1, 2)] }), wobject(1, 'zone', 'Empty', { points: [] }), wobject(2, 'zone', 'Unset')]);
    const f = found((r) => zonesWithTooFewPoints(m, r));
    expect(f).toEqual([
      { message: 'zone 0 "Line" has 2 points; a zone needs 3 to have an area', where: { object: 0 } },
      { message: 'zone 1 "Empty" has 0 points; a zone needs 3 to have an area', where: { object: 1 } },
      { message: 'zone 2 "Unset" sets no Points: it has no area to enter', where: { object: 2 } },
    ]);
  });

  it('finds nothing in a zone of 3 points (known or not) or one whose points are not known', () => {
    const m = wmodel([
      wobject(0, 'zone', 'Ok', { points: [pt(1, 1), pt(1, 2), pt(2, 2)] }),
      wobject(1, 'zone', 'Partly', { points: [pt(1, 1), { unknown: 'a call' }, pt(2, 2)] }),
      wobject(2, 'zone', 'Unknown', { points: { unknown: 'built in a loop' } }),
      wobject(3, 'item', 'NotAZone'),
    ]);
    expect(found((r) => zonesWithTooFewPoints(m, r))).toEqual([]);
  });
});

describe('gwc/missing-media', () => {
  const model = wmodel([
    wobject(0, 'media', 'img_gone', { mediaObject: 2, resources: [{ type: 'jpg', filename: txt('gone.jpg') }] }),
    wobject(1, 'media', 'img_here', { mediaObject: 1, resources: [{ type: 'jpg', filename: txt('Icon.jpg') }] }),
    wobject(2, 'media', 'img_past', { mediaObject: 9, resources: [{ type: 'jpg', filename: txt('past.jpg') }] }),
    wobject(3, 'item', 'Key', { media: { n: 0 }, icon: { n: 1 } }),
    wobject(4, 'zone', 'Park', { media: { n: 2 }, icon: { unknown: 'a local' } }),
    wobject(5, 'character', 'Me', { media: { builtin: 'Player' }, icon: { n: 1 } }),
  ]);
  const cart = { format: 'gwc', media: [{ valid: 1 }, { valid: 0 }, { valid: 1 }] } as unknown as gwc.GwcCartridge;

  it('finds, in a GWC, references to a ZMedia whose media object is deleted or not in the file', () => {
    expect(found((r) => missingMedia(model, gwcMediaAbsence(cart), r))).toEqual([
      { message: 'item 3 "Key" shows media 0 "img_gone" as its Media, but media object 2 is deleted', where: { object: 3 } },
      { message: 'zone 4 "Park" shows media 2 "img_past" as its Media, but the file has no media object 9 (it has 3)', where: { object: 4 } },
    ]);
  });

  it('finds nothing when every referenced media object is there', () => {
    const whole = { format: 'gwc', media: Array.from({ length: 9 }, () => ({ valid: 1 })) } as unknown as gwc.GwcCartridge;
    expect(found((r) => missingMedia(model, gwcMediaAbsence(whole), r))).toEqual([]);
  });

  it('finds, in a GWZ, references to a ZMedia none of whose files is a member (case ignored)', () => {
    const zip = { format: 'gwz', media: [{ name: 'icon.JPG' }, { name: 'past.jpg' }] } as unknown as gwc.GwzArchive;
    expect(found((r) => missingMedia(model, gwzMediaAbsence(zip), r))).toEqual([
      { message: 'item 3 "Key" shows media 0 "img_gone" as its Media, but the GWZ has no file "gone.jpg"', where: { object: 3 } },
    ]);
  });
});

describe('gwc/input-without-answer', () => {
  it('finds inputs without an OnGetInput; not inputs with answers or with a handler (it may compare with a number)', () => {
    const m = wmodel([
      wobject(0, 'input', 'Q1', { answers: [txt('42')], handlers: [{ event: 'OnGetInput', fn: 1, messages: [], unknownMessages: 0 }] }),
      wobject(1, 'input', 'Q2', { handlers: [{ event: 'OnGetInput', fn: 2, messages: [], unknownMessages: 0 }] }),
      wobject(2, 'input', { unknown: 'obfuscated' }, { variable: 'inpName' }),
      // Its handler shows texts the analysis could not pin down: its comparisons may be hidden the same way.
      wobject(3, 'input', 'Q3', { handlers: [{ event: 'OnGetInput', fn: 3, messages: [], unknownMessages: 2 }] }),
    ]);
    expect(found((r) => inputsWithoutAnswer(m, r))).toEqual([
      { message: 'input 2 (inpName) has no OnGetInput: nothing reads the answer', where: { object: 2 } },
    ]);
  });
});

describe('the object rules as check runs them', () => {
  const RULES = ['gwc/analysis-failed', 'gwc/zone-too-few-points', 'gwc/missing-media', 'gwc/input-without-answer'];
  // Object 2 of this fixture is deleted.
  const cart = () => load<gwc.GwcCartridge>('fixtures/gwc/odd-ids-deleted-cp1252.gwc');
  beforeEach(() => {
    analysis.calls = 0;
  });

  it('analyses a file once for all its rules and reports each rule with its severity', () => {
    analysis.next = () =>
      wmodel([
        wobject(0, 'media', 'img', { mediaObject: 2 }),
        wobject(1, 'zone', 'Line', { points: [pt(1, 1), pt(1, 2)], media: { n: 0 } }),
        wobject(2, 'input', 'Q'),
      ]);
    const { findings } = checkLevel(cart(), RULES);
    expect(analysis.calls).toBe(1);
    expect(findings.map((f) => [f.rule, f.severity, f.where])).toEqual([
      ['gwc/zone-too-few-points', 'error', { object: 1 }],
      ['gwc/missing-media', 'warning', { object: 1 }],
      ['gwc/input-without-answer', 'note', { object: 2 }],
    ]);
  });

  it('reports a failed analysis once, says why, and leaves the other rules (and the file) to run', () => {
    analysis.next = () => {
      throw new DecodeError('gwc', 'LIMIT_EXCEEDED', { path: 'lua', detail: 'more than 1000 tables' });
    };
    const { findings } = checkLevel(cart());
    const mine = findings.filter((f) => RULES.includes(f.rule));
    expect(mine.map((f) => f.rule)).toEqual(['gwc/analysis-failed']);
    expect(mine[0]!.message).toMatch(/could not be analysed: .*1000 tables/);
    expect(findings.some((f) => f.rule === 'check/internal')).toBe(false);
  });
});

describe('modelOrWhy', () => {
  it('says why for a DecodeError, and names any other error as a levelkit bug, so no surface loses the rest of the file', () => {
    const c = load<gwc.GwcCartridge>('fixtures/gwc/basic.gwc');
    analysis.next = () => {
      throw new DecodeError('gwc', 'TRUNCATED', { path: 'lua.proto[0].code' });
    };
    expect(gwc.modelOrWhy(c)).toEqual({ unknown: expect.stringMatching(/^the cartridge's objects could not be analysed: /) });
    analysis.next = () => {
      throw new TypeError('x is undefined');
    };
    expect(gwc.modelOrWhy(c)).toEqual({ unknown: 'levelkit bug in the object analysis: x is undefined' });
  });
});
