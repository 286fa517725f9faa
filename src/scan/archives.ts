// The scan's archive lister: every zip the workers find is listed here, on the main thread,
// through its central directory (zip.ts), one at a time; each member is checked against
// --max-bytes and charged to its archive's inflate budget before it becomes a task. Zips on disk
// stay open (at most MAX_OPEN_ZIPS) until their last member is answered; nested zips are opened
// depth first, so the ones held in memory are one chain. See src/scan/README.md ("Zips").
import * as nodeFs from 'node:fs';
import { baseOf } from './item-node.js';
import type { MemberPlace, RecordBase } from './job.js';
import { ioFailure, NOT_AS_LISTED, sameIdentity } from './read.js';
import type { CheckedScanOptions, ScanOptions } from './scan-options.js';
import type { Schedule, ZipLister } from './schedule.js';
import { Archive, failed, faultFor, type Task, type Unchanged } from './task.js';
import { BytesReader, FileHandleReader, InflateBudget, type Member, memberRefusal, members, ZipError } from './zip.js';

/** Zip archives on disk held open at once for their members' workers (each is one file descriptor). */
const MAX_OPEN_ZIPS = 256;

export class Archives implements ZipLister {
  /** Descriptors of the zips on disk open now. */
  private readonly open = new Set<number>();
  // Zips found by the workers wait here: files on disk first-come, members that are zips
  // last-come (depth first, so the nested zips held in memory are one chain at most).
  private readonly files: Task[] = [];
  private readonly nestedZips: Task[] = [];
  listing = false;

  constructor(
    private readonly schedule: Schedule,
    private readonly checked: CheckedScanOptions,
    private readonly options: ScanOptions,
    private readonly unchanged: Unchanged | undefined,
  ) {}

  file(task: Task): void {
    this.files.push(task);
    this.run();
  }

  nested(task: Task): void {
    if (task.archive) task.archive.nested++;
    this.nestedZips.push(task);
    this.run();
  }

  /** Closes every zip still open (the scan ended before their members were answered). */
  close(): void {
    for (const fd of this.open) nodeFs.closeSync(fd);
    this.open.clear();
  }

