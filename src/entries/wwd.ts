// levelkit/wwd: the wwd namespace alone, for apps that read one format (see src/entries/README.md).
export * from '../formats/wwd/index.js';
export * from './common.js';
