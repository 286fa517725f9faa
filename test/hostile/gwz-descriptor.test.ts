// GWZ members with a data descriptor (general purpose bit 3: the local header says 0 for both
// sizes). The GWZ reader walks local headers, so it cannot check such a member's size before
// inflating it: it must count the bytes as they come. It inflated the member whole first (a 1 MB
// zip took over 3 GB) and called the limit CORRUPT_COMPRESSED. The scan's own zip reader takes
// sizes from the central directory, so a descriptor changes nothing for it (checked here too).
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DecodeError, gwc } from '../../src/index.js';
import { BytesReader, type FileMember, memberBytes, members } from '../../src/scan/zip.js';
import { craftZip } from '../helpers/zips.js';

const MiB = 1 << 20;
const lua = new TextEncoder().encode('-- cartridge\nreturn 1\n');
const INFLATED = 32 * MiB;
// 32 MiB of zeros deflate to ~32 KB: a member that inflates a thousand times its size.
const bomb = { body: deflateRawSync(new Uint8Array(INFLATED), { level: 9 }), size: INFLATED };
const zip = craftZip([
  { name: 'big.jpg', data: new Uint8Array(0), deflated: bomb, descriptor: true },
  { name: '_cartridge.lua', data: lua, descriptor: true },
]);

function failure(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a DecodeError');
}

describe('GWZ members with a data descriptor', () => {
  it('over limits.maxInflatedBytes: LIMIT_EXCEEDED naming it, not CORRUPT_COMPRESSED', () => {
    const e = failure(() => gwc.decode(zip, { limits: { maxInflatedBytes: MiB, maxZipRatio: 1_000_000 } }));
    expect(e).toBeInstanceOf(DecodeError);
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'members["big.jpg"]', message: expect.stringMatching(/limits\.maxInflatedBytes/) });
  });

  it('over limits.maxZipRatio (the default 100): LIMIT_EXCEEDED naming it', () => {
    const e = failure(() => gwc.decode(zip));
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringMatching(/limits\.maxZipRatio/) });
  });

  it('over limits.maxTotalInflatedBytes: LIMIT_EXCEEDED naming it', () => {
    const e = failure(() => gwc.decode(zip, { limits: { maxTotalInflatedBytes: 2 * MiB, maxZipRatio: 1_000_000 } }));
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringMatching(/limits\.maxTotalInflatedBytes/) });
  });

  it('within the limits, descriptor members decode whole, and a damaged one is CORRUPT_COMPRESSED', () => {
    const media = new Uint8Array(200_000).map((_, i) => (i * 7919) >> 3);
    const honest = craftZip([
      { name: 'a.jpg', data: media, descriptor: true },
      { name: '_cartridge.lua', data: lua, descriptor: true },
    ]);
    const v = gwc.decode(honest);
    if (v.format !== 'gwz') throw new Error('expected a gwz');
    expect(v.lua.text).toBe('-- cartridge\nreturn 1\n');
    expect(Buffer.from(v.media[0]!.data).equals(media)).toBe(true);
    expect(v.media[0]!.size).toBe(media.length);
    // Block type 3 does not exist: the inflater's own failure stays CORRUPT_COMPRESSED.
    const damaged = craftZip([
      { name: 'a.jpg', data: new Uint8Array(0), deflated: { body: new Uint8Array([0x07, 0, 0, 0]), size: 10 }, descriptor: true },
      { name: '_cartridge.lua', data: lua },
    ]);
    expect(failure(() => gwc.decode(damaged))).toMatchObject({ code: 'CORRUPT_COMPRESSED' });
  });

  it("the scan's zip reader takes sizes from the directory: a descriptor member reads whole, within its declared size", async () => {
    const listed = (await members(new BytesReader(zip), 64 * MiB)).filter((m): m is FileMember => !('kind' in m && m.kind === 'folder'));
    const big = listed.find((m) => m.name === 'big.jpg')!;
    expect(big.size).toBe(INFLATED);
    expect((await memberBytes(new BytesReader(zip), big)).length).toBe(INFLATED);
    // A directory that declares less stops the inflater there.
    await expect(memberBytes(new BytesReader(zip), { ...big, size: MiB })).rejects.toThrow(/inflates past the 1048576 bytes/);
  });
});
