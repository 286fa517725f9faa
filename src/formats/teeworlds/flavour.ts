// Which game's layouts a Teeworlds map uses, derived from its item versions: the decoder reports
// it and the encoder's check refuses a `flavour` the versions would not read back as.
import type { MapFlavour, TeeworldsMap } from './types.js';

/**
 * `teeworlds07` when any image is v2+, any envelope v3+ or any tilemap v4+ (an opaque layer's
 * stored version does not count); else `infclass` when any layer is an InfClass entity or zone
 * layer; else `ddnet` (`legacy` for 2007 maps).
 */
export function flavourOf(map: Pick<TeeworldsMap, 'images' | 'envelopes' | 'groups' | 'legacy'>): MapFlavour {
  if (map.legacy) return 'legacy';
  const layers = map.groups.flatMap((g) => g.layers);
  const seventh =
    map.images.some((i) => i.version >= 2) ||
    map.envelopes.some((e) => e.version >= 3) ||
    layers.some((l) => l.kind !== 'opaque' && 'tilemapVersion' in l && l.tilemapVersion >= 4);
  if (seventh) return 'teeworlds07';
  return layers.some((l) => l.kind === 'infclassEntities' || l.kind === 'infclassZones') ? 'infclass' : 'ddnet';
}
