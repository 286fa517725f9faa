// WWD rules (Claw, Gruntz): objects placed off their plane, logics no game runs, a checksum the
// game would refuse. (WapMap's treasure statistics are facts, not problems: the summary's
// `treasure`, src/formats/wwd/treasure.ts; the rule that reported them is retired, retired.ts.)
import type { wwd } from '../index.js';
import { ruleMaker } from './rule.js';
import { CLAW_LOGICS, GRUNTZ_LOGICS } from './wwd-logics.js';

type WwdLevel = wwd.WwdLevel;

const KNOWN_LOGICS: ReadonlySet<string> = new Set([...CLAW_LOGICS, ...GRUNTZ_LOGICS]);

const rule = ruleMaker<WwdLevel>('wwd', 'wwd');

/** Calls `visit` for every object of every plane, with the plane's index and the object's row. */
function eachObject(level: WwdLevel, visit: (plane: wwd.WwdPlane, p: number, o: wwd.WwdObjectTable, i: number) => void): void {
  level.planes.forEach((plane, p) => {
    for (let i = 0; i < plane.objects.count; i++) visit(plane, p, plane.objects, i);
  });
}

export const WWD_RULES = [
  rule(
    'object-outside-plane',
    'warning',
    'levelkit',
    'an object placed beyond its plane’s edges is never reached (often left behind when a plane was shrunk)',
    (level, report) =>
      eachObject(level, (plane, p, o, i) => {
        const x = o.x[i]!;
        const y = o.y[i]!;
        if (x >= 0 && y >= 0 && x < plane.widthPx && y < plane.heightPx) return;
        const what = `object ${o.id[i]} (${o.logic[i]!.text || 'no logic'}) at (${x}, ${y})`;
        report(`${what} is outside plane '${plane.name.text}' (${plane.widthPx} × ${plane.heightPx} px)`, { layer: p, x, y, object: o.id[i]! });
      }),
  ),
  rule(
    'unknown-logic',
    'warning',
    'levelkit',
    'a logic name neither Claw nor Gruntz knows creates nothing in the game (src/check/wwd-logics.ts lists the known ones)',
    (level, report) =>
      eachObject(level, (_plane, p, o, i) => {
        const logic = o.logic[i]!.text;
        if (logic === '' || KNOWN_LOGICS.has(logic)) return;
        report(`object ${o.id[i]} has logic '${logic}', which neither Claw nor Gruntz knows`, { layer: p, x: o.x[i]!, y: o.y[i]!, object: o.id[i]! });
      }),
  ),
  rule(
    'checksum-mismatch',
    'error',
    'levelkit: WapWorld’s and WapMap’s checksums',
    'the stored checksum matches neither WapWorld’s nor WapMap’s: the file was changed by hand or damaged',
    (level, report) => {
      const c = level.container.checksum;
      if (c.class === 'mismatch')
        report(`stored checksum 0x${c.stored.toString(16)} matches neither WapWorld's 0x${c.wapworld.toString(16)} nor WapMap's 0x${c.wapmap.toString(16)}`, {
          offset: 0x2ec,
        });
    },
  ),
];
