// Wherigo object models (#42's floor: analysis of the corpus's cartridges ≤ 3 × their plain
// decode). Base: gwc.decode of every corpus cartridge (header, object table, media), what `scan`
// and `info` paid before #42. Variants: objectModel of the decoded values alone (chunk decode +
// string decoders + abstract interpretation + model), and decode followed by objectModel (what a
// scan that reads objects pays); then decode + objectModel against decode + decodeLua (the whole
// cartridge, chunk included, read). Alternating passes, the load printed beside each ratio.
// Run alone: npx tsx bench/index.ts gwc-analysis

import { gwc } from '../src/index.js';
import { corpusDir, listFiles, readBytes } from '../test/helpers/paths.js';
import { interleavedRatios } from './lib.js';

const dir = corpusDir('gwc');
if (!dir) console.log('gwc-analysis: ../shared/corpus/gwc not found; skipped');
else {
  const files = listFiles(dir, /\.gwc$/)
    .filter((p) => !p.includes('/gwz/'))
    .map(readBytes);
  const decoded = files.map((b) => gwc.decode(b));
  const bytes = files.reduce((n, b) => n + b.length, 0);
  const passes = 5;
  const decodeAll = () => {
    for (let i = 0; i < passes; i++) for (const b of files) gwc.decode(b);
  };
  const analyseAll = () => {
    for (let i = 0; i < passes; i++) for (const d of decoded) gwc.objectModel(d);
  };
  const bothAll = () => {
    for (let i = 0; i < passes; i++) for (const b of files) gwc.objectModel(gwc.decode(b));
  };
  interleavedRatios(
    `${files.length} corpus cartridges (${(bytes / 1e6).toFixed(1)} MB), ${passes} passes each: ÷ gwc.decode`,
    ['decode', decodeAll],
    [
      ['objectModel alone', analyseAll],
      ['decode + objectModel', bothAll],
    ],
  );
  // gwc.decode leaves the media as views and does not read the chunk (1.7 of the corpus's 10.2 MB
  // are Lua): the same work measured against a decode that reads the whole cartridge, chunk included.
  const decodeWholeAll = () => {
    for (let i = 0; i < passes; i++) for (const b of files) gwc.decodeLua(gwc.decode(b) as gwc.GwcCartridge);
  };
  interleavedRatios(
    `the same: ÷ gwc.decode + gwc.decodeLua (the whole cartridge read, its chunk included)`,
    ['decode + decodeLua', decodeWholeAll],
    [['decode + objectModel', bothAll]],
  );
}
