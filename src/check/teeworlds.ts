// Teeworlds/DDNet rules: what DDNet's map testers and twmap-check-ddnet look for before a map
// is released (unused and duplicate images, unused envelopes, unpaired teleporters and switches,
// missing spawns or race tiles, map settings the server does not run, items no game reads).

import { closest } from '../core/suggest.js';
import type { teeworlds } from '../index.js';
import { DDNET_MAP_COMMANDS } from './ddnet-commands.js';
import { ruleMaker } from './rule.js';
import * as T from './teeworlds-tiles.js';
import { cellAt, gameIndices, isRaceMap, layersOf, switchTypes } from './teeworlds-walk.js';
import type { Report } from './types.js';

type TeeworldsMap = teeworlds.TeeworldsMap;

const rule = ruleMaker<TeeworldsMap>('teeworlds', 'tw');

/** DDNet's map commands as a list for closest(), made once rather than once per setting. */
const KNOWN_COMMANDS: readonly string[] = [...DDNET_MAP_COMMANDS];

function usedImages(map: TeeworldsMap): Set<number> {
  const used = new Set<number>();
  for (const { layer } of layersOf(map)) if ('image' in layer) used.add(layer.image);
  return used;
}

function usedEnvelopes(map: TeeworldsMap): Set<number> {
  const used = new Set<number>();
  const add = (a: ArrayLike<number> | undefined) => {
    if (a) for (let i = 0; i < a.length; i++) used.add(a[i]!);
  };
  for (const { layer } of layersOf(map)) {
    if (layer.kind === 'quads') {
      add(layer.quads?.posEnv);
      add(layer.quads?.colorEnv);
    } else if (layer.kind === 'sounds') {
      add(layer.sources?.posEnv);
      add(layer.sources?.soundEnv);
    } else if ('colorEnv' in layer) used.add(layer.colorEnv);
  }
  return used;
}

/** True for a column that was decoded and holds only zeros (a grid not decoded is not judged). */
function allZero(column: Uint8Array | undefined): boolean {
  return column?.every((v) => v === 0) === true;
}

function isEmptyLayer(layer: TeeworldsMap['groups'][number]['layers'][number]): boolean {
  switch (layer.kind) {
    case 'tiles':
    case 'front':
      return allZero(layer.tiles?.index);
    case 'tele':
      return allZero(layer.tele?.type);
    case 'speedup':
      return allZero(layer.speedup?.type);
    case 'switch':
      return allZero(layer.switch?.type);
    case 'tune':
      return allZero(layer.tune?.type);
    case 'quads':
      return layer.quads?.count === 0;
    case 'sounds':
      return layer.sources?.count === 0;
    default:
      // The game layer is required even when empty; InfClass, opaque and unknown layers are not ours to judge.
      return false;
  }
}

/** Numbers that appear on each side of a pairing (entries and exits, activators and switched tiles), by layer kind. */
function numberSides(map: TeeworldsMap, kind: 'tele' | 'switch', sideOf: (type: number) => 0 | 1 | undefined) {
  const sides: [Map<number, { layer: number; i: number; width: number }>, Map<number, { layer: number; i: number; width: number }>] = [new Map(), new Map()];
  for (const { layer, index } of layersOf(map)) {
    const cols = layer.kind === kind ? (kind === 'tele' ? (layer as teeworlds.TeleLayer).tele : (layer as teeworlds.SwitchLayer).switch) : undefined;
    if (!cols) continue;
    const width = (layer as teeworlds.TileLayer).width;
    for (let i = 0; i < cols.type.length; i++) {
      const n = cols.number[i]!;
      const side = n === 0 ? undefined : sideOf(cols.type[i]!);
      if (side !== undefined && !sides[side].has(n)) sides[side].set(n, { layer: index, i, width });
    }
  }
  return sides;
}

function unpaired(report: Report, from: Map<number, { layer: number; i: number; width: number }>, to: Map<number, unknown>, say: (n: number) => string): void {
  for (const [n, at] of from) if (!to.has(n)) report(say(n), { layer: at.layer, ...cellAt(at.i, at.width) });
}

