// Help that matches the command (issue 40): for every command `levelkit --help` lists, its
// `--help`, its README section and its shell completion (bash, zsh, fish) name the same options,
// spelled the same. Everything is read from the command itself (its --help, `levelkit completion`),
// so a new option needs only its help, README and completion entries, and a new command only its
// README section in SECTION_OF below.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { ROOT } from './helpers/paths.js';

/** The README sections (each a `## ` heading's start) that document each command; the first is its own. */
const SECTION_OF: Record<string, readonly string[]> = {
  info: ['Command line'],
  extract: ['Command line'],
  convert: ['Command line'],
  render: ['Command line'],
  help: ['Command line'],
  completion: ['Command line'],
  diff: ['Comparing two levels'],
  scan: ['Scanning many files', 'Asking an archive'],
  report: ['Scanning many files'],
  check: ['Checking maps'],
  query: ['Asking an archive'],
  schema: ['Asking an archive'],
  site: ['Browsing an archive'],
};

/** What every command takes besides its own options (main.ts): not listed per command in the README. */
const EVERYWHERE = new Set(['--help', '--version']);

// The source itself (tsx), so what is checked is what the next build ships.
const run = cli;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Every command, as the overview lists them. */
const COMMANDS = [...run('--help').stdout.matchAll(/^ {2}levelkit ([a-z]+)\b/gm)].map((m) => m[1]!).filter((c, i, all) => all.indexOf(c) === i);

const helps = new Map<string, string[]>();

/** A command's options as its --help lists them: `--name`, and `-x` for a short form. */
function helpOptions(command: string): string[] {
  const known = helps.get(command);
  if (known) return known;
  const help = run(command, '--help');
  expect(help.status, help.stderr).toBe(0);
  const rows = help.stdout.slice(help.stdout.indexOf('\noptions:\n'));
  const options = [...rows.matchAll(/^ {2}(?:(-\w), )?(--[\w-]+)/gm)].flatMap((m) => (m[1] ? [m[2]!, m[1]] : [m[2]!]));
  helps.set(command, options);
  return options;
}

/** Per shell, a command's options as its completion offers them. */
const completions: Record<string, (script: string, command: string) => string[]> = {
  bash: (script, c) =>
    new RegExp(`^ {4}${c}\\) words="([^"]*)"`, 'm')
      .exec(script)?.[1]
      ?.split(' ')
      .filter((w) => w.startsWith('-')) ?? [],
  zsh: (script, c) => {
    const line = new RegExp(`^ {4}${c}\\) _arguments (.*) ;;$`, 'm').exec(script)?.[1] ?? '';
    return [...line.matchAll(/'\*?(--?[\w-]+)\[/g)].map((m) => m[1]!);
  },
  fish: (script, c) =>
    [...script.matchAll(new RegExp(`^complete -c levelkit -n '__fish_seen_subcommand_from ${c}' -l ([\\w-]+)(?: -s (\\w))?`, 'gm'))].flatMap((m) =>
      m[2] ? [`--${m[1]}`, `-${m[2]}`] : [`--${m[1]}`],
    ),
};

/** The README's `## ` sections by heading. */
function sections(): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of README.split(/^(?=## )/m)) out.set(part.slice(3, part.indexOf('\n')), part);
  return out;
}

/** The text of the README sections of `command`. */
function sectionsOf(command: string): string {
  const starts = SECTION_OF[command];
  expect(starts, `levelkit ${command} has no README section: add it to SECTION_OF`).toBeDefined();
  return starts!
    .map((start) => {
      const found = [...sections()].find(([heading]) => heading.startsWith(start));
      expect(found, `README has no section "## ${start}"`).toBeDefined();
      return found![1];
    })
    .join('\n');
}

/** The paragraph of §Command line naming the options every command that takes them shares. */
const SHARED = /^Shared options mean the same[\s\S]*?\n\n/m.exec(README)?.[0] ?? '';

/**
 * Every place the README ties options to a command: a command line in a code block
 * (`npx levelkit scan … --out x`), inline code starting with a command (`` `scan --index` ``,
 * `` `levelkit query … --json` ``), and the option table of a command's own section. Each as the
 * command and the options named with it.
 */
function readmeMentions(): { command: string; options: string[]; where: string }[] {
  const out: { command: string; options: string[]; where: string }[] = [];
  const commands = new RegExp(`^(?:.*?\\blevelkit\\s+)?(${COMMANDS.join('|')})\\b(.*)$`, 's');
  const mention = (text: string, where: string, needsLevelkit: boolean) => {
    // One command per pipeline stage; a `#` comment is prose.
    for (const stage of text.replace(/\s#\s.*$/, '').split(/\||&&|;|\$\(/)) {
      if (needsLevelkit && !/\blevelkit\s/.test(stage)) continue;
      const m = commands.exec(stage.trim());
      if (!m) continue;
      out.push({ command: m[1]!, options: [...m[2]!.matchAll(/(?<![\w-])(--?[a-z][\w-]*)/g)].map((o) => o[1]!), where });
    }
  };
  let fenced = false;
  for (const line of README.split('\n')) {
    if (line.startsWith('```')) {
      fenced = !fenced;
      continue;
    }
    if (fenced) mention(line, line, true);
    else for (const span of line.matchAll(/`([^`]+)`/g)) mention(span[1]!, span[0], false);
  }
  for (const [command, [heading]] of Object.entries(SECTION_OF)) {
    // A section's option table belongs to the first command it is the own section of (scan's section: scan's options).
    if (Object.keys(SECTION_OF).find((c) => SECTION_OF[c]![0] === heading) !== command) continue;
    const text = [...sections()].find(([h]) => h.startsWith(heading!))?.[1] ?? '';
    let inTable = false;
    for (const line of text.split('\n')) {
      if (/^\| option \|/.test(line)) inTable = true;
      else if (!line.startsWith('|')) inTable = false;
      else if (inTable) {
        const cell = line.split(/(?<!\\)\|/)[1] ?? '';
        out.push({ command, options: [...cell.matchAll(/`(--?[\w-]+)/g)].map((o) => o[1]!), where: `${heading} table: ${cell.trim()}` });
      }
    }
  }
  return out;
}

