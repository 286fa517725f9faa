// levels.author and levels.title hold what they say (issue 40): an author the file leaves empty is
// null, never '', in every format; no format levelkit reads keeps a title apart from its name, so
// title is null on every level rather than an empty string.
import { describe, expect, it } from 'vitest';
import { textFrom } from '../../src/core/text.js';
import { type AnyDecoded, decode, indexRows, type teeworlds, wwd } from '../../src/index.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const levelOf = (v: AnyDecoded) => indexRows(v).level;

describe('levels.author and levels.title', () => {
  it('WWD: an empty author field is null; a given one is kept', () => {
    const blank = wwd.decode(wwd.encode(wwd.newLevel({ name: 'm', author: '', planes: [] })));
    expect(levelOf(blank).author).toBeNull();
    const named = wwd.decode(wwd.encode(wwd.newLevel({ name: 'm', author: 'Monolith', planes: [] })));
    expect(levelOf(named).author).toBe('Monolith');
  });

  it('Teeworlds: an info author of blanks is null, as a map without info', () => {
    const m = decode(readBytes(`${FIXTURES}/teeworlds/ddnet-all-items.map`)) as ReturnType<typeof teeworlds.decode>;
    expect(m.info).not.toBeNull();
    m.info!.author = textFrom('  ', 'utf-8');
    expect(levelOf(m).author).toBeNull();
    m.info = null;
    expect(levelOf(m).author).toBeNull();
  });

  it('GWC: an empty author in the header is null', () => {
    const c = decode(readBytes(`${FIXTURES}/gwc/basic.gwc`));
    if (c.format !== 'gwc') throw new Error('not a cartridge');
    c.header.author = textFrom('', c.header.author.encoding);
    expect(levelOf(c).author).toBeNull();
  });

  it('every fixture level: author null or words, never empty; title null', () => {
    let levels = 0;
    for (const f of listFiles(FIXTURES, /\.(wwd|map|nw|graal|zelda|gmap|gwc|gwz|wdata)$/).filter((p) => !p.includes('/bad/'))) {
      let v: AnyDecoded;
      try {
        v = decode(readBytes(f));
      } catch {
        continue;
      }
      const l = levelOf(v);
      expect(l.author === null || l.author.trim() !== '', f).toBe(true);
      expect(l.title, f).toBeNull();
      levels++;
    }
    expect(levels).toBeGreaterThan(10);
  });
});
