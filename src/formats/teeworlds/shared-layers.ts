// Where each group's layers go among the LAYER items. A group lists a contiguous range of layer
// items (start, num), and a range may start inside an earlier group's (an MMOTee map; the decoder
// gives the shared layers to each group as one object, warning SHARED_LAYERS). The encoder writes
// each layer object once and points every group that lists it at that item, so such a map is
// written back with the same ranges and its layers' data once.

import { encodeError } from '../../core/errors.js';
import type { MapGroup, MapLayer } from './types.js';

/**
 * The first layer item of each group, and the layer objects in item order. A layer object already
 * written (listed by an earlier group) is listed again at its item; the rest of a group's layers
 * follow the last item written. EncodeError BAD_VALUE when a group's layers cannot be one range
 * of items that way (a shared layer out of place, or one group's layers in another order).
 */
export function placeGroupLayers(groups: readonly MapGroup[]): { starts: number[]; items: MapLayer[] } {
  const itemOf = new Map<MapLayer, number>();
  const items: MapLayer[] = [];
  const starts = groups.map((g, k) => {
    const first = g.layers.length > 0 ? itemOf.get(g.layers[0]!) : undefined;
    const start = first ?? items.length;
    g.layers.forEach((l, j) => {
      const at = itemOf.get(l);
      if (at === start + j) return;
      if (at === undefined && start + j === items.length) {
        itemOf.set(l, items.length);
        items.push(l);
        return;
      }
      throw encodeError('teeworlds', 'BAD_VALUE', {
        path: `groups[${k}].layers[${j}]`,
        expected: 'layers listed by an earlier group at the start of this group, in their order there, then layers of its own',
        actual: at === undefined ? 'a new layer after shared ones that do not reach the last layer written' : `layer item ${at}, not ${start + j}`,
      });
    });
    return start;
  });
  return { starts, items };
}
