// The GWC rules against a real cartridge, and the wdata rule against a synthetic fixture (no real
// .wdata file is public), each with the defect planted through the library.
import { expect, it } from 'vitest';
import type { gwc, wdata } from '../../src/index.js';
import { corpus, describeWith } from '../helpers/needs.js';
import { expectPlanted, findingsOf, load, written } from './plant.js';

type Cartridge = gwc.GwcCartridge;

function changed<T extends Cartridge | wdata.WdataLevel>(value: T, change: (v: T) => void): T {
  const copy = structuredClone(value);
  change(copy);
  return written(copy);
}

describeWith(corpus('gwc'), 'GWC rules on a real cartridge', (dir) => {
  const cart = () => load<Cartridge>(`${dir}/Wherigo-Player__bajor_gizi_park__e7552d2c.gwc`);

  it('gwc/media-type: a media object of an unknown type, and one whose bytes are not its type', () => {
    const c = cart();
    expectPlanted(
      'gwc/media-type',
      c,
      changed(c, (v) => {
        v.media[0]!.type = 99;
      }),
      /has type 99, which no player knows/,
    );
    const png = c.media.findIndex((m) => m.type === 2 || m.type === 3);
    const broken = changed(c, (v) => {
      const data = v.media[png]!.data;
      data[0] = data[0]! ^ 0xff;
    });
    expectPlanted('gwc/media-type', c, broken, /is declared (png|jpg) but its bytes look like/);
  });

  it('gwc/coordinates: a starting point off the globe', () => {
    const c = cart();
    expectPlanted(
      'gwc/coordinates',
      c,
      changed(c, (v) => {
        v.header.latitude = 95;
      }),
      /starting point \(.*\) is off the globe/,
    );
  });

  it('gwc/duplicate-object-id: two table rows with one id (the encoder refuses to write one, so the decoded value is changed)', () => {
    const c = cart();
    expect(findingsOf(c, 'gwc/duplicate-object-id')).toEqual([]);
    const twice = structuredClone(c);
    twice.table[2]!.id = twice.table[1]!.id;
    expect(findingsOf(twice, 'gwc/duplicate-object-id').map((f) => f.message)).toEqual([`object id ${c.table[1]!.id} appears twice in the object table`]);
  });
});

it('wdata/dangling-reference: an EventHit box naming an animated background the file lacks', () => {
  // The fixture's names are random; the untouched level is made consistent first, through the library.
  const fixture = load<wdata.WdataLevel>('fixtures/wdata/eventbox-v3.wdata');
  const hitNames = (l: wdata.WdataLevel) => l.eventBoxes!.tables[5]!.fields.aniBGName as wdata.WString[];
  const clean = changed(fixture, (l) => {
    hitNames(l)[0] = { ...hitNames(l)[0]!, text: l.aniBGs.name[0]!.text };
  });
  const planted = changed(clean, (l) => {
    hitNames(l)[0] = { ...hitNames(l)[0]!, text: 'no such background' };
  });
  expectPlanted('wdata/dangling-reference', clean, planted, /names animated background 'no such background'/);
});