export const TEEWORLDS_RULES = [
  rule(
    'unused-image',
    'warning',
    'DDNet mapper rules: no unused images',
    'an image no tile layer or quad uses is downloaded by every player for nothing',
    (map, report) => {
      const used = usedImages(map);
      map.images.forEach((img, i) => {
        if (!used.has(i)) report(`image ${i} '${img.name.text}' is not used by any layer`, { object: i });
      });
    },
  ),
  rule(
    'duplicate-image',
    'warning',
    'DDNet mapper rules: no image added twice',
    'two embedded images with identical pixels double the download, two external images of one name are one file added twice; layers can share one',
    (map, report) => {
      // Sorted by size, format and pixels (n log n comparisons, no hashing, so it runs on any host and
      // no crafted collision makes it quadratic): equal images end up side by side, each run's first
      // (lowest index) the one the others duplicate. Compared pairwise, 20,000 small images took minutes.
      const embedded = map.images.flatMap((img, i) => (img.external || !img.pixels ? [] : [i]));
      const image = (i: number) => map.images[i]!;
      embedded.sort((x, y) => compareImages(image(x), image(y)) || x - y);
      const same: [number, number][] = [];
      for (let k = 1, first = embedded[0]!; k < embedded.length; k++) {
        const i = embedded[k]!;
        if (compareImages(image(first), image(i)) === 0) same.push([i, first]);
        else first = i;
      }
      // An external image is the game's file of that name: two of one name are one image added twice.
      const externalByName = new Map<string, number>();
      map.images.forEach((img, i) => {
        if (!img.external) return;
        const first = externalByName.get(img.name.text);
        if (first === undefined) externalByName.set(img.name.text, i);
        else same.push([i, first]);
      });
      same.sort((p, q) => p[0] - q[0]);
      for (const [i, j] of same)
        report(
          image(i).external
            ? `external image ${i} '${image(i).name.text}' is the same file as image ${j}`
            : `image ${i} '${image(i).name.text}' has the same pixels as image ${j} '${image(j).name.text}'`,
          { object: i },
        );
    },
  ),
  rule(
    'unused-envelope',
    'warning',
    'DDNet mapper rules: delete unused envelopes',
    'an envelope nothing animates with is left over from editing',
    (map, report) => {
      const used = usedEnvelopes(map);
      map.envelopes.forEach((env, i) => {
        if (!used.has(i)) report(`envelope ${i} '${env.name.text}' is not used by any layer, quad or sound source`, { object: i });
      });
    },
  ),
  rule(
    'empty-layer',
    'note',
    'DDNet mapper rules: delete empty layers',
    'a layer with nothing in it costs load time and clutters the editor',
    (map, report) => {
      for (const { layer, index } of layersOf(map)) if (isEmptyLayer(layer)) report(`${layer.kind} layer '${layer.name.text}' is empty`, { layer: index });
    },
  ),
  rule('empty-group', 'note', 'DDNet mapper rules: delete empty groups', 'a group with no layers is left over from editing', (map, report) => {
    map.groups.forEach((g, i) => {
      if (g.layers.length === 0) report(`group ${i} '${g.name.text}' has no layers`, { object: i });
    });
  }),
  rule(
    'unpaired-teleporter',
    'warning',
    'levelkit: DDNet’s teleporter numbers',
    'a teleporter whose number has no exit sends nowhere; an exit no entry leads to is unreachable',
    (map, report) => {
      const [entries, exits] = numberSides(map, 'tele', (t) => (T.TELE_ENTRIES.has(t) ? 0 : t === T.TELE_EXIT ? 1 : undefined));
      unpaired(report, entries, exits, (n) => `teleporter ${n} has an entry but no exit`);
      unpaired(report, exits, entries, (n) => `teleporter ${n} has an exit but no entry`);
      const [checks, checkOuts] = numberSides(map, 'tele', (t) => (t === T.TELE_CHECK ? 0 : t === T.TELE_CHECK_OUT ? 1 : undefined));
      unpaired(report, checks, checkOuts, (n) => `teleport checkpoint ${n} has no checkpoint exit`);
    },
  ),
  rule(
    'unpaired-switch',
    'warning',
    'levelkit: DDNet’s switch numbers',
    'a switch number only activators use switches nothing; one only switched tiles use can never change',
    (map, report) => {
      const [activators, switched] = numberSides(map, 'switch', (t) => (T.SWITCH_ACTIVATORS.has(t) ? 0 : T.SWITCH_NUMBER_IS_COUNT.has(t) ? undefined : 1));
      unpaired(report, activators, switched, (n) => `switch ${n} is turned on or off but no tile listens to it`);
      // A map's settings may open a switch (`switch_open n`) instead of a tile.
      const opened = new Set(
        (map.info?.settings ?? [])
          .map((s) => /^\s*switch_open\s+(\d+)/.exec(s.text)?.[1])
          .filter((n) => n !== undefined)
          .map(Number),
      );
      for (const n of opened) activators.set(n, { layer: -1, i: 0, width: 1 });
      unpaired(report, switched, activators, (n) => `switch ${n} is listened to but nothing turns it on or off`);
    },
  ),
  rule(
    'meaningless-rotation',
    'note',
    'twmap-check-ddnet: invalid rotation of game tiles',
    'rotating or flipping a game tile that has no direction does nothing, and hides what was meant',
    (map, report) => {
      for (const { layer, index } of layersOf(map)) {
        if ((layer.kind !== 'game' && layer.kind !== 'front') || !layer.tiles) continue;
        const { index: idx, flags } = layer.tiles;
        let count = 0;
        let first = -1;
        for (let i = 0; i < idx.length; i++)
          if (idx[i] !== 0 && (flags[i]! & T.ROTATION_FLAGS) !== 0 && !T.rotationMatters(idx[i]!)) {
            if (first < 0) first = i;
            count++;
          }
        if (count > 0)
          report(`${count} ${layer.kind} tile${count === 1 ? '' : 's'} rotated or flipped where rotation means nothing (first: tile ${idx[first]})`, {
            layer: index,
            ...cellAt(first, layer.width),
          });
      }
    },
  ),
  rule('no-spawn', 'error', 'DDNet map rules: spawns', 'without a spawn tile no player can join the map', (map, report) => {
    if (map.flavour === 'infclass' || map.flavour === 'legacy') return;
    const seen = gameIndices(map);
    // A game layer of nothing but air is a background (a menu theme), not a map to play.
    if ((seen.size <= 1 && !seen.has(1)) || looksInfclass(map)) return;
    if (![...T.SPAWN_TILES].some((t) => seen.has(t))) report('the map has no spawn tile');
  }),
  rule(
    'race-start-finish',
    'error',
    'DDNet map rules: start and finish line',
    'a DDNet race map needs a start line to time a run and a finish line to end it',
    (map, report) => {
      if (map.flavour !== 'ddnet' || !isRaceMap(map)) return;
      const seen = gameIndices(map);
      const start = seen.has(T.TILE_START) || switchTypes(map).has(T.TILE_START);
      const finish = seen.has(T.TILE_FINISH) || switchTypes(map).has(T.TILE_FINISH);
      // Neither is a map of another kind (block, pvp, a lobby), not a race map missing both.
      if (start !== finish) report(start ? 'the map has a start line but no finish line' : 'the map has a finish line but no start line');
    },
  ),
  rule(
    'unknown-setting',
    'warning',
    'DDNet editor: map settings it does not know (settings spelling)',
    'DDNet runs only its own game commands from a map’s settings; anything else is ignored or a typo',
    (map, report) => {
      (map.info?.settings ?? []).forEach((s, i) => {
        const command = s.text.trim().split(/\s+/)[0] ?? '';
        // Empty lines and `#` comments are what the editor allows besides commands.
        if (command === '' || command.startsWith('#') || DDNET_MAP_COMMANDS.has(command)) return;
        const guess = closest(command, KNOWN_COMMANDS);
        report(`setting ${i} '${s.text}' is not a DDNet map command${guess ? ` (did you mean '${guess}'?)` : ''}`, { object: i });
      });
    },
  ),
  rule(
    'unknown-item',
    'warning',
    'DDNet: items that break clients (ddnet/ddnet#7669)',
    'an item of a type no game reads, or a layer of an invalid type, can break other clients (ddnet/ddnet#7669)',
    (map, report) => {
      for (const item of map.extraItems)
        if (item.uuid !== GROUP_EX_UUID)
          report(item.uuid ? `item of unknown UUID type ${item.uuid} (id ${item.id})` : `item of unknown type ${item.typeId} (id ${item.id})`);
      for (const { layer, index } of layersOf(map)) {
        if (layer.kind === 'unknown') report(`layer '${layer.name.text}' has unknown layer type ${layer.layerType}`, { layer: index });
        else if (layer.kind === 'opaque') report(`tile layer '${layer.name.text}' cannot be placed: ${layer.reason}`, { layer: index });
      }
    },
  ),
];

