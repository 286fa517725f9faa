// gwc.diff on a real cartridge (the corpus' kobor_kutyak_es_columbo) and the fixture, wdata.diff on
// the v22 fixture: one edit through the library, written back with encode() and decoded again, and
// diff names exactly that edit.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/digest.js';
import type { GwcCartridge } from '../../src/formats/gwc/types.js';
import { gwc, textFrom, wdata } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';
import { editing } from './edited.js';

function gwcSuite(name: string, bytesOf: () => Uint8Array) {
  describe(name, () => {
    const { fresh: cart, diffWith } = editing<GwcCartridge>(gwc, bytesOf);
    it('a header field', () => {
      const old = cart().header.author.text;
      expect(
        diffWith((c) => {
          c.header.author = textFrom('someone else', 'utf-8');
        }),
      ).toEqual([{ kind: 'header', field: 'author', from: old, to: 'someone else' }]);
    });
    it("a media object's bytes, by id and SHA-256", () => {
      const a = cart();
      const m = a.media.find((x) => x.data.length > 8)!;
      const data = m.data.slice();
      data[data.length - 1]! ^= 1;
      expect(
        diffWith((c) => {
          c.media[m.id - 1]!.data = data;
        }),
      ).toEqual([{ kind: 'media-changed', id: m.id, field: 'sha256', from: sha256Hex(m.data), to: sha256Hex(data) }]);
    });
    it('the Lua bytecode: changed or not, with sizes', () => {
      const a = cart();
      const bytes = new Uint8Array([...a.lua.bytes]);
      bytes[bytes.length - 1]! ^= 1;
      const changes = diffWith((c) => {
        c.lua.bytes = bytes;
      });
      expect(changes).toEqual([
        {
          kind: 'lua-changed',
          field: 'bytecode',
          from: { bytes: bytes.length, sha256: sha256Hex(a.lua.bytes) },
          to: { bytes: bytes.length, sha256: sha256Hex(bytes) },
        },
      ]);
    });
  });
}

gwcSuite('gwc.diff: the basic fixture', () => readBytes(join(FIXTURES, 'gwc/basic.gwc')));
describeCorpus('gwc', 'gwc.diff: a real cartridge', (dir) =>
  gwcSuite('kobor_kutyak_es_columbo', () => readBytes(join(dir, 'Wherigo-Player__kobor_kutyak_es_columbo__d33f220f.gwc'))),
);

describe('wdata.diff: the main v22 fixture', () => {
  const bytes = () => readBytes(join(FIXTURES, 'wdata/main-v22.wdata'));
  it('diff a a and diff a encode(a) are empty', () => {
    expect(wdata.diff(wdata.decode(bytes()), wdata.decode(bytes()))).toEqual([]);
    expect(wdata.diff(wdata.decode(bytes()), wdata.decode(wdata.encode(wdata.decode(bytes()))))).toEqual([]);
  });
  it("a box's position, matched by its name", () => {
    const a = wdata.decode(bytes());
    const table = a.eventBoxes!.tables.findIndex((t) => t.count > 0);
    const box = wdata.boxAt(a, table, 0);
    const b = wdata.decode(bytes());
    b.eventBoxes!.tables[table]!.posX[0] = box.position[0] + 10;
    const changes = wdata.diff(a, wdata.decode(wdata.encode(b)));
    const to = [box.position[0] + 10, box.position[1], box.position[2]];
    expect(changes).toEqual([{ kind: 'row-changed', section: `event:${wdata.typeName(table)}`, id: box.name, field: 'position', from: box.position, to }]);
  });
  it('a header path', () => {
    const a = wdata.decode(bytes());
    const b = wdata.decode(bytes());
    b.modelPath = { ...b.modelPath, text: 'other.nif' };
    expect(wdata.diff(a, wdata.decode(wdata.encode(b)))).toEqual([{ kind: 'header', field: 'modelPath', from: a.modelPath.text, to: 'other.nif' }]);
  });
});
