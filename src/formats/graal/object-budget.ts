// limits.maxLevelObjects for one decode: every object a level keeps (a link, NPC, sign, chest,
// baddy, unknown line; a .gmap cell) takes one, so a file of millions of short lines is a
// LIMIT_EXCEEDED at the first object over the cap instead of a heap that runs out.
import { decodeError, type FormatId } from '../../core/errors.js';

export class ObjectBudget {
  private taken = 0;
  constructor(
    private readonly format: FormatId,
    private readonly max: number,
  ) {}

  /** Counts one object, `table[index]` at `offset`; LIMIT_EXCEEDED past the cap (the path is made only then). */
  take(offset: number, table: string, index: number): void {
    if (++this.taken > this.max) {
      throw decodeError(this.format, 'LIMIT_EXCEEDED', {
        offset,
        path: `${table}[${index}]`,
        expected: `≤ ${this.max} objects in one level (limits.maxLevelObjects)`,
        actual: `${this.taken} or more`,
      });
    }
  }
}
