// Reference kernels: byte-rewriting family. See src/kernels/types.ts for the contract.

export function replaceByte(buf: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] === from) {
      buf[i] = to;
      n++;
    }
  }
  return n;
}
