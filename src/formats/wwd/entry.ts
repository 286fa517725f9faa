// WWD's adapter to the format registry (detect(), decode(), `levelkit info`, encode()).

import type { FormatEntry, Decoded } from '../registry.js';
import { decode, sniff } from './decode.js';
import { encode } from './encode.js';
import { mainGrid, summarize } from './summary.js';
import type { WwdLevel } from './types.js';

export const entry: FormatEntry = {
  ids: ['wwd'],
  sniff: (head) => (sniff(head) ? 'wwd' : undefined),
  decode: (bytes, opts) => decode(bytes, opts),
  summarize: (value: Decoded) => summarize(value as WwdLevel),
  encode: (value: Decoded) => encode(value as WwdLevel),
  mainGrid: (value: Decoded) => mainGrid(value as WwdLevel),
};
