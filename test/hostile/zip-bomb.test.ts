// Zip bombs (issue 18, item 6). An archive whose directory entries share one member's bytes, or
// point into the directory itself, is refused whole before anything is inflated; what a zip may
// inflate is capped relative to its size (--max-zip-ratio, scan's maxZipRatio, the library's
// limits.maxZipRatio for GWZ), nested zips charging every archive around them; honest zips read
// as before. Every message a bad zip gets is checked for NaN.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DecodeError, gwc } from '../../src/index.js';
import { type ScanRecord, scan } from '../../src/scan/index.js';
import { BytesReader, memberBytes, members, ZipError } from '../../src/scan/zip.js';
import { bin, jsonLines } from '../helpers/cli.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';
import { craftZip } from '../helpers/zips.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-zipbomb-'));
const MiB = 1 << 20;
const zeros = (n: number) => new Uint8Array(n);

async function all(paths: string[], opts: Parameters<typeof scan>[1] = {}): Promise<ScanRecord[]> {
  const out: ScanRecord[] = [];
  for await (const r of scan(paths, { workers: 1, sort: true, ...opts })) out.push(r);
  return out;
}

function save(name: string, bytes: Uint8Array): string {
  const p = join(tmp, name);
  writeFileSync(p, bytes);
  return p;
}

/** 1,000 directory entries, all pointing at one member that inflates to 4 MiB: 4 GB of inflating if each were read. */
const overlapping = craftZip([{ name: 'bomb.bin', data: zeros(4 * MiB) }], {
  directory: Array.from({ length: 1000 }, (_, i) => ({ name: `copy${i}.map`, member: 0 })),
});

describe('overlapping members', () => {
  it('1,000 entries on one member: one CORRUPT_ARCHIVE record for the zip, nothing inflated', async () => {
    const p = save('overlap.zip', overlapping);
    const started = performance.now();
    const recs = await all([p], { all: true });
    expect(recs).toEqual([
      expect.objectContaining({
        path: p,
        member: null,
        error: expect.objectContaining({ code: 'CORRUPT_ARCHIVE', message: expect.stringMatching(/overlap/) }),
      }),
    ]);
    expect(recs[0]!.error!.message).toMatch(/"copy0\.map" and "copy1\.map" overlap .*1000 members, nothing inflated/);
    // Inflating even one copy costs milliseconds; a thousand would cost seconds. Loose: the machine is shared.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('through the built binary: one line, exit 2', () => {
    save('overlap-cli.zip', overlapping);
    const r = bin(tmp, 'scan', 'overlap-cli.zip', '--quiet');
    expect(r.status).toBe(2);
    const [rec, ...rest] = jsonLines(r.stdout);
    expect(rest).toEqual([]);
    expect(rec).toMatchObject({ path: 'overlap-cli.zip', member: null, error: { code: 'CORRUPT_ARCHIVE' } });
  });

  it('a member whose header sits inside another member, and a member whose data runs into the directory', async () => {
    const a = { name: 'a.nw', data: new TextEncoder().encode('GLEVNW01\n'.repeat(50)), store: true };
    const b = { name: 'b.nw', data: new TextEncoder().encode('GLEVNW01\n') };
    // Member 0 stores a zip of b, so b's local header sits inside its data; entry 1 (b's sizes) points at it.
    const host = { name: 'host.bin', data: craftZip([b]), store: true };
    const inside = craftZip([host, b], {
      directory: [
        { name: 'host.bin', member: 0 },
        { name: 'b.nw', member: 1, localOffset: 30 + 'host.bin'.length },
      ],
    });
    const [x, ...none] = await all([save('inside.zip', inside)]);
    expect(none).toEqual([]);
    expect(x!.error).toMatchObject({ code: 'CORRUPT_ARCHIVE', message: expect.stringMatching(/"host\.bin" and "b\.nw" overlap/) });
    // An entry pointing at bytes that are no local header fails alone; the other member reads.
    const nowhere = craftZip([a, b], {
      directory: [
        { name: 'a.nw', member: 0 },
        { name: 'b.nw', member: 1, localOffset: 40 },
      ],
    });
    const recs = await all([save('nowhere.zip', nowhere)]);
    expect(recs.map((r) => [r.member, r.error?.code ?? r.format])).toEqual([
      ['a.nw', 'graal-nw'],
      ['b.nw', 'CORRUPT_ARCHIVE'],
    ]);
    expect(recs[1]!.error!.message).toMatch(/no local header at 0x28/);
    // Entry pointing at the central directory itself.
    const plain = craftZip([a, b]);
    const cdOffset = new DataView(plain.buffer).getUint32(plain.length - 22 + 16, true);
    const intoDir = craftZip([a, b], {
      directory: [
        { name: 'a.nw', member: 0 },
        { name: 'dir.nw', member: 1, localOffset: cdOffset },
      ],
    });
    const [y] = await all([save('into-dir.zip', intoDir)]);
    expect(y!.error).toMatchObject({ code: 'CORRUPT_ARCHIVE', message: expect.stringMatching(/"dir\.nw" points into the central directory/) });
  });
});

