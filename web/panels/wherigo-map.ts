// The zones of a cartridge on a plain canvas (#42): each zone a polygon, each item or character
// with a location a dot, in an equirectangular projection fitted to the zones' extent. No map
// tiles and no requests: nothing about the cartridge leaves the page. zoneMap() is the geometry
// (pure, tested without a browser); drawZoneMap() puts it on a 2D context as a MapView looks at
// it, and zoomedView() is the wheel's step (zones of a few metres sit beside one far away, so the
// fitted drawing alone can leave them a dot). Shapes are redrawn at each zoom, not scaled: lines
// and labels stay sharp and the same size.

import { isUnknown, type Maybe, type WherigoModel, type ZonePoint } from '../../src/formats/gwc/analysis/types.js';

/** Canvas pixels, x right, y down. */
export type Pixel = [number, number];

export interface ZoneMap {
  width: number;
  height: number;
  zones: { n: number; label: string; points: Pixel[]; centre: Pixel }[];
  dots: { n: number; label: string; at: Pixel }[];
  /** Zones with an unknown point, or fewer than 3 known points (listed, not drawn). */
  undrawnZones: number;
  /** Located objects outside the zones' extent (a placeholder location far away), not drawn. */
  outside: number;
}

/** Pixels kept free around the drawing, for labels. */
const MARGIN = 24;

/**
 * Where every zone and located object goes on a `width` × `height` canvas: the zones' extent
 * (or the objects', when no zone can be drawn) fills it less a margin, north up, longitudes
 * shrunk by the cosine of the middle latitude so shapes keep their proportions. Null when there is
 * nothing to draw.
 */
export function zoneMap(model: WherigoModel, width: number, height: number): ZoneMap | null {
  const zones: { n: number; label: string; points: ZonePoint[] }[] = [];
  let undrawnZones = 0;
  for (const o of model.objects) {
    if (o.kind !== 'zone') continue;
    const pts = o.points && !isUnknown(o.points) && o.points.every((p) => !isUnknown(p)) ? (o.points as ZonePoint[]) : null;
    if (pts && pts.length >= 3) zones.push({ n: o.n, label: labelOf(o), points: pts });
    else undrawnZones++;
  }
  const located = model.objects.flatMap((o) => {
    const at = known(o.location);
    return o.kind !== 'zone' && at ? [{ n: o.n, label: labelOf(o), at }] : [];
  });
  const extentOf = zones.length ? zones.flatMap((z) => z.points) : located.map((d) => d.at);
  if (!extentOf.length) return null;
  const box = extent(extentOf);
  const shrink = Math.cos((((box.south + box.north) / 2) * Math.PI) / 180);
  // A lone point or a line still gets an area: ten metres or so each way.
  const spanX = Math.max((box.east - box.west) * shrink, 1e-4);
  const spanY = Math.max(box.north - box.south, 1e-4);
  const scale = Math.min((width - 2 * MARGIN) / spanX, (height - 2 * MARGIN) / spanY);
  const midLon = (box.west + box.east) / 2;
  const midLat = (box.south + box.north) / 2;
  const project = (p: { lat: number; lon: number }): Pixel => [width / 2 + (p.lon - midLon) * shrink * scale, height / 2 - (p.lat - midLat) * scale];
  const inside = (p: ZonePoint) => p.lat >= box.south - spanY && p.lat <= box.north + spanY && Math.abs(p.lon - midLon) * shrink <= spanX * 1.5;
  const dots = located.filter((d) => inside(d.at));
  return {
    width,
    height,
    zones: zones.map((z) => {
      const points = z.points.map(project);
      const centre: Pixel = [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];
      return { n: z.n, label: z.label, points, centre };
    }),
    dots: dots.map((d) => ({ n: d.n, label: d.label, at: project(d.at) })),
    undrawnZones,
    outside: located.length - dots.length,
  };
}

/** How the drawing is looked at: the fitted map's pixels × `zoom`, then moved `x`, `y` canvas pixels. */
export interface MapView {
  zoom: number;
  x: number;
  y: number;
}

/** The fitted map, as zoneMap made it. */
export const FITTED: MapView = Object.freeze({ zoom: 1, x: 0, y: 0 });

/** Closest and farthest zoom: a tenth of the fitted map, and ~4000 × it (a zone of a metre in an extent of kilometres). */
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 4096;

/** `view` zoomed by `factor` about canvas pixel (`cx`, `cy`), which stays where it is; the zoom is kept within MIN_ZOOM–MAX_ZOOM. */
export function zoomedView(view: MapView, factor: number, cx: number, cy: number): MapView {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom * factor));
  const k = zoom / view.zoom;
  return { zoom, x: cx - (cx - view.x) * k, y: cy - (cy - view.y) * k };
}

/** Draws `map` on `ctx` (its canvas sized to the map) as `view` looks at it: zones filled and outlined, then dots, then every label. */
export function drawZoneMap(ctx: CanvasRenderingContext2D, map: ZoneMap, view: MapView = FITTED): void {
  const at = ([x, y]: Pixel): Pixel => [x * view.zoom + view.x, y * view.zoom + view.y];
  ctx.clearRect(0, 0, map.width, map.height);
  ctx.lineWidth = 2;
  for (const z of map.zones) {
    ctx.beginPath();
    z.points.map(at).forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    ctx.fillStyle = 'rgba(46, 125, 50, 0.18)';
    ctx.fill();
    ctx.strokeStyle = '#2e7d32';
    ctx.stroke();
  }
  ctx.fillStyle = '#c62828';
  for (const d of map.dots) {
    const [x, y] = at(d.at);
    ctx.beginPath();
    ctx.arc(x, y, 4, 0, 2 * Math.PI);
    ctx.fill();
  }
  // Labels last, over every shape; fillText draws text as text (nothing from the file is markup here).
  // A label that would overlap one already drawn is left out (the table lists every object): a
  // cartridge's zones are often many and close together.
  ctx.font = '12px sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#1b1b1b';
  const taken: { x: number; y: number; w: number }[] = [];
  const label = (text: string, x: number, y: number) => {
    const w = ctx.measureText(text).width;
    if (taken.some((t) => x < t.x + t.w && t.x < x + w && Math.abs(t.y - y) < LABEL_HEIGHT)) return;
    taken.push({ x, y, w });
    ctx.fillText(text, x, y);
  };
  for (const z of map.zones) {
    const [x, y] = at(z.centre);
    label(z.label, x - ctx.measureText(z.label).width / 2, y);
  }
  for (const d of map.dots) {
    const [x, y] = at(d.at);
    label(d.label, x + 6, y - 8);
  }
}

/** Pixels a label takes up and down (12 px text and a little air). */
const LABEL_HEIGHT = 14;

/** A label: the object's name, else its variable, else its number. */
function labelOf(o: WherigoModel['objects'][number]): string {
  const name = known(o.name);
  return name?.text || o.variable || `#${o.n}`;
}

function extent(points: { lat: number; lon: number }[]): { south: number; north: number; west: number; east: number } {
  let south = Infinity;
  let north = -Infinity;
  let west = Infinity;
  let east = -Infinity;
  for (const p of points) {
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
    west = Math.min(west, p.lon);
    east = Math.max(east, p.lon);
  }
  return { south, north, west, east };
}

function known<T>(v: Maybe<T> | null): T | null {
  return v === null || isUnknown(v) ? null : v;
}
