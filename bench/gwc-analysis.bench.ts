// Wherigo object models (#42's floor: analysis of the corpus's cartridges ≤ 3 × their plain
// decode). Base: gwc.decode of every corpus cartridge (header, object table, media), what `scan`
// and `info` paid before #42. Variants: objectModel of the decoded values alone (chunk decode +
// string decoders + abstract interpretation + model), and decode followed by objectModel (what a
// scan that reads objects pays); then decode + objectModel against decode + decodeLua (the whole
// cartridge, chunk included, read). Alternating passes, the load printed beside each ratio.
// Run alone: npx tsx bench/index.ts gwc-analysis

import { findStringDecoders } from '../src/formats/gwc/analysis/decoders.js';
import { heapFromChunk, modelFromHeap } from '../src/formats/gwc/analysis/index.js';
import { decodeLuaForAnalysis } from '../src/formats/gwc/lua-chunk.js';
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
  // Where objectModel's time goes: its stages run one after another from scratch (the string
  // decoders keep what they decoded, so no stage reuses another pass's work); each row ÷ decode,
  // the difference between two rows is one stage.
  const cartridges = decoded as gwc.GwcCartridge[];
  const upTo = (stage: number) => () => {
    for (let i = 0; i < passes; i++)
      for (const d of cartridges) {
        const chunk = decodeLuaForAnalysis(d);
        if (stage < 2) continue;
        const decoders = findStringDecoders(chunk, {});
        if (stage < 3) continue;
        const heap = heapFromChunk(chunk, { decoders, base: d.lua.offset + 4 });
        if (stage < 4) continue;
        modelFromHeap(heap, { mediaCount: d.media.length });
      }
  };
  interleavedRatios(
    `objectModel's stages, cumulative: ÷ gwc.decode`,
    ['decode', decodeAll],
    [
      ['chunk decode (decodeLuaForAnalysis)', upTo(1)],
      ['+ string-decoder search (findStringDecoders)', upTo(2)],
      ['+ abstract pass (heapFromChunk)', upTo(3)],
      ['+ model (modelFromHeap) = objectModel', upTo(4)],
    ],
  );
}
