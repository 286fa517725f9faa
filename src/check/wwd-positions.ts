// WWD rules over the positions a level sends Claw to: the start position and where each warp
// leads. Both are pixel positions on the main (action) plane; one beyond its edges puts Claw in
// the void (often left behind when the plane was shrunk or the level was copied from a bigger one).
import type { wwd } from '../index.js';
import { ruleMaker } from './rule.js';

type WwdLevel = wwd.WwdLevel;

const rule = ruleMaker<WwdLevel>('wwd', 'wwd');

/** Logics that warp Claw to (speedX, speedY) when touched: the warp powerup and the boss warp. */
const WARP_LOGICS: ReadonlySet<string> = new Set(['SpecialPowerup', 'BossWarp']);
/** Image sets of warps (a SpecialPowerup is a warp only with one of them). */
const WARP_IMAGE = /^GAME_(VERT|BOSS)?WARP$/;

/** The plane the game plays on: the one flagged main, else (none flagged) the first. */
function mainPlane(level: WwdLevel): { plane: wwd.WwdPlane; index: number } | undefined {
  const index = Math.max(0, level.mainPlane);
  const plane = level.planes[index];
  return plane ? { plane, index } : undefined;
}

const inside = (plane: wwd.WwdPlane, x: number, y: number) => x >= 0 && y >= 0 && x < plane.widthPx && y < plane.heightPx;

export const WWD_POSITION_RULES = [
  rule('start-outside-plane', 'error', 'levelkit', 'a start position beyond the main plane’s edges drops Claw outside the level', (level, report) => {
    const main = mainPlane(level);
    const { startX: x, startY: y } = level.header;
    if (main && !inside(main.plane, x, y))
      report(`start position (${x}, ${y}) is outside plane '${main.plane.name.text}' (${main.plane.widthPx} × ${main.plane.heightPx} px)`, {
        layer: main.index,
        x,
        y,
      });
  }),
  rule(
    'warp-destination',
    'warning',
    'levelkit',
    'a warp whose destination lies beyond the main plane’s edges sends Claw outside the level',
    (level, report) => {
      const main = mainPlane(level);
      if (!main) return;
      level.planes.forEach((plane, p) => {
        const o = plane.objects;
        for (let i = 0; i < o.count; i++) {
          if (!WARP_LOGICS.has(o.logic[i]!.text) || !WARP_IMAGE.test(o.imageSet[i]!.text)) continue;
          const tx = o.speedX[i]!;
          const ty = o.speedY[i]!;
          // (0, 0) is a warp whose destination was never set; one custom level of the corpus has 139 of them as decoration.
          if ((tx === 0 && ty === 0) || inside(main.plane, tx, ty)) continue;
          report(
            `warp ${o.id[i]} (${o.logic[i]!.text}) leads to (${tx}, ${ty}), outside plane '${main.plane.name.text}' (${main.plane.widthPx} × ${main.plane.heightPx} px)`,
            {
              layer: p,
              x: o.x[i]!,
              y: o.y[i]!,
              object: o.id[i]!,
            },
          );
        }
      });
    },
  ),
];
