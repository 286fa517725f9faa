// levelkit/teeworlds: the teeworlds namespace alone, for apps that read one format (see src/entries/README.md).
export * from '../formats/teeworlds/index.js';
export * from './common.js';
