// Where a Teeworlds group lands in a whole-map picture: the picture is what a player's screen
// would show with the camera at the map's centre, zoomed out until the screen covers the map.
// The game places a group's layers by its parallax (how far they follow the camera) and offset,
// and zooms a group by its parallax zoom (DDNet: max(parallaxX, parallaxY) clamped to 0…100), so a
// parallax-0 sky keeps covering the screen while the playable layers (parallax 100) shrink to fit.
// Screen size rule (DDNet's CalcScreenParams): 1150 × 1000 square world pixels at the screen's
// aspect, at most 1500 wide and 1050 high.

import type { MapGroup } from '../formats/teeworlds/index.js';

/** A group's placement in the picture: picture tile = world pixel × scale + offset, per axis. */
export interface GroupView {
  scaleX: number;
  scaleY: number;
  offsetX: number;
  offsetY: number;
}

/** World pixels per tile. */
const TILE = 32;
const SCREEN_AREA = 1150 * 1000;
const SCREEN_MAX_W = 1500;
const SCREEN_MAX_H = 1050;

/** The unzoomed screen (world pixels) at the aspect `width / height`. */
function screenAt(aspect: number): { w: number; h: number } {
  let h = Math.sqrt(SCREEN_AREA) / Math.sqrt(aspect);
  let w = h * aspect;
  if (w > SCREEN_MAX_W) [w, h] = [SCREEN_MAX_W, SCREEN_MAX_W / aspect];
  if (h > SCREEN_MAX_H) [w, h] = [SCREEN_MAX_H * aspect, SCREEN_MAX_H];
  return { w, h };
}

/**
 * Where `group` is drawn in a picture of `map` (the playable area, in tiles): parallax 100 with no
 * offset is the identity (1/32 tile per world pixel); parallax 0 maps the unzoomed screen around
 * the origin onto the whole picture.
 */
export function groupView(group: Pick<MapGroup, 'parallaxX' | 'parallaxY' | 'offsetX' | 'offsetY'>, map: { width: number; height: number }): GroupView {
  const mapW = Math.max(1, map.width) * TILE;
  const mapH = Math.max(1, map.height) * TILE;
  const screen = screenAt(mapW / mapH);
  const zoom = mapW / screen.w;
  const parallaxZoom = Math.min(100, Math.max(0, group.parallaxX, group.parallaxY)) / 100;
  const groupZoom = 1 + (zoom - 1) * parallaxZoom;
  const axis = (parallax: number, offset: number, mapSide: number, screenSide: number, tiles: number) => {
    const side = screenSide * groupZoom;
    const left = offset + (mapSide / 2) * (parallax / 100) - side / 2;
    const scale = Math.max(1, tiles) / side;
    return { scale, offset: -left * scale };
  };
  const x = axis(group.parallaxX, group.offsetX, mapW, screen.w, map.width);
  const y = axis(group.parallaxY, group.offsetY, mapH, screen.h, map.height);
  return { scaleX: x.scale, scaleY: y.scale, offsetX: x.offset, offsetY: y.offset };
}

/** True when the view is the playable layers' own (1:1, no shift): drawn cell by cell. */
export function isIdentityView(v: GroupView): boolean {
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  return near(v.scaleX, 1 / TILE) && near(v.scaleY, 1 / TILE) && near(v.offsetX, 0) && near(v.offsetY, 0);
}

/**
 * A group fixed to the screen in front of the playable layers (parallax 0, after the game group):
 * a HUD (a minimap, a vignette) a player sees over one screen. A whole-map picture leaves it out,
 * as zoomed to cover the map it would hide the level; it is still drawn when chosen alone.
 */
export function isScreenOverlay(group: Pick<MapGroup, 'parallaxX' | 'parallaxY'>, afterGame: boolean): boolean {
  return afterGame && group.parallaxX === 0 && group.parallaxY === 0;
}
