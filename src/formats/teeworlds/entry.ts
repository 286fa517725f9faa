// Registry adapter for Teeworlds / DDNet maps (see src/formats/registry.ts).
import type { FormatEntry } from '../registry.js';
import { decode, encode, sniff } from './index.js';
import { gameLayer, summarizeMap } from './summary.js';
import type { TeeworldsMap } from './types.js';

export const entry: FormatEntry = {
  ids: ['teeworlds'],
  sniff: (head) => (sniff(head) ? 'teeworlds' : undefined),
  decode,
  summarize: (value) => summarizeMap(value as TeeworldsMap) as unknown as { version: number; summary: Record<string, unknown> },
  encode: (value) => encode(value as TeeworldsMap),
  mainGrid(value) {
    const game = gameLayer(value as TeeworldsMap);
    return game?.tiles ? { width: game.width, height: game.height, cells: game.tiles.index } : undefined;
  },
};
