// Layer opacity (render's `opacity`, the page's opacity sliders): a layer at 0 is the picture
// without it, at 1 the picture with it, in between the mix of the two; a bad value names the option.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode, render } from '../../src/index.js';
import { ROOT } from '../helpers/paths.js';

const map = decode(readFileSync(join(ROOT, 'fixtures/teeworlds/ddrace-v2.map')));

describe('render opacity', () => {
  it('mixes a layer in at its opacity', () => {
    const all = render(map, { layer: 'all', physics: true, markers: false });
    expect(all.drawn.length).toBeGreaterThan(1);
    const top = all.drawn.at(-1)!;
    const list = all.drawn;
    const without = render(map, { layer: list.filter((i) => i !== top), markers: false });
    const full = render(map, { layer: list, markers: false });
    const half = render(map, { layer: list, markers: false, opacity: { [top]: 0.5 } });
    const none = render(map, { layer: list, markers: false, opacity: { [top]: 0 } });
    expect(Buffer.from(none.rgba).equals(Buffer.from(without.rgba))).toBe(true);
    let differ = 0;
    for (let i = 0; i < full.rgba.length; i++) {
      const want = (without.rgba[i]! + full.rgba[i]!) / 2;
      expect(Math.abs(half.rgba[i]! - want), `byte ${i}`).toBeLessThanOrEqual(1);
      if (full.rgba[i] !== without.rgba[i]) differ++;
    }
    // The layer shows: otherwise the mix above would prove nothing.
    expect(differ).toBeGreaterThan(0);
  });

  it('names the option when a value is out of range or a layer does not exist', () => {
    expect(() => render(map, { layer: 'all', opacity: { 0: 1.5 } })).toThrow(/opacity of layer 0 must be a number 0…1/);
    expect(() => render(map, { layer: 'all', opacity: { 999: 0.5 } })).toThrow(/opacity names layer 999/);
    expect(() => render(map, { layer: 'all', opacity: { 0: Number.NaN } })).toThrow(/opacity/);
  });
});
