// Workers send each record as its JSON text (src/scan/line.ts); the scan hands out the parsed
// record and the CLI writes the worker's text. The text must be exactly JSON.stringify of the
// record it yields, for records from workers and for those made on the main thread. Also: the
// CLI's tiering tweak (src/cli/tiering.ts) leaves a budget the user chose alone.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tuneTieringForScan } from '../src/cli/tiering.js';
import { recordLine, type ScanRecord, scan } from '../src/scan/index.js';
import { recordOfLine } from '../src/scan/line.js';
import { FIXTURES } from './helpers/paths.js';

describe('record lines', () => {
  it('every record scan() yields has recordLine(r) === JSON.stringify(r), the worker text kept', async () => {
    const records: ScanRecord[] = [];
    // fixtures/ has levels of every format, zips (members, nested, corrupt) and files of no format.
    for await (const r of scan([FIXTURES], { workers: 2, all: true })) records.push(r);
    expect(records.length).toBeGreaterThan(50);
    expect(records.some((r) => r.summary !== undefined)).toBe(true);
    expect(records.some((r) => r.error !== undefined)).toBe(true);
    for (const r of records) expect(recordLine(r)).toBe(JSON.stringify(r));
  });

  it('recordOfLine remembers the text; a record made elsewhere is serialised', () => {
    // Key order and spacing a re-serialisation would not reproduce: the kept text wins.
    const text = '{"path":"a.map","member":null,"bytes":3,"format":null}';
    const r = recordOfLine(text);
    expect(r).toEqual({ path: 'a.map', member: null, bytes: 3, format: null });
    expect(recordLine(r)).toBe(text);
    const fresh: ScanRecord = { path: join('x', 'b.wwd'), member: null, bytes: null, format: null };
    expect(recordLine(fresh)).toBe(JSON.stringify(fresh));
  });
});

describe('tiering for scan', () => {
  it('raises the budget unless the user gave one', () => {
    expect(tuneTieringForScan(['--interrupt-budget=1000'], '')).toBe(false);
    expect(tuneTieringForScan(['--interrupt_budget=1000'], '')).toBe(false);
    expect(tuneTieringForScan([], '--max-old-space-size=100 --interrupt-budget=5')).toBe(false);
    expect(tuneTieringForScan(['--max-old-space-size=4096'], '')).toBe(true);
    expect(tuneTieringForScan([], '')).toBe(true);
  });
});
