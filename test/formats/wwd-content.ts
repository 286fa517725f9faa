// Shared by the WWD suites: a level without what encode() recomputes or what describes the stored
// bytes rather than the level (container: checksum, stream sizes, trailing bytes; warnings).
import type { WwdLevel } from '../../src/formats/wwd/index.js';

export function wwdContent(level: WwdLevel): Omit<WwdLevel, 'container' | 'warnings'> {
  const { container: _c, warnings: _w, ...rest } = level;
  return rest;
}
