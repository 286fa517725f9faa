// What a scan worker does with one file's bytes, free of any host API so the same code runs in
// a Node worker thread (worker-node.ts) and, later, a Web Worker: detect, decode to the asked
// depth, summarise, and hash the bytes for duplicate finding.
import { DecodeError, type DecodeOptions, decode, EncodeError, type ErrorRecord, summarize } from '../index.js';

/** How deep a scan decodes: `cheap` = `sections: 'summary'`, `full` = every section. */
export type Depth = 'cheap' | 'full';

/**
 * Test-only fault injection (option `inject` of scan()): a file whose path or member contains
 * `hang` spins for ever in the worker, one containing `crash` kills its worker. Used to prove a
 * hung or crashed decoder is reported and replaced; never set it otherwise.
 */
export interface Inject {
  hang?: string;
  crash?: string;
}

/** One file for a worker. `bytes` is transferred, not copied. */
export interface JobMessage {
  id: number;
  bytes: Uint8Array;
  depth: Depth;
  decode: DecodeOptions;
  /** Set by the pool only when the test-only injection matched this file. */
  fault?: 'hang' | 'crash';
}

/** What a worker sends back for one file. */
export type JobResult =
  | {
      id: number;
      ok: { format: string; version: string | number; summary: object; warnings: { code: string; message: string; offset: number | null }[] };
      contentDigest: string;
    }
  | { id: number; error: ErrorRecord; format: string | null; contentDigest: string };

/** Decodes `job.bytes`; never throws (a decoder bug becomes an INTERNAL error result). `hash`: hex SHA-256. */
export function runJob(job: JobMessage, hash: (bytes: Uint8Array) => string, exit: () => void): JobResult {
  if (job.fault === 'hang')
    for (;;) {
      /* test-only: a decoder stuck in a loop */
    }
  if (job.fault === 'crash') exit();
  const contentDigest = hash(job.bytes);
  try {
    const value = decode(job.bytes, { ...job.decode, sections: job.depth === 'cheap' ? 'summary' : 'all' });
    const { version, summary } = summarize(value);
    const warnings = value.warnings.map(({ code, message, offset }) => ({ code, message, offset: offset ?? null }));
    return { id: job.id, ok: { format: value.format, version, summary, warnings }, contentDigest };
  } catch (e) {
    if (e instanceof DecodeError) return { id: job.id, error: e.toJSON(), format: e.format === 'unknown' ? null : e.format, contentDigest };
    if (e instanceof EncodeError) return { id: job.id, error: e.toJSON(), format: null, contentDigest };
    return {
      id: job.id,
      error: { code: 'INTERNAL', offset: null, path: '', message: `levelkit bug: ${String((e as Error)?.stack ?? e)}` },
      format: null,
      contentDigest,
    };
  }
}
