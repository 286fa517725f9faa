// wdata rules (Rusty Hearts): names inside a map file that point at boxes of the same file —
// an EventHit box's animated background, a camera's render lists and its PVS event boxes. A name
// that matches nothing makes the game skip what the mapper meant to show or hit.
import type { wdata } from '../index.js';
import type { LevelRule } from './types.js';

type WdataLevel = wdata.WdataLevel;
type WString = wdata.WString;

const EVENT_HIT = 5;
const CAMERA = 0;
/** Camera render lists in file order: BG, AniBG, Item, Gimmick, then the same four not rendered. BG names a model, not a box. */
const LIST_TABLE = [undefined, 'aniBGs', 'itemBoxes', 'gimmicks'] as const;

const names = (t: wdata.WdataBoxTable) => new Set(t.name.map((n) => n.text));
/** Empty names and `.\` (the format's "no path") name nothing on purpose. */
const isName = (s: string) => s !== '' && s !== '.\\';

export const WDATA_RULES: LevelRule<WdataLevel>[] = [
  {
    kind: 'level',
    id: 'wdata/dangling-reference',
    severity: 'warning',
    source: 'levelkit',
    why: 'a box name that matches no box of the file (an EventHit’s animated background, a camera’s render or PVS list) makes the game skip it',
    format: 'wdata',
    check(level, report) {
      const tables = level.eventBoxes?.tables ?? [];
      const byList = { aniBGs: names(level.aniBGs), itemBoxes: names(level.itemBoxes), gimmicks: names(level.gimmicks) };
      const hits = tables[EVENT_HIT];
      const aniNames = hits?.fields.aniBGName as WString[] | undefined;
      aniNames?.forEach((n, i) => {
        if (isName(n.text) && !byList.aniBGs.has(n.text))
          report(`EventHit box ${i} names animated background '${n.text}', which the file does not have`, { layer: EVENT_HIT, object: i });
      });
      const cameras = tables[CAMERA]?.fields.cameras as wdata.WdataCameraInfo[][] | undefined;
      if (!cameras) return;
      const eventNames = new Set(tables.flatMap((t) => t.name.map((n) => n.text)));
      cameras.forEach((infos, box) => {
        for (const info of infos) {
          const lists = info.lists;
          if (!lists) continue;
          lists.render.forEach((list, k) => {
            const table = LIST_TABLE[k % 4];
            if (table === undefined) return;
            for (const e of list)
              if (isName(e.key.text) && !byList[table].has(e.key.text))
                report(`camera box ${box} lists '${e.key.text}' among its ${table}, which the file does not have`, { layer: CAMERA, object: box });
          });
          for (const e of lists.pvsEventBoxes ?? [])
            if (isName(e.name.text) && !eventNames.has(e.name.text))
              report(`camera box ${box} lists event box '${e.name.text}' as visible, which the file does not have`, { layer: CAMERA, object: box });
        }
      });
    },
  },
];
