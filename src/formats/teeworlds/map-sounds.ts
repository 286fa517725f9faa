// The SOUND items of a Teeworlds map: external names and embedded sound data.

import { SOUND } from './items.js';
import { EMPTY_TEXT, need, type Reader, readOrClaim, readString } from './map-reader.js';
import type { MapSound } from './types.js';

export function decodeSound(rd: Reader, d: Int32Array, index: number, path: string): MapSound {
  need(rd, d, index, SOUND.data + 1, path);
  const external = d[SOUND.external]! !== 0;
  const snd: MapSound = { version: d[SOUND.version]!, external, name: readString(rd, d[SOUND.name]!, `${path}.name`) ?? EMPTY_TEXT() };
  // data_size (when present) is ignored: the block's own size is the truth.
  if (!external) {
    const data = readOrClaim(rd, d[SOUND.data]!, `${path}.data`);
    if (data) snd.data = data;
  }
  return snd;
}
