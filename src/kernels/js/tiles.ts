// Reference kernels: tile-grid family. See src/kernels/types.ts for the contract.

const INVISIBLE = 0xffffffff;
const FILLED = 0xeeeeeeee;

export function scanTileGrid(cells: Uint32Array, counts: Uint32Array, maxIds: Int32Array): number {
  let invisible = 0,
    filled = 0,
    used = 0,
    other = 0;
  const setCount = maxIds.length;
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i]!;
    if (v === INVISIBLE) invisible++;
    else if (v === FILLED) filled++;
    else {
      used++;
      const set = v >>> 16;
      if (set >= setCount) other++;
      else if ((v & 0xffff) > maxIds[set]!) maxIds[set] = v & 0xffff;
    }
  }
  counts[0] = invisible;
  counts[1] = filled;
  counts[2] = used;
  counts[3] = other;
  return 0;
}