/** mapitemtype-group@ddnet.tw: the obsolete group-ex item, which DDNet still writes and ignores. */
const GROUP_EX_UUID = '4a26ca1f-64bd-30e3-907a-707eacd1f080';

/** Orders embedded images by width, height, format, then pixels byte by byte (0 for the same image). */
function compareImages(a: TeeworldsMap['images'][number], b: TeeworldsMap['images'][number]): number {
  if (a.width !== b.width) return a.width - b.width;
  if (a.height !== b.height) return a.height - b.height;
  if ((a.format ?? 1) !== (b.format ?? 1)) return (a.format ?? 1) - (b.format ?? 1);
  const pa = a.pixels!;
  const pb = b.pixels!;
  if (pa.length !== pb.length) return pa.length - pb.length;
  for (let i = 0; i < pa.length; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/**
 * InfClass maps built on 0.6 layouts keep their spawns in tile or quad layers of their own (the
 * `infclass`/`infection` images, the `icInfected` layer), not in the game layer: every one of the
 * corpus's InfClass maps names an image or layer so.
 */
function looksInfclass(map: TeeworldsMap): boolean {
  const marked = (name: string) => /^(inf|icinfected)/i.test(name);
  if (map.images.some((i) => marked(i.name.text))) return true;
  for (const { layer } of layersOf(map)) if (marked(layer.name.text)) return true;
  return false;
}
