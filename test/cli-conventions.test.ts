// What a new user of a command-line tool expects (issue 28): `help <command>`, `--version` after
// any command, "did you mean" for a mistyped command or option, placeholders that say what an
// option takes, and shell completion generated from the same tables as --help.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OPTIONS } from '../src/cli/options.js';
import { closest, editDistance } from '../src/core/suggest.js';
import { bin } from './helpers/cli.js';
import { ROOT } from './helpers/paths.js';

const COMMANDS = ['scan', 'report', 'info', 'extract', 'convert', 'render', 'diff'];
const VERSION = `levelkit ${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`;
const tmp = mkdtempSync(join(tmpdir(), 'levelkit-conventions-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (...args: string[]) => bin(ROOT, ...args);

/** The options a command's --help lists, as `--name`. */
function helpOptions(name: string): string[] {
  return [...run(name, '--help').stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!);
}

describe('levelkit help <command>', () => {
  it.each(COMMANDS)('help %s prints what the command prints for --help', (name) => {
    const help = run('help', name);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(run(name, '--help').stdout);
  });

  it('help alone lists every command, help and completion included', () => {
    const r = run('help');
    expect(r.status).toBe(0);
    for (const c of [...COMMANDS, 'help', 'completion']) expect(r.stdout).toContain(`levelkit ${c} `);
  });

  it('help of an unknown command is a usage error naming the closest one', () => {
    const r = run('help', 'rendr');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("unknown command 'rendr' (did you mean 'render'?)");
  });
});

describe('--version after a command', () => {
  it.each([
    ['scan', '--version'],
    ['info', 'x.map', '--version'],
    ['report', '-V'],
    ['render', '--version'],
  ])('levelkit %s … prints the version', (...args) => {
    const r = run(...args);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(VERSION);
  });

  it("convert --version alone is the question; with files it is convert's header option", () => {
    expect(run('convert', '--version').stdout).toBe(VERSION);
    const r = run('convert', 'a.nw', 'b.graal', '--version');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--version/);
  });
});

describe('did you mean', () => {
  it('a mistyped command names the closest', () => {
    const r = run('scna', 'maps/');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("unknown command 'scna' (did you mean 'scan'?)");
  });

  it.each([
    ['info', '--jsn', '--json'],
    ['info', '--josn', '--json'],
    ['scan', '--wokers=2', '--workers'],
    ['render', '--scael', '--scale'],
    ['report', '--lenent', '--lenient'],
  ])('%s %s: did you mean %s?', (cmd, typo, meant) => {
    const r = run(cmd, typo, 'x');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`(did you mean ${meant}?)`);
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^levelkit ${cmd}: unknown option --`));
  });

  it("another command's option is named as such", () => {
    const r = run('info', '--sort', 'x');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--sort is not an option of this command');
  });

  it('edit distance counts a swap of neighbours as one edit', () => {
    expect(editDistance('josn', 'json')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closest('work', ['workers', 'worker-memory'])).toBe('workers');
    expect(closest('zzz', ['json', 'out'])).toBeUndefined();
    // A text from a file (a map setting checked by tw/unknown-setting) may be megabytes: past 64
    // characters nothing is compared, so the quadratic distance never runs on it.
    expect(closest('a'.repeat(65), ['a'.repeat(66)])).toBeUndefined();
    expect(closest('a'.repeat(64), ['a'.repeat(65)])).toBe('a'.repeat(65));
  });
});

describe('placeholders say what an option takes', () => {
  it.each([
    ['scan', '-o, --out <file>'],
    ['render', '-o, --out <out.png|dir>'],
    ['extract', '-o, --out <dir>'],
    ['scan', '--depth <cheap|full>'],
    ['convert', '--to <nw|graal>'],
    ['info', '--backend <auto|wasm|js>'],
  ])('%s --help shows %s', (name, flag) => {
    expect(run(name, '--help').stdout).toContain(`  ${flag}  `);
  });

  it('every option that takes a value shows a placeholder', () => {
    for (const name of COMMANDS) {
      const rows = run(name, '--help')
        .stdout.split('\n')
        .filter((l) => /^ {2}-/.test(l));
      for (const row of rows) {
        const flag = /--([\w-]+)/.exec(row)![1]!;
        const takesValue = (OPTIONS as Record<string, { type: string }>)[flag]?.type === 'string';
        expect(/--[\w-]+ <[^>]+>/.test(row), `${name} ${row}`).toBe(takesValue);
      }
    }
  });
});

describe('levelkit completion', () => {
  const script = (shell: string) => {
    const r = run('completion', shell);
    expect(r.status).toBe(0);
    return r.stdout;
  };

  it('bash: a script bash accepts, offering every command and, per command, every option', () => {
    const text = script('bash');
    const file = join(tmp, 'levelkit.bash');
    writeFileSync(file, text);
    const check = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    for (const c of [...COMMANDS, 'help', 'completion']) expect(text).toMatch(new RegExp(`compgen -W "[^"]*\\b${c}\\b`));
    for (const c of COMMANDS) {
      const line = new RegExp(`^ {4}${c}\\) words="([^"]*)"`, 'm').exec(text)?.[1]?.split(' ');
      expect(line, c).toBeDefined();
      expect(line!.filter((w) => w.startsWith('--')).sort()).toEqual(helpOptions(c).sort());
    }
  });

  it('bash: completes commands, options and the values of options with fixed choices', () => {
    const file = join(tmp, 'levelkit.bash');
    writeFileSync(file, script('bash'));
    const complete = (...words: string[]) => {
      const code = `source ${file}; COMP_WORDS=(levelkit ${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length}; _levelkit; echo "\${COMPREPLY[*]}"`;
      return spawnSync('bash', ['-c', code], { encoding: 'utf8' }).stdout.trim();
    };
    expect(complete('sc')).toBe('scan schema');
    expect(complete('sca')).toBe('scan');
    expect(complete('scan', '--wo')).toBe('--workers --worker-memory');
    expect(complete('info', '--backend', '')).toBe('auto wasm js');
    expect(complete('completion', '')).toBe('bash zsh fish');
  });

  it.each(['zsh', 'fish'])('%s: names every command and every option', (shell) => {
    const text = script(shell);
    for (const c of [...COMMANDS, 'help', 'completion']) expect(text).toContain(c);
    for (const c of COMMANDS) for (const o of helpOptions(c)) expect(text, `${c} ${o}`).toContain(shell === 'zsh' ? `${o}[` : `-l ${o.slice(2)} `);
  });

  it('an unknown shell is a usage error', () => {
    const r = run('completion', 'powershell');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bash, zsh, fish');
  });
});
