// The tile histogram of a plane left lazy (`layers: 'lazy'`), counted by the decode while its
// cells lay in the inflated main block, for a caller that wants only how often each tile occurs
// (the archive index). A WWD's planes share one zlib stream, so a plane read later inflates the
// whole block again; counting them then would cost one inflate per plane, counting them in the
// decode's own pass costs none. Kept per plane (weakly: they go with the level).

import { isPending } from '../../core/lazy.js';
import type { Histogram } from '../rows.js';
import type { WwdPlane } from './types.js';

const counted = new WeakMap<WwdPlane, Histogram>();

export function notePlaneCounts(plane: WwdPlane, h: Histogram): void {
  counted.set(plane, h);
}

/** The histogram of `plane`'s cells while its tiles are still unread; undefined otherwise (then count its `tiles`). */
export function planeCountsOf(plane: WwdPlane): Histogram | undefined {
  return isPending(plane, 'tiles') ? counted.get(plane) : undefined;
}
