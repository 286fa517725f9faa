// A folder dropped on the page (web/folder-drop.ts): its files named by their path below the drop,
// every batch of a folder's entries read, and the walk bounded in depth (a link loop ends).
import { describe, expect, it } from 'vitest';
import { type DropEntry, filesOfEntries, MAX_DROP_DEPTH } from '../web/folder-drop.js';

const file = (name: string, text = name): DropEntry => ({ isFile: true, isDirectory: false, name, file: (ok) => ok(new File([text], name)) });

/** A folder whose reader hands out `children` two at a time, then an empty batch, as browsers do in batches. */
function folder(name: string, children: () => DropEntry[]): DropEntry {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      const left = children();
      return { readEntries: (ok) => ok(left.splice(0, 2)) };
    },
  };
}

describe('a dropped folder', () => {
  it('gives every file below it, named by its path from the drop', async () => {
    const world = folder('world', () => [file('world.gmap'), file('a.nw'), file('b.nw'), folder('more', () => [file('c.nw')])]);
    const files = await filesOfEntries([world, file('pics1.png')]);
    expect(files.map((f) => f.name)).toEqual(['world/world.gmap', 'world/a.nw', 'world/b.nw', 'world/more/c.nw', 'pics1.png']);
    expect(await files[1]!.file.text()).toBe('a.nw');
  });

  it('stops at MAX_DROP_DEPTH folders deep (a folder that holds itself, as a link loop does)', async () => {
    const loop: DropEntry = folder('loop', () => [file('x.nw'), loop]);
    const files = await filesOfEntries([loop]);
    expect(files).toHaveLength(MAX_DROP_DEPTH);
    expect(files.at(-1)!.name.split('/')).toHaveLength(MAX_DROP_DEPTH + 1);
  });
});
