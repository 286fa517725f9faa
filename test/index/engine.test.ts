// The DuckDB levelkit opens for its own work (openEngine): spilling to a private folder removed on
// close (never `.tmp` in the current folder), and bounded where asked, so the keys of a --resume
// over a big index spill instead of growing the scan's peak with the index.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { openEngine } from '../../src/archive-index/engine.js';

describe('openEngine', () => {
  it('spills to a private folder under the temp folder, removed on close, with the memory limit asked for', async () => {
    const engine = await openEngine({ memoryLimit: '64MB' });
    const spill = engine.spill;
    try {
      expect(spill.startsWith(tmpdir())).toBe(true);
      expect(existsSync(spill)).toBe(true);
      const read = await engine.db.runAndReadAll(
        "SELECT current_setting('temp_directory'), current_setting('memory_limit'), current_setting('autoload_known_extensions')",
      );
      const [temp, limit, autoload] = read.getRowsJS()[0]!;
      expect(temp).toBe(spill);
      // DuckDB reports the limit in its own units (64 MB = 61.0 MiB).
      expect(String(limit)).toMatch(/^6[01](\.\d+)? MiB$/);
      expect(autoload).toBe(false);
    } finally {
      engine.close();
    }
    expect(existsSync(spill)).toBe(false);
  });

  it('without a limit, DuckDB keeps its default (a share of the machine)', async () => {
    const engine = await openEngine();
    try {
      const read = await engine.db.runAndReadAll("SELECT current_setting('memory_limit')");
      expect(String(read.getRowsJS()[0]![0])).not.toMatch(/^6[01](\.\d+)? MiB$/);
    } finally {
      engine.close();
    }
  });
});
