// The host's byte order. Kernels and formats read typed-array views that match the files' byte
// order only on little-endian hosts (all current ones); every module asks here instead of probing.

/** True on little-endian hosts: typed-array views then match the files' byte order. */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
