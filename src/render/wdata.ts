// What a preview shows of a Rusty Hearts .wdata level, which has boxes in 3-D space and no tile
// grid: every box table as rows (EventBoxes by type, AniBG, ItemBox, Gimmick, scenes), each row
// with all its fields for the inspector, and a top-down plot of the box positions, one marker per
// box coloured by its type. See src/formats/wdata/README.md for the fields.

import { levelRows, type WdataBox } from '../formats/wdata/rows.js';
import { BOX_TYPE_NAMES, type WdataLevel } from '../formats/wdata/types.js';
import type { Marker, PreviewLayer, PreviewTable } from './adapters.js';

/** The longest side of the plot, in plot cells (the picture is drawn a few pixels per cell). */
const PLOT_CELLS = 512;
/** Empty cells around the boxes, so markers at the edge are drawn whole. */
const MARGIN = 8;
/** A box drawn as its outline (rather than a point) when both sides reach this many cells. */
const MIN_AREA_CELLS = 3;

/** The marker kinds of a .wdata plot, in the order their colours are handed out (draw.ts, markerColour). */
export const WDATA_MARKER_KINDS: readonly string[] = [...BOX_TYPE_NAMES, 'aniBG', 'itemBox', 'gimmick'];

/** Every box of the level as [table name, marker kind, row] in table order. */
function boxesOf(level: WdataLevel, rows: ReturnType<typeof levelRows>): { table: string; kind: string; boxes: WdataBox[] }[] {
  const out: { table: string; kind: string; boxes: WdataBox[] }[] = [];
  const events = rows.eventBoxes as Record<string, WdataBox[]>;
  // levelRows lists the non-empty EventBox groups by type name, in type order.
  for (const [type, boxes] of Object.entries(events)) out.push({ table: `EventBox ${type}`, kind: type, boxes });
  out.push({ table: 'AniBG', kind: 'aniBG', boxes: rows.aniBGs as WdataBox[] });
  out.push({ table: 'ItemBox', kind: 'itemBox', boxes: rows.itemBoxes as WdataBox[] });
  out.push({ table: 'Gimmick', kind: 'gimmick', boxes: rows.gimmicks as WdataBox[] });
  return level.summaryOnly ? [] : out.filter((t) => t.boxes.length > 0);
}

/** A field value in a table cell: numbers and text as they are, lists shortened. */
function cell(v: unknown): string | number {
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (v === null || v === undefined) return '';
  const text = Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null) ? v.join(', ') : JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** A box as a table row: index, name, position, then its own fields (OBB scale, rotation, extents stay in the inspector). */
function boxTable(name: string, boxes: WdataBox[]): PreviewTable {
  const own = [...new Set(boxes.flatMap((b) => Object.keys(b)))].filter((k) => !['name', 'position', 'scale', 'rotation', 'extents'].includes(k));
  return {
    name,
    columns: ['#', 'name', 'x', 'y', 'z', ...own],
    rows: boxes.map((b, i) => [i, b.name, ...b.position.map((p) => Number(p.toFixed(2))), ...own.map((k) => cell(b[k]))]),
    records: boxes.map((b, i) => ({ '#': i, ...b })),
  };
}

/** Tables of a .wdata level: one per non-empty box table, then scenes and the level's paths. */
export function wdataTables(level: WdataLevel): PreviewTable[] {
  const rows = levelRows(level);
  const tables = boxesOf(level, rows).map((t) => boxTable(t.table, t.boxes));
  const scenes = rows.scenes as Record<string, unknown>[];
  tables.push({
    name: 'scenes',
    columns: ['#', 'file', 'category', 'preview fade in / hold / out', 'camera'],
    rows: scenes.map((s, i) => [i, cell(s.file), cell(s.category), cell([s.fadeInPreview, s.fadeHoldPreview, s.fadeOutPreview]), cell(s.camera)]),
    records: scenes.map((s, i) => ({ '#': i, ...s })),
  });
  const paths = Object.entries(rows.paths as Record<string, string | null>);
  tables.push({ name: 'paths', columns: ['path', 'value'], rows: paths.map(([k, v]) => [k, v ?? '(none)']) });
  return tables;
}

/** The two horizontal axes of the plot: the position axes with the widest spread (the third, the least spread, is taken as height). */
function plotAxes(boxes: WdataBox[]): [number, number] {
  const spread = [0, 1, 2].map((a) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const b of boxes) {
      const v = b.position[a]!;
      if (Number.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    return hi >= lo ? hi - lo : 0;
  });
  const height = spread.indexOf(Math.min(...spread));
  return [0, 1, 2].filter((a) => a !== height) as [number, number];
}

/** The plot as a blank layer (the picture's size, in plot cells) with one marker per box; undefined without boxes. */
export function wdataPlot(level: WdataLevel): { layer: PreviewLayer; markers: Marker[]; axes: string } | undefined {
  const tables = boxesOf(level, levelRows(level));
  const all = tables.flatMap((t) => t.boxes);
  const finite = all.filter((b) => b.position.every(Number.isFinite));
  if (!finite.length) return undefined;
  const [a, b] = plotAxes(finite);
  const lo = [Infinity, Infinity];
  const hi = [-Infinity, -Infinity];
  for (const box of finite)
    [a, b].forEach((axis, k) => {
      lo[k] = Math.min(lo[k]!, box.position[axis]!);
      hi[k] = Math.max(hi[k]!, box.position[axis]!);
    });
  const unit = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!) / PLOT_CELLS || 1;
  const width = Math.ceil((hi[0]! - lo[0]!) / unit) + 2 * MARGIN + 1;
  const height = Math.ceil((hi[1]! - lo[1]!) / unit) + 2 * MARGIN + 1;
  const markers: Marker[] = [];
  for (const t of tables)
    t.boxes.forEach((box, row) => {
      if (!box.position.every(Number.isFinite)) return;
      // World axis b grows upwards on the plot.
      const x = (box.position[a]! - lo[0]!) / unit + MARGIN;
      const y = (hi[1]! - box.position[b]!) / unit + MARGIN;
      const w = (2 * Math.abs(box.extents[a] ?? 0)) / unit;
      const h = (2 * Math.abs(box.extents[b] ?? 0)) / unit;
      const label = `${t.table} #${row}${box.name ? ` "${box.name}"` : ''}`;
      const ref = { table: t.table, row };
      markers.push(
        w >= MIN_AREA_CELLS && h >= MIN_AREA_CELLS && Number.isFinite(w + h)
          ? { kind: t.kind, x: x - w / 2, y: y - h / 2, w, h, label, ref }
          : { kind: t.kind, x, y, w: 0, h: 0, label, ref },
      );
    });
  const names = 'xyz';
  return {
    layer: { name: `box positions (top-down: ${names[a]} →, ${names[b]} ↑)`, width, height, cells: new Uint8Array(width * height), main: true },
    markers,
    axes: `${names[a]}${names[b]}`,
  };
}
