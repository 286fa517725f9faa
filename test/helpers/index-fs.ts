// An IndexFs (the index writer's file operations) whose file writes go through `write`: how the
// tests give the writer a disk that fills, stalls or fails, with everything else as node does it.
import * as fs from 'node:fs';
import type { IndexFs } from '../../src/archive-index/writer.js';

type Writev = (buffers: Uint8Array[]) => Promise<{ bytesWritten: number; buffers: Uint8Array[] }>;

/** node:fs/promises, but every `writev` of a file the writer opens calls `write(buffers, writev)` instead (writev: the real one). */
export function writesThrough(write: (buffers: Uint8Array[], writev: Writev) => Promise<{ bytesWritten: number; buffers: Uint8Array[] }>): IndexFs {
  return {
    ...fs.promises,
    open: (async (...a: Parameters<typeof fs.promises.open>) => {
      const fh = await fs.promises.open(...a);
      const writev = fh.writev.bind(fh) as Writev;
      fh.writev = ((buffers: Uint8Array[]) => write(buffers, writev)) as typeof fh.writev;
      return fh;
    }) as IndexFs['open'],
  };
}
