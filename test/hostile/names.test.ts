// File names that are not valid UTF-8 (legal on Linux, common in old archives made on
// Windows code pages) are read through Buffer paths, printed with the bad bytes as \xNN, and
// kept losslessly in JSON as `fileBytes` (base64). The old walk turned names into strings, so
// such a file could not even be opened again (ENOENT on the U+FFFD form).
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayName, fileFields, printable } from '../../src/scan/names.js';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

describe('non-UTF-8 file names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-names-'));
  // "Château.wwd" in Windows-1252: 0xe2 is not valid UTF-8 here.
  const name = Buffer.concat([Buffer.from('Ch'), Buffer.from([0xe2]), Buffer.from('teau.wwd')]);
  const path = Buffer.concat([Buffer.from(`${dir}/`), name]);
  copyFileSync(join(FIXTURES, 'wwd', 'claw-compressed.wwd'), path);
  copyFileSync(join(FIXTURES, 'wwd', 'claw-compressed.wwd'), join(dir, 'plain.wwd'));

  it('a walk reads the file; JSON has the escaped name and the exact bytes', () => {
    const r = cli('info', '--json', dir);
    expect(r.status).toBe(0);
    const [odd, plain] = jsonLines(r.stdout);
    expect(odd).toMatchObject({ file: `${dir}/Ch\\xe2teau.wwd`, format: 'wwd' });
    expect(readFileSync(Buffer.from(odd!.fileBytes, 'base64'))).toEqual(readFileSync(path));
    expect(Object.keys(plain!)).toEqual(['file', 'format', 'version', 'summary', 'warnings']);
  });

  it('readable output shows the bad byte escaped', () => {
    const r = cli('info', dir);
    expect(r.stdout).toContain(`${dir}/Ch\\xe2teau.wwd\n`);
  });

  it('escaping keeps valid UTF-8 (also multi-byte) and escapes only bad bytes; controls are escaped for printing', () => {
    expect(displayName(Buffer.from([0x61, 0xc3, 0xa9, 0xff, 0xe2, 0x82, 0xac, 0xc3]))).toBe('aé\\xff€\\xc3');
    expect(fileFields(Buffer.from('é.wwd'))).toEqual({ file: 'é.wwd' });
    expect(printable('a\nb')).toBe('a\\x0ab');
  });
});
