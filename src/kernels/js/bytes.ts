// Reference kernels: byte-rewriting family. See src/kernels/types.ts for the contract.

export function replaceByte(buf: Uint8Array, from: number, to: number): number {
  // indexOf is a native byte search: on text where matches are a few percent of the bytes (the
  // 0xA7 line breaks of Graal NPC scripts) several times a per-byte loop. The store keeps the
  // low byte of `to`, as the contract says.
  let n = 0;
  for (let i = buf.indexOf(from); i >= 0; i = buf.indexOf(from, i + 1)) {
    buf[i] = to;
    n++;
  }
  return n;
}
