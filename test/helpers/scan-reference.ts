// The scan as it ran before workers read their own files (issue 20), in one thread: walk, read
// each file here (readFileSafe), open zips with the scan's zip reader (zip.ts: layout checks,
// inflate budget) and inflate members here, decode with runJob. Tests compare the
// worker pipeline's records with these, record for record.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { DEFAULT_LIMITS, detect, LEVEL_EXTENSIONS } from '../../src/index.js';
import { type Depth, errorFields, type RecordBase, recordOf, runJob, type ScanRecord } from '../../src/scan/job.js';
import { extOf, fileFields } from '../../src/scan/names.js';
import { readFileSafe } from '../../src/scan/read.js';
import { walk } from '../../src/scan/walk.js';
import { BytesReader, FileHandleReader, InflateBudget, isZipHead, memberBytes, members, ZipError } from '../../src/scan/zip.js';

const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Every record (unknown files too, as with --all), sorted like --sort. */
export async function referenceScan(paths: string[], depth: Depth, maxBytes = 256 << 20): Promise<ScanRecord[]> {
  const out: ScanRecord[] = [];
  const candidate = (base: RecordBase, bytes: Uint8Array, levelName: boolean) => {
    if (detect(bytes.subarray(0, 64)) === undefined) {
      out.push(
        levelName
          ? {
              ...base,
              bytes: bytes.length,
              format: null,
              error: errorFields('UNKNOWN_FORMAT', 'named like a level, but no levelkit format recognises its content'),
            }
          : { ...base, bytes: bytes.length, format: null },
      );
      return;
    }
    out.push(
      recordOf(
        base,
        bytes.length,
        runJob({ id: 0, bytes, depth, decode: {} }, hash, () => {}),
      ),
    );
  };
  const visitZip = async (reader: FileHandleReader | BytesReader, base: RecordBase, prefix: string, level: number, parent: InflateBudget | undefined) => {
    let list: Awaited<ReturnType<typeof members>>;
    try {
      list = await members(reader, maxBytes);
    } catch (e) {
      if (!(e instanceof ZipError)) throw e;
      out.push({ ...base, bytes: reader.size, format: null, error: errorFields(e.code, `zip: ${e.message}`) });
      return;
    }
    const budget = new InflateBudget(reader.size, DEFAULT_LIMITS.maxZipRatio, parent);
    for (const m of list) {
      if (m.kind === 'folder') continue;
      const mb = { ...base, member: prefix + m.name };
      const levelName = LEVEL_EXTENSIONS.includes(extOf(Buffer.from(m.name)));
      if (m.size > maxBytes || m.compressedSize > maxBytes) {
        out.push({
          ...mb,
          bytes: m.size,
          format: null,
          error: errorFields('LIMIT_EXCEEDED', `${Math.max(m.size, m.compressedSize)} bytes, over the ${maxBytes}-byte limit (--max-bytes)`),
        });
        continue;
      }
      const over = m.fault ? undefined : budget.charge(m.size);
      if (over) {
        out.push({ ...mb, bytes: m.size, format: null, error: errorFields('LIMIT_EXCEEDED', over) });
        continue;
      }
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await memberBytes(reader, m);
      } catch (e) {
        if (!(e instanceof ZipError)) throw e;
        out.push({ ...mb, bytes: m.size, format: null, error: errorFields(e.code, `zip member: ${e.message}`) });
        continue;
      }
      if (!levelName && isZipHead(bytes)) {
        if (level >= 8) out.push({ ...mb, bytes: bytes.length, format: null, error: errorFields('LIMIT_EXCEEDED', 'zip nested more than 8 deep') });
        else await visitZip(new BytesReader(bytes), mb, `${mb.member}/`, level + 1, budget);
        continue;
      }
      candidate(mb, bytes, levelName);
    }
  };
  for (const entry of walk(paths)) {
    if (entry.kind !== 'file') continue;
    const f = fileFields(entry.path);
    const base: RecordBase = f.fileBytes ? { path: f.file, pathBytes: f.fileBytes, member: null } : { path: f.file, member: null };
    const levelName = LEVEL_EXTENSIONS.includes(extOf(entry.path));
    let zip = false;
    const r = readFileSafe(entry.path, {
      maxBytes,
      wanted: (head) => {
        zip = !levelName && isZipHead(head);
        return !zip;
      },
    });
    const size = () => fs.statSync(entry.path).size;
    if ('unwanted' in r) {
      const fd = fs.openSync(entry.path, 'r');
      try {
        await visitZip(new FileHandleReader(fd, fs.fstatSync(fd).size), base, '', 1, undefined);
      } finally {
        fs.closeSync(fd);
      }
    } else if ('excluded' in r) throw new Error('nothing is excluded here');
    else if ('failure' in r) out.push({ ...base, bytes: size(), format: null, error: errorFields(r.failure.code, r.failure.message) });
    else candidate(base, r.bytes, levelName || entry.named);
  }
  return out;
}
