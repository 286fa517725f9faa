// limits.maxLevelObjects on Graal: a level with more objects (links, NPCs, signs, chests, baddies,
// unknown lines; .gmap cells) than the cap is a DecodeError LIMIT_EXCEEDED at the first object
// over it, naming the cap, at both depths and with both kernel sets — not a heap that runs out.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as graal from '../../src/formats/graal/index.js';
import { DEFAULT_LIMITS, DecodeError } from '../../src/index.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const enc = (s: string) => new TextEncoder().encode(s);
const fixture = (name: string) => readBytes(join(FIXTURES, 'graal', name));

function refusal(bytes: Uint8Array, maxLevelObjects: number) {
  const seen = new Set<string>();
  for (const backend of ['js', 'wasm'] as const)
    for (const sections of ['all', 'summary'] as const) {
      let err: unknown;
      try {
        graal.decode(bytes, { backend, sections, limits: { maxLevelObjects } });
      } catch (e) {
        err = e;
      }
      expect(err, `${backend} ${sections}`).toBeInstanceOf(DecodeError);
      const e = err as DecodeError;
      expect(e.message).toContain('limits.maxLevelObjects');
      seen.add(JSON.stringify({ code: e.code, offset: e.offset, path: e.path }));
    }
  expect(seen.size, 'the same error at both depths, with both kernel sets').toBe(1);
  return JSON.parse([...seen][0]!);
}

describe('graal limits.maxLevelObjects', () => {
  const lines = ['GLEVNW01', 'LINK a.nw 1 2 3 4 5 6', 'NPC - 1 2', 'say hi', 'NPCEND', 'CHEST 1 2 bombs -1', 'stray line', 'BADDY 1 2 3', 'BADDYEND'];
  const nw = enc(`${lines.join('\n')}\n`);
  const at = (k: number) => lines.slice(0, k).join('\n').length + 1;

  it('is 2^18 by default, and a level within it decodes', () => {
    expect(DEFAULT_LIMITS.maxLevelObjects).toBe(2 ** 18);
    const l = graal.decode(nw, { limits: { maxLevelObjects: 5 } }) as graal.GraalLevel;
    expect([l.links.length, l.npcs.length, l.chests.length, l.unknownLines.length, l.baddies.length]).toEqual([1, 1, 1, 1, 1]);
  });

  it('.nw: every table counts toward one cap, unknown lines too', () => {
    expect(refusal(nw, 0)).toEqual({ code: 'LIMIT_EXCEEDED', offset: at(1), path: 'links[0]' });
    expect(refusal(nw, 2)).toEqual({ code: 'LIMIT_EXCEEDED', offset: at(5), path: 'chests[0]' });
    expect(refusal(nw, 3)).toEqual({ code: 'LIMIT_EXCEEDED', offset: at(6), path: 'unknownLines[0]' });
    expect(refusal(nw, 4)).toEqual({ code: 'LIMIT_EXCEEDED', offset: at(7), path: 'baddies[0]' });
  });

  it('.nw: many LINK lines stop at the cap', () => {
    const link = 'LINK a.nw 1 2 3 4 playerx 6\n';
    const many = enc(`GLEVNW01\n${link.repeat(10_000)}`);
    expect(refusal(many, 1000)).toEqual({ code: 'LIMIT_EXCEEDED', offset: 9 + 1000 * link.length, path: 'links[1000]' });
  });

  it('binary levels: links, baddies, NPCs, chests and signs share the cap', () => {
    const bytes = fixture('gr-v103.graal');
    const l = graal.decode(bytes) as graal.GraalLevel;
    const total = l.links.length + l.baddies.length + l.npcs.length + l.chests.length + l.signs.length;
    expect(graal.decode(bytes, { limits: { maxLevelObjects: total } }).warnings).toEqual([]);
    expect(refusal(bytes, total - 1)).toMatchObject({ code: 'LIMIT_EXCEEDED', path: `signs[${l.signs.length - 1}]` });
    expect(refusal(bytes, 1)).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'links[1]' });
  });

  it('.gmap: the grid cells count', () => {
    const map = fixture('world.gmap');
    const text = new TextDecoder().decode(map);
    const rows = text.slice(text.indexOf('LEVELNAMES\n') + 11).split('\n');
    expect(refusal(map, 3)).toEqual({ code: 'LIMIT_EXCEEDED', offset: text.indexOf(rows[1]!), path: 'levels[1][0]' });
    expect(graal.decode(map, { limits: { maxLevelObjects: 6 } }).format).toBe('graal-gmap');
  });

  it('the option is validated and named', () => {
    expect(() => graal.decode(nw, { limits: { maxLevelObjects: -1 } })).toThrow(/limits\.maxLevelObjects/);
  });
});
