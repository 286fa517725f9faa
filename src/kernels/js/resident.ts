// Reference kernel: Kernels.holdBytes. TypeScript kernels read the caller's bytes where they are.

export function holdBytes<T>(src: Uint8Array, _scratch: number, use: (held: Uint8Array) => T): T {
  return use(src);
}