describe('inflate ratio per archive', () => {
  // Three members of 2 MiB of zeros: a few KiB of zip, 6 MiB inflated (about 1000:1).
  const dense = zipSync({ 'a.bin': zeros(2 * MiB), 'b.bin': zeros(2 * MiB), 'c.bin': zeros(2 * MiB) }, { level: 9 });

  it('over the default ratio (100): LIMIT_EXCEEDED records naming --max-zip-ratio, nothing past the budget inflated', async () => {
    expect(dense.length * 100).toBeLessThan(MiB);
    const recs = await all([save('dense.zip', dense)], { all: true });
    expect(recs.map((r) => [r.member, r.error?.code ?? null])).toEqual([
      ['a.bin', 'LIMIT_EXCEEDED'],
      ['b.bin', 'LIMIT_EXCEEDED'],
      ['c.bin', 'LIMIT_EXCEEDED'],
    ]);
    expect(recs[0]!.error!.message).toMatch(/over 100 × its size \(--max-zip-ratio\)/);
  });

  it('under a raised ratio: every member read', async () => {
    const recs = await all([save('dense-ok.zip', dense)], { all: true, maxZipRatio: 2000 });
    expect(recs.map((r) => [r.member, r.error?.code ?? null, r.bytes])).toEqual([
      ['a.bin', null, 2 * MiB],
      ['b.bin', null, 2 * MiB],
      ['c.bin', null, 2 * MiB],
    ]);
  });

  it('nested zips charge the archive around them: each inner zip fits its own budget, the outer runs out', async () => {
    const inner = (n: string) => zipSync({ [`${n}.bin`]: zeros(700 * 1024) }, { level: 9 });
    const outer = zipSync({ 'one.zip': inner('one'), 'two.zip': inner('two') }, { level: 0 });
    const recs = await all([save('nested.zip', outer)], { all: true });
    expect(recs.map((r) => [r.member, r.error?.code ?? null])).toEqual([
      ['one.zip/one.bin', null],
      ['two.zip/two.bin', 'LIMIT_EXCEEDED'],
    ]);
    expect(recs[1]!.error!.message).toMatch(/an archive around it/);
  });

  it('a normal zip of several levels scans as before', async () => {
    const levels = {
      'a.wwd': readBytes(join(FIXTURES, 'wwd', 'claw-compressed.wwd')),
      'b.map': readBytes(join(FIXTURES, 'teeworlds', 'ddrace-v2.map')),
      'c.nw': readBytes(join(FIXTURES, 'graal', 'crlf.nw')),
      'd/e.graal': readBytes(join(FIXTURES, 'graal', 'gr-v103.graal')),
    };
    const recs = await all([save('normal.zip', zipSync(levels, { level: 6 }))]);
    expect(recs.map((r) => [r.member, r.format, r.error?.code ?? null])).toEqual([
      ['a.wwd', 'wwd', null],
      ['b.map', 'teeworlds', null],
      ['c.nw', 'graal-nw', null],
      ['d/e.graal', 'graal', null],
    ]);
  });

  it("the decoders' limits.maxZipRatio (the CLI's --limit maxZipRatio=…) sets the scan's archive budget too", async () => {
    const recs = await all([save('dense-limit.zip', dense)], { all: true, decode: { limits: { maxZipRatio: 2000 } } });
    expect(recs.map((r) => r.error?.code ?? null)).toEqual([null, null, null]);
    const cli = bin(tmp, 'scan', 'dense-limit.zip', '--all', '--quiet', '--limit', 'maxZipRatio=2000');
    expect(cli.status).toBe(0);
    const low = bin(tmp, 'scan', 'dense-limit.zip', '--all', '--quiet', '--limit', 'maxZipRatio=0');
    expect(low.status).toBe(1);
    expect(low.stderr).toMatch(/^levelkit scan: --limit maxZipRatio must be a whole number ≥ 1; got '0'\n/);
  });

  it('the option is validated: scan() names maxZipRatio, the CLI names --max-zip-ratio', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) await expect(all([tmp], { maxZipRatio: bad })).rejects.toThrow(/maxZipRatio/);
    const r = bin(tmp, 'scan', '.', '--max-zip-ratio', '0');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^levelkit scan: --max-zip-ratio must be a whole number ≥ 1; got '0'\n/);
  });
});

