// The cartridge panel's pure parts (#42) against hand-built models: what the objects table lists
// (unknowns shown as unknown, texts from the file kept as they are) and where the zones and
// located objects go on the canvas (an equirectangular projection fitted to the zones' extent).
import { describe, expect, it } from 'vitest';
import { drawZoneMap, FITTED, zoneMap, zoomedView } from '../web/panels/wherigo-map.js';
import { kindCounts, objectLines } from '../web/panels/wherigo-table.js';
import { pt, sampleModel, txt, wmodel, wobject } from './helpers/wherigo-model.js';

describe('the cartridge panel lists', () => {
  const lines = objectLines(sampleModel());
  const line = (name: string) => lines.find((l) => l.name.text === name)!;
  const detail = (name: string, label: string) =>
    line(name)
      .details.find((d) => d.label === label)
      ?.values.map((v) => v.text);

  it('every object with its kind, name, id, flags and container', () => {
    expect(lines.map((l) => l.kind)).toEqual(['cartridge', 'media', 'zone', 'zone', 'item', 'character', 'task', 'timer', 'input', 'command']);
    expect(line('Market square')).toMatchObject({ n: 2, id: { text: 'z-1' }, visible: { text: 'yes' }, active: { text: 'yes' }, variable: 'zoneSquare' });
    expect(line('Key').container).toEqual({ text: 'Market square (#2)' });
    expect(line('Guide').container).toEqual({ text: 'Player' });
    expect(kindCounts(sampleModel())).toBe('1 cartridge, 1 media, 2 zones, 1 item, 1 character, 1 task, 1 timer, 1 input, 1 command');
  });

  it("an unknown as unknown, with the analysis's reason, and an unset field as a dash", () => {
    expect(line('Park').active).toEqual({ text: 'unknown (set by a branch)', unknown: true });
    expect(line('Guide').details.find((d) => d.label === 'location')!.values).toEqual([{ text: 'unknown (computed)', unknown: true }]);
    expect(line('Park').id).toEqual({ text: '—' });
    expect(detail('Code', 'choices')).toEqual(['1234', '4321', 'unknown (a call)']);
  });

  it("the input's question, choices and answers, the timer's duration, commands and handlers with their messages", () => {
    expect(detail('Code', 'question')).toEqual(['What is the code?']);
    expect(detail('Code', 'answers')).toEqual(['4321']);
    expect(detail('Code', 'OnGetInput')).toEqual(['Right!', 'Wrong.']);
    expect(detail('Wait', 'duration')).toEqual(['90 s']);
    expect(detail('Wait', 'timer type')).toEqual(['Countdown']);
    expect(detail('Key', 'commands')).toEqual(['cmdUse: cmdUse']);
    expect(detail('Market square', 'OnEnter')).toEqual(['Welcome to the square', 'unknown (1 message not pinned down)']);
    expect(detail('Market square', 'points')).toEqual(['47.500000, 19.000000', '47.500000, 19.010000', '47.510000, 19.010000', '47.510000, 19.000000']);
  });

  it('an input without answers says none were found', () => {
    expect(objectLines(wmodel([wobject(0, 'input')]))[0]!.details).toContainEqual({ label: 'answers', values: [{ text: 'none found' }] });
  });

  it('a name that looks like markup as the same characters (the DOM sets it as text)', () => {
    const name = '<img src=x onerror="document.title=1">';
    expect(objectLines(wmodel([wobject(0, 'zone', txt(name))]))[0]!.name.text).toBe(name);
  });
});

