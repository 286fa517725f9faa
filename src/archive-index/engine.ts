// DuckDB, loaded only by what needs it (`scan --index`, `query`, `diff` of two indexes): a user who
// decodes levels never loads it, and one who has not installed it gets one line saying what to install.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as DuckDb from '@duckdb/node-api';

export type DuckDbModule = typeof DuckDb;

/** The package levelkit's index runs on; an optional peer dependency. */
export const ENGINE_PACKAGE = '@duckdb/node-api';

/** DuckDB is not installed (or does not load on this machine). */
export class EngineMissing extends Error {
  constructor(cause: unknown) {
    super(`the index needs DuckDB: npm install ${ENGINE_PACKAGE} (${String((cause as Error)?.message ?? cause).split('\n')[0]})`);
    this.name = 'EngineMissing';
  }
}

let loaded: Promise<DuckDbModule> | null = null;

/**
 * Required, not imported: `@duckdb/node-api` is CommonJS in 124 files, and importing CommonJS from
 * ESM makes Node run cjs-module-lexer over every one of them to find its export names: about
 * 40 % of a `levelkit query`'s start-up CPU. require() reads the same files
 * without the lexer and shares its module cache with any import of the package (one copy).
 */
export function loadEngine(): Promise<DuckDbModule> {
  loaded ??= new Promise<DuckDbModule>((resolve) => resolve(createRequire(import.meta.url)(ENGINE_PACKAGE) as DuckDbModule)).catch((e: unknown) => {
    loaded = null;
    throw new EngineMissing(e);
  });
  return loaded;
}

/** A SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** A DuckDB of levelkit's own (openEngine): its connection, and close() that ends it and removes its spill folder. */
export interface Engine {
  engine: DuckDbModule;
  instance: DuckDb.DuckDBInstance;
  db: DuckDb.DuckDBConnection;
  /** Its private spill folder. */
  spill: string;
  close(): void;
}

/**
 * An in-memory DuckDB that installs and loads no extension and spills to a private folder,
 * removed on close: DuckDB may always read and write its temp_directory, by default `.tmp` in the
 * current folder (which made the user's own `.tmp` readable). `memoryLimit` (DuckDB's syntax,
 * '256MB') bounds what a big sort or window holds before it spills, for the work levelkit runs on
 * its own behalf, whose peak would otherwise grow with the index (the keys of --resume).
 */
export async function openEngine(options: { memoryLimit?: string } = {}): Promise<Engine> {
  const engine = await loadEngine();
  const spill = mkdtempSync(join(tmpdir(), 'levelkit-duckdb-'));
  let instance: DuckDb.DuckDBInstance | undefined;
  try {
    instance = await engine.DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      temp_directory: spill,
      ...(options.memoryLimit ? { memory_limit: options.memoryLimit } : {}),
    });
    const db = await instance.connect();
    const opened = instance;
    return {
      engine,
      instance: opened,
      db,
      spill,
      close() {
        db.closeSync();
        opened.closeSync();
        rmSync(spill, { recursive: true, force: true });
      },
    };
  } catch (e) {
    instance?.closeSync();
    rmSync(spill, { recursive: true, force: true });
    throw e;
  }
}
