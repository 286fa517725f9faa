// A folder dropped on the page: its files, found by walking the drop's entries (the browser's
// file and directory entries API), each named by its path below the drop (`world/a.nw`), so a
// dropped folder is loaded as a zip of it would be (a gmap's world then finds its levels beside it).
// Bounded: at most MAX_DROPPED_FILES files and MAX_DROP_DEPTH folders deep (a link loop ends there).

/** Most files read from one drop. */
export const MAX_DROPPED_FILES = 100_000;
/** Deepest folder entered below a dropped one. */
export const MAX_DROP_DEPTH = 32;

/** The parts of FileSystemEntry this reads (so tests can hand it plain objects). */
export interface DropEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: DropEntry[]) => void, fail: (e: unknown) => void): void };
}

/** Every file below `entries`, named by its path from the drop (folders joined with `/`), in the order the browser lists them. */
export async function filesOfEntries(entries: readonly DropEntry[]): Promise<{ name: string; file: File }[]> {
  const out: { name: string; file: File }[] = [];
  const visit = async (entry: DropEntry, prefix: string, depth: number): Promise<void> => {
    if (out.length >= MAX_DROPPED_FILES) return;
    if (entry.isFile && entry.file) {
      const file = await new Promise<File>((ok, fail) => entry.file!(ok, fail));
      out.push({ name: prefix + entry.name, file });
    } else if (entry.isDirectory && entry.createReader && depth < MAX_DROP_DEPTH) {
      const reader = entry.createReader();
      // readEntries hands out a folder's entries in batches, and an empty one at its end.
      for (;;) {
        const batch = await new Promise<DropEntry[]>((ok, fail) => reader.readEntries(ok, fail));
        if (batch.length === 0) break;
        for (const e of batch) await visit(e, `${prefix}${entry.name}/`, depth + 1);
      }
    }
  };
  for (const e of entries) await visit(e, '', 0);
  return out;
}
