// Blocks a lazy map keeps deflated that the archive index has no use for (an opaque layer's, a
// 2007 map's data): the index still inflates them, so a map whose stream is damaged gets no rows,
// as the eager decode would have refused it; each is inflated where the inflater puts it and
// dropped, so checking them makes no array. A 2007 map's two 1024×1024 images were 8 MB of arrays
// per file made and dropped, a dozen times over the corpus, filling the scan workers' malloc arenas.

import { isPending, readUncached } from '../../core/lazy.js';
import type { BlockReader } from './datafile.js';

const noted = new WeakMap<object, readonly BlockReader[]>();

/** Records that `owner`'s lazy field (see checkDeferredBlocks) is read from `blocks`. */
export function noteDeferredBlocks(owner: object, blocks: readonly BlockReader[]): void {
  noted.set(owner, blocks);
}

/**
 * Inflates every block behind `owner[key]` while it is still unread, keeping nothing; throws the
 * DecodeError reading the field would throw. Blocks not noted are read as the field is (readUncached).
 */
export function checkDeferredBlocks<T extends object>(owner: T, key: keyof T): void {
  if (!isPending(owner, key)) return;
  const blocks = noted.get(owner);
  if (!blocks) {
    readUncached(owner, key);
    return;
  }
  for (const b of blocks) {
    if (b.readResident) b.readResident(() => undefined);
    else b.read();
  }
}