describe('the zones canvas', () => {
  it('fits the zones to the canvas, north up, and keeps their proportions (longitudes shrunk by cos latitude)', () => {
    const map = zoneMap(sampleModel(), 640, 420)!;
    expect(map.zones.map((z) => z.label)).toEqual(['Market square', 'Park']);
    const all = map.zones.flatMap((z) => z.points);
    const xs = all.map((p) => p[0]);
    const ys = all.map((p) => p[1]);
    // Fitted: the extent touches the margin on one axis and stays inside on the other.
    expect(Math.min(...ys)).toBeCloseTo(24, 6);
    expect(Math.max(...ys)).toBeCloseTo(396, 6);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(24);
    expect(Math.max(...xs)).toBeLessThanOrEqual(616);
    // North up: the square's northern edge (47.51) is above its southern (47.50).
    const square = map.zones[0]!.points;
    expect(square[2]![1]).toBeLessThan(square[0]![1]);
    // Proportions: 0.01° of longitude at 47.5° is cos(47.5°) of 0.01° of latitude.
    const wide = square[1]![0] - square[0]![0];
    const high = square[0]![1] - square[3]![1];
    expect(wide / high).toBeCloseTo(Math.cos((47.515 * Math.PI) / 180), 2);
  });

  it('draws items with a location as dots, and counts what it cannot draw', () => {
    const map = zoneMap(sampleModel(), 640, 420)!;
    expect(map.dots.map((d) => d.label)).toEqual(['Key']);
    const square = map.zones[0]!;
    // The key lies at the square's centre.
    expect(map.dots[0]!.at[0]).toBeCloseTo(square.centre[0], 6);
    expect(map.dots[0]!.at[1]).toBeCloseTo(square.centre[1], 6);
    const model = wmodel([
      ...sampleModel().objects,
      wobject(10, 'zone', null, { points: [pt(1, 1), { unknown: 'a call' }, pt(2, 2)] }),
      wobject(11, 'item', null, { location: pt(0, 0) }),
    ]);
    const more = zoneMap(model, 640, 420)!;
    expect(more.undrawnZones).toBe(1);
    expect(more.outside).toBe(1);
    expect(more.zones).toHaveLength(2);
  });

  it('has nothing to draw without zones or locations, and gives a lone point an area', () => {
    expect(zoneMap(wmodel([wobject(0, 'task')]), 640, 420)).toBeNull();
    const one = zoneMap(wmodel([wobject(0, 'item', 'Box', { location: pt(50, 8) })]), 640, 420)!;
    expect(one.dots[0]!.at).toEqual([320, 210]);
  });

  it('zooms about the pointer: the point under it stays put, and the zoom stays within bounds', () => {
    const v = zoomedView(FITTED, 1.25, 100, 50);
    expect(v.zoom).toBe(1.25);
    // The fitted pixel (100, 50) is still drawn at (100, 50).
    expect([100 * v.zoom + v.x, 50 * v.zoom + v.y]).toEqual([100, 50]);
    const w = zoomedView(v, 0.8, 300, 200);
    expect(w.zoom).toBeCloseTo(1, 12);
    const fx = (300 - v.x) / v.zoom;
    expect(fx * w.zoom + w.x).toBeCloseTo(300, 9);
    let far = FITTED;
    for (let i = 0; i < 100; i++) far = zoomedView(far, 1.25, 0, 0);
    expect(far.zoom).toBe(4096);
    for (let i = 0; i < 200; i++) far = zoomedView(far, 0.8, 0, 0);
    expect(far.zoom).toBe(0.1);
  });

  it('draws every shape where the view puts it, labels and dots at their own size', () => {
    const map = zoneMap(sampleModel(), 640, 420)!;
    // A 2D context that records where paths start and where dots are drawn.
    const calls: [string, number, number][] = [];
    const record = (name: string) => (x: number, y: number) => void calls.push([name, x, y]);
    const ctx = {
      lineWidth: 0,
      clearRect() {},
      beginPath() {},
      closePath() {},
      fill() {},
      stroke() {},
      moveTo: record('moveTo'),
      lineTo: record('lineTo'),
      arc: record('arc'),
      fillText: (_text: string, x: number, y: number) => void calls.push(['fillText', x, y]),
      measureText: () => ({ width: 10 }),
    } as unknown as CanvasRenderingContext2D;
    drawZoneMap(ctx, map, { zoom: 2, x: -100, y: 30 });
    const [x0, y0] = map.zones[0]!.points[0]!;
    expect(calls[0]).toEqual(['moveTo', x0 * 2 - 100, y0 * 2 + 30]);
    const dot = calls.find((c) => c[0] === 'arc')!;
    expect([dot[1], dot[2]]).toEqual([map.dots[0]!.at[0] * 2 - 100, map.dots[0]!.at[1] * 2 + 30]);
    expect(ctx.lineWidth).toBe(2);
  });
});
