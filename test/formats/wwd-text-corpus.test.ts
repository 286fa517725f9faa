// WWD text is lossless over the real-file corpus (../shared/corpus/wwd; absent: a visible skip,
// or a failure under CI): every file decoded in a code page it was not written in (Windows-1250) and re-encoded
// keeps every stored text byte (uncompressed files stay byte for byte), a changed string
// round-trips, and one the code page cannot hold is refused with UNENCODABLE_TEXT.
import { expect, it } from 'vitest';
import type { Text, WwdLevel } from '../../src/formats/wwd/index.js';
import { EncodeError, wwd } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';

const ENCODING = 'windows-1250';

/** Every text field of a level with its path, as stored bytes (hex) and text. */
function texts(level: WwdLevel): Map<string, { raw: string; text: string }> {
  const out = new Map<string, { raw: string; text: string }>();
  const add = (path: string, t: Text): void => {
    out.set(path, { raw: Buffer.from(t.raw).toString('hex'), text: t.text });
  };
  const addAll = (path: string, list: readonly Text[]): void => {
    for (const [i, t] of list.entries()) add(`${path}[${i}]`, t);
  };
  for (const [k, v] of Object.entries(level.header)) {
    if (Array.isArray(v)) addAll(`header.${k}`, v);
    else if (v && typeof v === 'object' && 'raw' in v) add(`header.${k}`, v);
  }
  for (const [i, p] of level.planes.entries()) {
    add(`planes[${i}].name`, p.name);
    addAll(`planes[${i}].imageSetNames`, p.imageSetNames);
    for (const s of ['name', 'logic', 'imageSet', 'animation'] as const) addAll(`planes[${i}].objects.${s}`, p.objects[s]);
  }
  return out;
}

describeCorpus('wwd', `wwd corpus text read as ${ENCODING}`, (dir) => {
  const files = listFiles(dir, /\.wwd$/i).filter((p) => !p.includes('badsig'));
  let fields = 0,
    byteExact = 0;

  it('has the 60 decodable files', () => expect(files.length).toBe(60));

  it.each(files.map((p) => [p.slice(dir.length + 1), p]))('%s', (_name, p) => {
    const bytes = readBytes(p);
    const level = wwd.decode(bytes, { encoding: ENCODING });
    const before = texts(level);
    fields += before.size;
    // Unchanged: every stored text byte survives (raw bytes, not the text, are written).
    const again = wwd.encode(level, { level: 1 });
    if (!level.header.compressed) {
      expect(Buffer.compare(Buffer.from(again), Buffer.from(bytes))).toBe(0);
      byteExact++;
    }
    expect(texts(wwd.decode(again, { encoding: ENCODING }))).toEqual(before);

    // Changed: the new string is written in Windows-1250 and read back; nothing else moves.
    const main = level.planes[Math.max(0, level.mainPlane)]!;
    level.header.name.text = 'Łódź – zażółć';
    main.name.text = 'Tło';
    if (main.objects.count) main.objects.logic[0]!.text = 'Śliwka';
    const back = wwd.decode(wwd.encode(level, { compress: false, trailing: false }), { encoding: ENCODING });
    const m = level.planes.indexOf(main);
    const changed = new Map([
      ['header.name', 'Łódź – zażółć'],
      [`planes[${m}].name`, 'Tło'],
      ...(main.objects.count ? [[`planes[${m}].objects.logic[0]`, 'Śliwka'] as const] : []),
    ]);
    const got = texts(back);
    for (const [path, t] of before) {
      if (changed.has(path)) expect(got.get(path)?.text, path).toBe(changed.get(path));
      else expect(got.get(path), path).toEqual(t);
    }
    expect(back.header.name.raw.subarray(0, 13)).toEqual(Uint8Array.of(0xa3, 0xf3, 0x64, 0x9f, 0x20, 0x96, 0x20, 0x7a, 0x61, 0xbf, 0xf3, 0xb3, 0xe6));

    // Unencodable: a character Windows-1250 lacks is refused, not written as '?'.
    main.name.text = 'Tło 漢';
    let err: unknown;
    try {
      wwd.encode(level, { compress: false, trailing: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EncodeError);
    expect(err).toMatchObject({ code: 'UNENCODABLE_TEXT', path: `planes[${level.planes.indexOf(main)}].name` });
  });

  it('counts', () => {
    console.log(`wwd corpus as ${ENCODING}: ${files.length} files, ${fields} text fields kept byte for byte, ${byteExact} uncompressed files identical`);
    expect(byteExact).toBe(3);
  });
});
