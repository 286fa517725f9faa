// Where a SARIF result points: an RFC 3986 URI reference built from the file name's exact bytes.
// A name is bytes on Linux (any but '/' and NUL), so each byte that is not unreserved (ALPHA,
// DIGIT, '-', '.', '_', '~') is percent-encoded on its own: a space, '%', '#', '?', a backslash
// (a character of the name, not a separator), ':' (which would read as a scheme), a UTF-8
// character as its bytes, and a name that is not UTF-8 byte by byte from its raw bytes (`pathBytes`).
// A path under the folder `check` ran in is relative to the uriBaseId SRCROOT (that folder, as a
// file: URI ending in '/', in the log's originalUriBaseIds); any other path is an absolute file: URI.

/** The uriBaseId of relative artifact URIs. */
export const SRCROOT = 'SRCROOT';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** `bytes` percent-encoded, '/' kept as the segment separator. */
export function percentEncodePath(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out += b === 0x2f || (b < 0x80 && UNRESERVED.test(c)) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The folder `root` as the SRCROOT base: a file: URI ending in '/'. */
export function baseUri(root: string): string {
  const encoded = percentEncodePath(Buffer.from(root, 'utf8'));
  return `file://${encoded.endsWith('/') ? encoded : `${encoded}/`}`;
}

/** A file's location: relative to SRCROOT when it lies under `root` (or is given relative), else an absolute file: URI. `.` segments are dropped. */
export function artifactLocation(path: Buffer, root: string): { uri: string; uriBaseId?: string } {
  const rootBytes = Buffer.from(root.endsWith('/') ? root : `${root}/`, 'utf8');
  const absolute = path[0] === 0x2f;
  const inside = absolute && path.length > rootBytes.length && path.subarray(0, rootBytes.length).equals(rootBytes);
  const rest = inside ? path.subarray(rootBytes.length) : path;
  const segments = percentEncodePath(rest)
    .split('/')
    .filter((s, i, all) => s !== '.' && (s !== '' || i === 0 || i === all.length - 1));
  if (absolute && !inside) return { uri: `file://${segments.join('/')}` };
  return { uri: segments.join('/'), uriBaseId: SRCROOT };
}
