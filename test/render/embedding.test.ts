// The embedding call draws what `levelkit render` draws (issue 31): drawLevel() loads the
// bundled pictures the level needs (from the package's own assets/teeworlds/, or where `assets`
// says), draws every layer when some have real tiles, and paints a canvas; loadBundledResources()
// on its own; both checked against the command's PNG pixel for pixel.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decode as fastPngDecode } from 'fast-png';
import { afterAll, describe, expect, it } from 'vitest';
import { type Canvas2D, decode, drawLevel, loadBundledResources, render } from '../../src/index.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES, ROOT, readBytes } from '../helpers/paths.js';

const OUT = mkdtempSync(join(tmpdir(), 'levelkit-embedding-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));
const DM1 = `${FIXTURES}/teeworlds/real/tw07-dm1.map`;

/** A 2D context that keeps what is put on it. */
function fakeCanvas(): Canvas2D & { put?: Uint8ClampedArray } {
  const ctx: Canvas2D & { put?: Uint8ClampedArray } = {
    canvas: { width: 0, height: 0 },
    createImageData: (w, h) => ({ data: new Uint8ClampedArray(w * h * 4) }),
    putImageData: (img) => {
      ctx.put = img.data;
    },
  };
  return ctx;
}

describe('drawLevel (embedding)', () => {
  it('paints exactly the picture levelkit render writes, the bundled pictures loaded by itself', async () => {
    const out = join(OUT, 'dm1.png');
    const r = cli('render', DM1, '-o', out, '--scale', '2');
    expect(r.status, r.stderr).toBe(0);
    const png = fastPngDecode(readFileSync(out));
    const canvas = fakeCanvas();
    const preview = await drawLevel(decode(readBytes(DM1)), { scale: 2, canvas });
    expect([canvas.canvas.width, canvas.canvas.height]).toEqual([png.width, png.height]);
    expect(Buffer.from(canvas.put!).equals(Buffer.from(png.data as Uint8Array))).toBe(true);
    expect(preview.layers.filter((l) => l.tileset).length).toBeGreaterThan(3);
    // Not what render() without the pictures draws.
    expect(Buffer.from(render(decode(readBytes(DM1)), { scale: 2, layer: 'all' }).rgba).equals(Buffer.from(canvas.put!))).toBe(false);
  });

  it('takes the folder as a URL or a reader; a reader that finds nothing leaves colours; bad `assets` is a TypeError', async () => {
    const level = decode(readBytes(DM1));
    const byUrl = await loadBundledResources(level, { assets: pathToFileURL(join(ROOT, 'assets/teeworlds/')) });
    expect([...(byUrl.images?.keys() ?? [])]).toContain('grass_main');
    expect(byUrl.entities?.game?.width).toBeGreaterThan(0);
    const asked: string[] = [];
    const none = await loadBundledResources(level, {
      assets: async (path) => {
        asked.push(path);
        return undefined;
      },
    });
    expect(asked).toContain('mapres/grass_main.png');
    expect(asked.every((p) => /^(mapres|entities)\/[A-Za-z0-9_.-]+\.png$/.test(p))).toBe(true);
    expect(none.images?.size).toBe(0);
    await expect(loadBundledResources(level, { assets: 42 as unknown as string })).rejects.toThrow(TypeError);
    // A level that needs no pictures reads nothing.
    expect(
      await loadBundledResources(decode(readBytes(`${FIXTURES}/wwd/claw-compressed.wwd`)), { assets: async () => Promise.reject(new Error('read')) }),
    ).toEqual({});
  });
});
