// UUID item types of DDNet maps: an ITEMTYPE_EX (0xffff) item with id X declares that item type X
// means the UUID in its 4 ints (each written big-endian). Matched by value. See README.md §UUID items.

/** The UUID of an EX item's 4 ints, as lower-case 8-4-4-4-12 hex. */
export function uuidFromInts(ints: ArrayLike<number>): string {
  let hex = '';
  for (let i = 0; i < 4; i++) hex += ((ints[i] ?? 0) >>> 0).toString(16).padStart(8, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The 4 ints an EX item stores for `uuid`. */
export function uuidToInts(uuid: string): Int32Array {
  const hex = uuid.replace(/-/g, '');
  const out = new Int32Array(4);
  for (let i = 0; i < 4; i++) out[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16) | 0;
  return out;
}

/** The UUID item types this decoder interprets (names are the frozen wire constants). */
export const UUID = {
  /** mapitemtype-automapper-config@ddnet.tw */
  AUTOMAPPER_CONFIG: '3e1b2716-178c-3978-9bd9-b11ae0410dd8',
  /** mapitemtype-envpoints-bezier@ddnet.tw */
  ENVPOINTS_BEZIER: '3ab4f84d-d9cc-3c78-b585-0d6ccdb2e25c',
  /** mapitemtype-group@ddnet.tw (obsolete group-ex; kept raw) */
  GROUP_EX: '4a26ca1f-64bd-30e3-907a-707eacd1f080',
} as const;
