// A finding's place in the level as SARIF logical locations (SARIF 2.1.0 §3.33): levels have no
// lines, so a code-scanning UI names the layer, the object and the cell instead. Each is one
// logicalLocation with `name` (its own part), `fullyQualifiedName` (the parts from the layer down,
// '/'-separated: `layer 2/object 7`, `layer 2/(4, 7)`) and `kind` from SARIF's list for data
// documents: a layer is an `array` (of cells and objects), an object an `object`, a cell or
// position a `value` within them.
import type { Where } from '../../check/types.js';

interface LogicalLocation {
  name: string;
  fullyQualifiedName: string;
  kind: 'array' | 'object' | 'value';
}

/** `{ logicalLocations }` for `where`, or nothing when it names no layer, object or position. */
export function logicalLocations(where: Where): { logicalLocations?: LogicalLocation[] } {
  const out: LogicalLocation[] = [];
  const layer = where.layer === undefined ? '' : `layer ${where.layer}`;
  const under = (name: string) => (layer ? `${layer}/${name}` : name);
  if (layer) out.push({ name: layer, fullyQualifiedName: layer, kind: 'array' });
  if (where.object !== undefined) out.push({ name: `object ${where.object}`, fullyQualifiedName: under(`object ${where.object}`), kind: 'object' });
  if (where.x !== undefined || where.y !== undefined) {
    const at = `(${where.x ?? '?'}, ${where.y ?? '?'})`;
    out.push({ name: at, fullyQualifiedName: under(at), kind: 'value' });
  }
  return out.length ? { logicalLocations: out } : {};
}