describe('every command: --help, README and completion name the same options', () => {
  it('the overview lists the commands the README documents', () => {
    expect(COMMANDS.length).toBeGreaterThan(10);
    expect([...COMMANDS].sort()).toEqual(Object.keys(SECTION_OF).sort());
    // The README ties options to commands in many places, so a parse that found none would pass anything.
    const mentions = readmeMentions();
    expect(mentions.filter((m) => m.command === 'scan' && m.options.includes('--index')).length).toBeGreaterThan(3);
    expect(mentions.some((m) => m.command === 'scan' && m.where.includes('table'))).toBe(true);
  });

  const scripts = Object.fromEntries(Object.keys(completions).map((shell) => [shell, run('completion', shell).stdout]));

  it.each(COMMANDS)('%s: each shell completes exactly the options --help lists', (command) => {
    const help = helpOptions(command).sort();
    for (const [shell, of] of Object.entries(completions)) expect(of(scripts[shell]!, command).sort(), `${shell} ${command}`).toEqual(help);
  });

  it.each(COMMANDS)("%s: the README documents every option --help lists (in the command's section, or among the shared options)", (command) => {
    const text = sectionsOf(command);
    const named = (o: string, where: string) => new RegExp(`(?<![\\w-])${o}(?![\\w-])`).test(where);
    const documented = (o: string) => o.length === 2 || EVERYWHERE.has(o) || named(o, text) || named(o, SHARED);
    expect(helpOptions(command).filter((o) => !documented(o))).toEqual([]);
  });

  it('every option the README ties to a command is one that command takes, spelled the same', () => {
    const taken = new Map(COMMANDS.map((c) => [c, new Set(helpOptions(c))]));
    const wrong = readmeMentions().flatMap(({ command, options, where }) =>
      options
        .filter((o) => !EVERYWHERE.has(o) && !taken.get(command)!.has(o) && !taken.get(command)!.has(o.split('=')[0]!))
        .map((o) => `${command} ${o}: ${where}`),
    );
    expect(wrong).toEqual([]);
  });
});

describe('help that matches the command', () => {
  const row = (command: string, option: string) =>
    run(command, '--help')
      .stdout.split('\n')
      .find((l) => new RegExp(`^ {2}(-\\w, )?${option}\\b`).test(l)) ?? '';

  it('scan --help: writing the index needs no DuckDB; query, diff of indexes and --resume do', () => {
    const index = row('scan', '--index');
    expect(index).toMatch(/without DuckDB/);
    expect(index).toMatch(/query, diff of two indexes and --resume need @duckdb\/node-api/);
    expect(index).toMatch(/findings with --check/);
  });

  it('check --help lists none of the options only scan has (its outputs, the index, --check, resuming, sharding)', () => {
    const check = new Set(helpOptions('check'));
    for (const o of ['--check', '--index', '--resume', '--out', '--report', '--depth', '--shard', '--sort', '--all']) expect(check.has(o), o).toBe(false);
    expect(helpOptions('scan')).toContain('--check');
  });
});