describe('GWZ keeps to the same ratio', () => {
  const lua = new TextEncoder().encode('-- cartridge\n');
  const gwz = zipSync({ 'big.jpg': zeros(3 * MiB), '_cartridge.lua': lua }, { level: 9 });

  it('over limits.maxZipRatio: LIMIT_EXCEEDED naming it; raised, it decodes', () => {
    const e = (() => {
      try {
        gwc.decode(gwz);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(DecodeError);
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringMatching(/limits\.maxZipRatio/) });
    const ok = gwc.decode(gwz, { limits: { maxZipRatio: 5000 } });
    expect(ok.format).toBe('gwz');
  });

  it('extract --max-zip-ratio passes the ratio to the decoder', () => {
    save('big.gwz', gwz);
    expect(bin(tmp, 'extract', 'big.gwz', '-o', 'gwz-out').stderr).toMatch(/LIMIT_EXCEEDED: .*limits\.maxZipRatio/);
    expect(bin(tmp, 'extract', 'big.gwz', '-o', 'gwz-out2', '--max-zip-ratio', '5000').status).toBe(0);
  });

  it('render takes --max-zip-ratio too: the same ratio reaches its decoder', () => {
    save('big.gwz', gwz);
    expect(bin(tmp, 'render', 'big.gwz', '-o', 'big.png').stderr).toMatch(/LIMIT_EXCEEDED: .*limits\.maxZipRatio/);
    expect(bin(tmp, 'render', 'big.gwz', '-o', 'big.png', '--max-zip-ratio', '5000').stderr).not.toMatch(/LIMIT_EXCEEDED/);
  });
});

describe('damaged zips: typed errors, no NaN', () => {
  it('a directory past the end of the file says where, in numbers', async () => {
    const z = craftZip([{ name: 'a.nw', data: new TextEncoder().encode('GLEVNW01\n') }], { cdOffset: 0x7fff0000 });
    const [r] = await all([save('past-end.zip', z)]);
    expect(r!.error).toMatchObject({ code: 'CORRUPT_ARCHIVE', message: expect.stringMatching(/central directory .* at 0x7fff0000\) lies past the end/) });
    expect(r!.error!.message).not.toMatch(/NaN/);
  });

  it('every truncation and thousands of byte flips of a zip: ZipError or bytes, never another error or a NaN', async () => {
    const base = zipSync({ 'a.nw': new TextEncoder().encode('GLEVNW01\n'.repeat(20)), 'b/c.map': zeros(300), 'd/': new Uint8Array(0) }, { level: 6 });
    const rand = new Prng(18);
    const cases: Uint8Array[] = [];
    for (let n = 0; n < base.length; n++) cases.push(base.subarray(0, n));
    for (let i = 0; i < 3000; i++) {
      const z = base.slice();
      for (let k = 1 + rand.int(3); k > 0; k--) z[rand.int(z.length)] = rand.int(256);
      cases.push(z);
    }
    const messages: string[] = [];
    for (const z of cases) {
      const src = new BytesReader(z);
      try {
        for (const m of await members(src, MiB)) if (m.kind === 'file') await memberBytes(src, m).catch((e) => messages.push(check(e)));
      } catch (e) {
        messages.push(check(e));
      }
    }
    expect(messages.length).toBeGreaterThan(base.length);
    expect(messages.filter((m) => /NaN|undefined|Infinity/.test(m))).toEqual([]);
  });
});

function check(e: unknown): string {
  if (!(e instanceof ZipError)) throw e;
  return e.message;
}
