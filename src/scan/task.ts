// What the scan's stages pass between them: a task (one file or zip member for the workers, and
// what its answer feeds) and the archive a member keeps open. Shared by the walk stage
// (visit.ts), the archive lister (archives.ts) and the scheduler (schedule.ts). See
// src/scan/README.md ("How a scan runs").
import * as nodeFs from 'node:fs';
import type { ErrorRecord } from '../index.js';
import { baseOf } from './item-node.js';
import type { Fault, Inject, RecordBase, ScanRecord } from './job.js';
import type { PoolAnswer, PoolTask } from './pool.js';
import type { ResumeKey, ScanOptions, ScanStats } from './scan-options.js';
import type { InflateBudget } from './zip.js';

/** A task of this scan: the pool's, plus what its answer feeds. */
export interface Task extends PoolTask {
  /** Size for the record when its worker is lost (what the file system or zip directory said). */
  declared: number | null;
  /** The archive it is a member of (its descriptor is closed, or its bytes released, when the last member is answered). */
  archive: Archive | null;
  /** Set on a request for a nested zip's bytes: where the answer goes. */
  opened?: (a: PoolAnswer) => void;
  /** Modification time the walk saw (for a member: its zip's), for its record (recordMtimeMs); null when unknown. */
  mtimeMs: number | null;
}

/** An archive whose members are in the queue or in workers. */
export class Archive {
  fd: number | null = null;
  /** Members not answered yet, plus one while its directory is being listed. */
  pending = 1;
  /** Of those, members that are zips waiting for the listing loop to open them. */
  nested = 0;
  /** What its members may inflate, all together (charged before each is handed to a worker); set once its directory is read. */
  budget: InflateBudget | null = null;

  /** `held`: the descriptors of every archive open now, closed at the end of the scan whatever happens. */
  constructor(private readonly held: Set<number>) {}

  /** The archive is open at `fd` until its last member is answered. */
  hold(fd: number): void {
    this.fd = fd;
    this.held.add(fd);
  }

  /** One member answered (or its listing over): the last closes the archive. */
  release(): void {
    if (--this.pending === 0) this.close();
  }

  private close(): void {
    if (this.fd === null) return;
    this.held.delete(this.fd);
    nodeFs.closeSync(this.fd);
    this.fd = null;
  }
}

/** Whether a file or member is unchanged since an earlier scan (`--resume`): it is not read and has no record. */
export type Unchanged = (key: ResumeKey) => boolean;

/** The caller's `skip`, counting what it skips in `stats.skipped`; undefined when it skips nothing. */
export function unchangedFilter(options: ScanOptions, stats: ScanStats): Unchanged | undefined {
  if (!options.skip) return undefined;
  const skip = options.skip;
  return (key) => {
    const answer: unknown = skip(key);
    // Called for each file as the walk meets it, so an async `skip`'s Promise would be truthy: every file skipped, silently.
    if (typeof answer !== 'boolean')
      throw new TypeError(
        `levelkit: scan option 'skip' must return true or false, got ${answer instanceof Promise ? 'a Promise (it is called synchronously, once per file)' : String(answer)}`,
      );
    if (!answer) return false;
    stats.skipped = (stats.skipped ?? 0) + 1;
    return true;
  };
}

/** A record for a file or member that failed before any worker read it. */
export function failed(base: RecordBase, bytes: number | null, code: string, message: string): ScanRecord {
  return { ...base, bytes, format: null, error: errorOf(code, message) };
}

export function errorOf(code: string, message: string): ErrorRecord {
  return { code, offset: null, path: '', message };
}

/** The test-only fault a file or member is to meet in its worker (`inject`), if any. */
export function faultFor(inject: Inject | undefined, path: Buffer, member: string | null): Fault | undefined {
  if (!inject) return undefined;
  const base = baseOf(path.toString('latin1'), member);
  const name = `${base.path}!${base.member ?? ''}`;
  if (inject.hang && name.includes(inject.hang)) return 'hang';
  if (inject.crash && name.includes(inject.crash)) return 'crash';
  return undefined;
}
