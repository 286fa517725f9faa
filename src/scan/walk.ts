// Node-only: expands CLI paths into files. Named files are always kept; files found by walking a
// folder are kept only when detect() recognises their first bytes, so a level archive with
// readmes and images scans cleanly.
import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { detect } from '../index.js';

// detect() looks at no more than the first 64 bytes (SNIFF_BYTES in src/detect.ts). The CLI
// reaches the library only through src/index.ts, which the CLI build keeps external (it loads
// dist/index.mjs), so importing detect.ts here would bundle a second copy of every format.
const HEAD_BYTES = 64;

export interface Expanded {
  files: string[];
  /** Files under folders that no format recognised. */
  skipped: number;
}

export function expandPaths(paths: string[]): Expanded {
  const files: string[] = [];
  let skipped = 0;
  const head = new Uint8Array(HEAD_BYTES);
  const recognised = (p: string): boolean => {
    const fd = openSync(p, 'r');
    try {
      const n = readSync(fd, head, 0, HEAD_BYTES, 0);
      return detect(head.subarray(0, n)) !== undefined;
    } finally {
      closeSync(fd);
    }
  };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      try {
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else if (st.isFile() && recognised(p)) files.push(p);
        else skipped++;
      } catch {
        // Unreadable (a dangling link, no permission): kept, so the caller reports it as this
        // file's IO error instead of one bad entry ending the whole scan.
        files.push(p);
      }
    }
  };
  for (const p of paths) {
    let isDir = false;
    try { isDir = statSync(p).isDirectory(); } catch { /* reported by the caller when read */ }
    if (isDir) walk(p);
    else files.push(p);
  }
  return { files, skipped };
}