  /** Lists every zip found, one at a time; members go to the pool. */
  private run(): void {
    this.schedule.refilling();
    if (this.listing) return;
    this.listing = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      while (!this.schedule.aborted()) {
        const nested = this.nestedZips.pop();
        if (nested) {
          await this.openNested(nested);
          continue;
        }
        if (this.files.length === 0) break;
        if (this.open.size >= MAX_OPEN_ZIPS) {
          // Wait for an archive to be done (or a nested zip, which needs no descriptor).
          this.schedule.flush();
          await this.schedule.nextChange();
          continue;
        }
        await this.openFile(this.files.shift()!);
      }
    } catch (e) {
      // Not one file's failure (those are records): the caller's `skip` threw, or levelkit has a
      // bug. The scan stops with it, as scan()'s rejection rather than a promise nobody awaits.
      this.schedule.fail(e);
    } finally {
      this.listing = false;
      this.schedule.producerEnded();
    }
  }

  private async openFile(task: Task): Promise<void> {
    const path = task.item.path;
    const base = baseOf(path, null);
    const archive = new Archive(this.open);
    try {
      const item = task.item.kind === 'file' ? task.item : undefined;
      const flags = (nodeFs.constants.O_RDONLY ?? 0) | (nodeFs.constants.O_NONBLOCK ?? 0) | (item?.noFollow ? (nodeFs.constants.O_NOFOLLOW ?? 0) : 0);
      const fd = nodeFs.openSync(Buffer.from(path, 'latin1'), flags);
      archive.hold(fd);
      const st = nodeFs.fstatSync(fd, { bigint: true });
      if (item?.id && !sameIdentity(st, item.id)) {
        this.schedule.emit(failed(base, null, 'IO', NOT_AS_LISTED));
        return;
      }
      if (!st.isFile()) {
        this.schedule.emit(failed(base, null, 'NOT_A_FILE', 'not a regular file; only regular files are read'));
        return;
      }
      task.mtimeMs = Number(st.mtimeMs);
      const size = Number(st.size);
      await this.list(new FileHandleReader(fd, size), task, base, '', 1, { fd, size }, archive, undefined);
    } catch (e) {
      this.schedule.emit(failed(base, null, 'IO', ioFailure(e).message));
    } finally {
      // The zip itself was a task until now; its members are tasks of their own.
      archive.release();
      this.schedule.listed(task);
    }
  }

  /** A member that is a zip: its bytes are asked for again (a worker inflates them into shared memory), then it is listed like a file. */
  private async openNested(task: Task): Promise<void> {
    const item = task.item;
    if (item.kind !== 'member') return;
    if (task.archive) task.archive.nested--;
    const a = await this.schedule.request({ item: { ...item, open: true }, size: task.size, declared: task.declared, archive: null, mtimeMs: task.mtimeMs });
    if (!('opened' in a)) {
      this.schedule.answer(task, 'line' in a || 'record' in a || 'timeout' in a || 'crashed' in a ? a : { crashed: 'no bytes for a nested zip' });
      return;
    }
    const archive = new Archive(this.open);
    const bytes = new Uint8Array(a.opened);
    // Its members charge its own budget and every archive's around it.
    const parent = task.archive?.budget ?? undefined;
    await this.list(
      new BytesReader(bytes),
      task,
      baseOf(item.path, item.member),
      `${item.member}/`,
      item.level + 1,
      { shared: a.opened, size: a.size },
      archive,
      parent,
    );
    // Hold this zip's bytes until its members are answered: then the nested zips found among
    // them (pushed meanwhile) come next, and the zips held in memory stay one chain.
    while (archive.pending - 1 > archive.nested && !this.schedule.aborted()) {
      this.schedule.flush();
      await this.schedule.nextChange();
    }
    this.schedule.done(task);
  }

  /** Reads a zip's directory and hands each member that may be inflated to the pool. */
  private async list(
    reader: FileHandleReader | BytesReader,
    task: Task,
    base: RecordBase,
    prefix: string,
    level: number,
    source: MemberPlace['source'],
    archive: Archive,
    parent: InflateBudget | undefined,
  ): Promise<void> {
    const { maxBytes, maxZipRatio } = this.checked;
    let list: Member[];
    try {
      // The directory and every local header are read and checked here, the layout as a whole
      // (overlapping members are a bomb's): workers get only places that passed.
      list = await members(reader, maxBytes);
    } catch (e) {
      // A zip whose directory cannot be read, or whose members overlap, is itself the failed file (or member).
      if (!(e instanceof ZipError)) throw e;
      this.schedule.emit(failed(base, source.size, e.code, `zip: ${e.message}`));
      return;
    }
    const budget = new InflateBudget(source.size, maxZipRatio, parent);
    archive.budget = budget;
    for (const m of list) {
      if (this.schedule.aborted()) return;
      if (m.kind === 'folder') continue;
      const member = prefix + m.name;
      // Charged before a worker inflates it: inflating stops at the declared size, so that is all it can cost.
      const refused = memberRefusal(m, maxBytes, budget);
      if (refused) {
        this.schedule.emit(failed({ ...base, member }, m.size, refused.code, refused.message));
        continue;
      }
      if (task.mtimeMs !== null && this.unchanged?.({ path: base.path, member, bytes: m.size, mtimeMs: task.mtimeMs })) continue;
      await this.schedule.waitForRoom(true);
      const fault = faultFor(this.options.inject, Buffer.from(task.item.path, 'latin1'), member);
      const place: MemberPlace = { source, dataStart: m.dataStart, compressedSize: m.compressedSize, size: m.size, method: m.method, level };
      const item = { kind: 'member' as const, path: task.item.path, member, ...place, ...(fault ? { fault } : {}) };
      this.schedule.submit({ item, size: m.size, declared: m.size, archive, mtimeMs: task.mtimeMs });
    }
    this.schedule.flush();
  }
}
