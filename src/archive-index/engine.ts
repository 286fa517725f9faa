// DuckDB, loaded only by what needs it (`scan --index`, `query`, `diff` of two indexes): a user who
// decodes levels never loads it, and one who has not installed it gets one line saying what to install.
import { createRequire } from 'node:module';
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
