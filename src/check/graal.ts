// Graal rules: chests showing a sign that does not exist, objects off the 64 × 64 board, and
// (over all files checked together) links to levels that are not among them.
import type { graal } from '../index.js';
import { ruleMaker } from './rule.js';
import type { ArchiveRule } from './types.js';

type GraalLevel = graal.GraalLevel;
type GraalDecoded = GraalLevel | graal.GraalGmap;
const BOARD = 64;

const rule = ruleMaker<GraalDecoded, GraalLevel>('graal', 'graal', (l): l is GraalLevel => l.format !== 'graal-gmap');

const off = (x: number, y: number) => x < 0 || y < 0 || x >= BOARD || y >= BOARD;

export const GRAAL_RULES = [
  rule('chest-sign', 'warning', 'levelkit', 'a chest whose sign index points past the level’s signs shows no text when opened', (level, report) => {
    level.chests.forEach((c, i) => {
      // Index 0 in a level without signs is what editors write for "no sign".
      if (c.signIndex >= level.signs.length && !(c.signIndex === 0 && level.signs.length === 0))
        report(`chest ${i} (${c.item}) shows sign ${c.signIndex}, but the level has ${level.signs.length} sign${level.signs.length === 1 ? '' : 's'}`, {
          x: c.x,
          y: c.y,
          object: i,
        });
    });
  }),
  rule(
    'object-outside-board',
    'warning',
    'levelkit',
    'a chest, sign or baddy off the 64 × 64 board, or a link that does not touch it, can never be reached',
    (level, report) => {
      // NPCs are left out: scripts place invisible helper NPCs off the board on purpose.
      level.links.forEach((l, i) => {
        if (l.x >= BOARD || l.y >= BOARD || l.x + l.width <= 0 || l.y + l.height <= 0)
          report(`link ${i} to '${l.level.text}' lies wholly off the board`, { x: l.x, y: l.y, object: i });
      });
      level.chests.forEach((c, i) => {
        if (off(c.x, c.y)) report(`chest ${i} (${c.item}) is off the board`, { x: c.x, y: c.y, object: i });
      });
      level.signs.forEach((s, i) => {
        if (off(s.x, s.y)) report(`sign ${i} is off the board`, { x: s.x, y: s.y, object: i });
      });
      level.baddies.forEach((b, i) => {
        if (off(b.x, b.y)) report(`baddy ${i} is off the board`, { x: b.x, y: b.y, object: i });
      });
    },
  ),
];

/** What one Graal file tells the link rule: its links (a gmap has none, but links may name it). */
interface LinkFacts {
  links: { level: string; x: number; y: number }[];
}

/** The file name a level is known by: the last part of a path, lower-cased (Graal servers run on case-insensitive hosts too). */
export function levelKey(name: string): string {
  return (name.split(/[\\/]/).pop() ?? name).toLowerCase();
}

export const GRAAL_LINK_RULE: ArchiveRule<LinkFacts, GraalDecoded> = {
  kind: 'archive',
  id: 'graal/link-target',
  severity: 'warning',
  source: 'levelkit',
  why: 'a link to a level that is not among the files checked together (a gmap’s or a folder’s levels) leads nowhere when they are served together',
  format: 'graal',
  collect: (level) => ({ links: level.format === 'graal-gmap' ? [] : level.links.map((l) => ({ level: l.level.text, x: l.x, y: l.y })) }),
  judge(files, report) {
    const known = new Set(files.map((f) => levelKey(f.member ?? f.path)));
    for (const file of files)
      file.facts.links.forEach((l, i) => {
        if (!known.has(levelKey(l.level))) report(file, `link ${i} leads to '${l.level}', which is not among the files checked`, { x: l.x, y: l.y, object: i });
      });
  },
};
