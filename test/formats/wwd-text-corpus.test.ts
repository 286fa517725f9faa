// WWD text is lossless over the real-file corpus (../shared/corpus/wwd, skipped visibly when
// absent): every file decoded in a code page it was not written in (Windows-1250) and re-encoded
// keeps every stored text byte (uncompressed files stay byte for byte), a changed string
// round-trips, and one the code page cannot hold is refused with UNENCODABLE_TEXT.
import { describe, expect, it } from 'vitest';
import { EncodeError, wwd } from '../../src/index.js';
import type { Text, WwdLevel } from '../../src/formats/wwd/index.js';
import { corpusDir, listFiles, readBytes } from '../helpers/paths.js';

const dir = corpusDir('wwd');
const ENCODING = 'windows-1250';

/** Every text field of a level with its path, as stored bytes (hex) and text. */
function texts(level: WwdLevel): Map<string, { raw: string; text: string }> {
  const out = new Map<string, { raw: string; text: string }>();
  const add = (path: string, t: Text) => out.set(path, { raw: Buffer.from(t.raw).toString('hex'), text: t.text });
  for (const [k, v] of Object.entries(level.header)) {
    if (Array.isArray(v)) v.forEach((t: Text, i) => add(`header.${k}[${i}]`, t));
    else if (v && typeof v === 'object' && 'raw' in v) add(`header.${k}`, v);
  }
  level.planes.forEach((p, i) => {
    add(`planes[${i}].name`, p.name);
    p.imageSetNames.forEach((t, j) => add(`planes[${i}].imageSetNames[${j}]`, t));
    for (const s of ['name', 'logic', 'imageSet', 'animation'] as const) p.objects[s].forEach((t, k) => add(`planes[${i}].objects.${s}[${k}]`, t));
  });
  return out;
}

describe.skipIf(!dir)(`wwd corpus text read as ${ENCODING}`, () => {
  const files = dir ? listFiles(dir, /\.wwd$/i).filter((p) => !p.includes('badsig')) : [];
  let fields = 0, byteExact = 0;

  it('has the 60 decodable files', () => expect(files.length).toBe(60));

  it.each(files.map((p) => [p.slice(dir!.length + 1), p]))('%s', (_name, p) => {
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
    const changed = new Map([['header.name', 'Łódź – zażółć'], [`planes[${m}].name`, 'Tło'], ...(main.objects.count ? [[`planes[${m}].objects.logic[0]`, 'Śliwka'] as const] : [])]);
    const got = texts(back);
    for (const [path, t] of before) {
      if (changed.has(path)) expect(got.get(path)?.text, path).toBe(changed.get(path));
      else expect(got.get(path), path).toEqual(t);
    }
    expect(back.header.name.raw.subarray(0, 13)).toEqual(Uint8Array.of(0xa3, 0xf3, 0x64, 0x9f, 0x20, 0x96, 0x20, 0x7a, 0x61, 0xbf, 0xf3, 0xb3, 0xe6));

    // Unencodable: a character Windows-1250 lacks is refused, not written as '?'.
    main.name.text = 'Tło 漢';
    let err: unknown;
    try { wwd.encode(level, { compress: false, trailing: false }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(EncodeError);
    expect(err).toMatchObject({ code: 'UNENCODABLE_TEXT', path: `planes[${level.planes.indexOf(main)}].name` });
  });

  it('counts', () => {
    console.log(`wwd corpus as ${ENCODING}: ${files.length} files, ${fields} text fields kept byte for byte, ${byteExact} uncompressed files identical`);
    expect(byteExact).toBe(3);
  });
});
