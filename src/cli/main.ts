// The `levelkit` command: picks a subcommand (commands/<name>.ts), parses its options
// (options.ts) and hands it a Reporter (report.ts). Exit codes: 0 every file fine, 2 some file
// failed, 1 bad usage. A user's mistake is one line on stderr, never a stack trace.

import { closest } from '../core/suggest.js';
import { displayName, pathBytes, printable } from '../scan/names.js';
import { systemReason } from '../scan/read.js';
import { OutputError } from '../scan/write.js';
import type { Command } from './command.js';
import { completionScript, SHELLS } from './completion.js';
import { helpText, parseCommandArgs, UsageError } from './options.js';
import { Reporter } from './report.js';
import { stdoutFailure, stdoutGone, writeStdout } from './stdout.js';
import { packageVersion } from './version.js';

/**
 * Each command's module, loaded only when that command runs: `levelkit query` loads neither the
 * library (the decoders, the WASM kernels, the renderer: 0.76 MB of CommonJS) nor the scan, and
 * `levelkit schema` loads no DuckDB. Only the overview and completion load them all.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  scan: async () => (await import('./commands/scan.js')).scanCommand,
  check: async () => (await import('./commands/check.js')).checkCommand,
  report: async () => (await import('./commands/report.js')).reportCommand,
  query: async () => (await import('./commands/query.js')).queryCommand,
  schema: async () => (await import('./commands/schema.js')).schemaCommand,
  info: async () => (await import('./commands/info.js')).info,
  extract: async () => (await import('./commands/extract.js')).extract,
  convert: async () => (await import('./commands/convert.js')).convert,
  render: async () => (await import('./commands/render.js')).renderCommand,
  diff: async () => (await import('./commands/diff.js')).diffCommand,
  site: async () => (await import('./commands/site.js')).siteCommand,
};

/** `levelkit help [<command>]`: the overview, or a command's --help. */
const helpCommand: Command = {
  usage: 'levelkit help [<command>]',
  summary: "Prints a command's options (the same as levelkit <command> --help), or without one the list of commands.",
  options: [],
  async run({ positionals }) {
    if (positionals.length > 1) throw new UsageError('help takes one command');
    const [name] = positionals;
    writeStdout(name === undefined ? await overview() : helpText(await knownCommand(name)));
    return 0;
  },
};

const completionCommand: Command = {
  usage: `levelkit completion ${SHELLS.join('|')}`,
  summary: 'Prints a shell completion script for the commands and their options (bash: eval "$(levelkit completion bash)").',
  options: [],
  async run({ positionals }) {
    const shell = SHELLS.find((s) => s === positionals[0]);
    if (positionals.length !== 1 || !shell) throw new UsageError(`completion needs one shell: ${SHELLS.join(', ')}`);
    writeStdout(completionScript(shell, await allCommands()));
    return 0;
  },
};

const ALL: Record<string, () => Promise<Command>> = { ...COMMANDS, help: async () => helpCommand, completion: async () => completionCommand };

/** Every command, loaded, by name (in ALL's order). */
async function allCommands(): Promise<Record<string, Command>> {
  const names = Object.keys(ALL);
  const loaded = await Promise.all(names.map((n) => ALL[n]!()));
  return Object.fromEntries(names.map((n, i) => [n, loaded[i]!]));
}

async function overview(): Promise<string> {
  return (
    'usage: levelkit <command> [options]   (levelkit help <command> lists its options)\n\n' +
    Object.values(await allCommands())
      .map((c) => `  ${c.usage}\n      ${c.summary}\n`)
      .join('') +
    '  levelkit --version\n'
  );
}

function isCommand(name: string): boolean {
  return Object.hasOwn(ALL, name);
}

function commandNamed(name: string): Promise<Command> | undefined {
  return isCommand(name) ? ALL[name]!() : undefined;
}

/** `unknown command 'scna' (did you mean 'scan'?)` */
function unknownCommand(name: string): string {
  const guess = closest(name, Object.keys(ALL));
  return `unknown command '${name}'${guess ? ` (did you mean '${guess}'?)` : ''}`;
}

/** The command called `name`, or a UsageError naming the closest one. */
function knownCommand(name: string): Promise<Command> {
  const cmd = commandNamed(name);
  if (!cmd) throw new UsageError(unknownCommand(name));
  return cmd;
}

/**
 * `levelkit <command> … --version` (or -V) asks for levelkit's version, as it does before the
 * command. convert's own --version names a binary header to write; alone it can only be the question.
 */
function asksVersion(args: readonly string[], cmd: Command): boolean {
  const end = args.indexOf('--');
  const given = end < 0 ? args : args.slice(0, end);
  if (given.includes('-V')) return true;
  return cmd.options.includes('version') ? given.length === 1 && given[0] === '--version' : given.includes('--version');
}

export async function main(argv: string[]): Promise<number> {
  const code = await dispatch(argv);
  // Whatever the command did, output that did not land is a failure, never exit 0 (stdout.ts).
  const failed = await stdoutFailure();
  if (failed) {
    const cmd = isCommand(argv[0] ?? '') ? ` ${argv[0]}` : '';
    process.stderr.write(`levelkit${cmd}: ${failed.code}: ${printable(failed.message)}\n`);
    return 2;
  }
  // `levelkit info --json dir | head` closed the pipe: the reader's choice, not a failure (stdout.ts).
  return stdoutGone.aborted ? 0 : code;
}

async function dispatch(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    writeStdout(`levelkit ${packageVersion()}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h') {
    if (name) writeStdout(await overview());
    else process.stderr.write(await overview());
    return name ? 0 : 1;
  }
  const loading = commandNamed(name);
  if (!loading) {
    // A near miss needs no list of every command; anything else gets one.
    const near = closest(name, Object.keys(ALL)) !== undefined;
    process.stderr.write(`levelkit: ${printable(unknownCommand(name))}\n${near ? '(levelkit --help lists the commands)\n' : await overview()}`);
    return 1;
  }
  const cmd = await loading;
  if (asksVersion(rest, cmd)) {
    writeStdout(`levelkit ${packageVersion()}\n`);
    return 0;
  }
  try {
    const args = parseCommandArgs(rest, cmd.options);
    if (args.options.help) {
      writeStdout(helpText(cmd));
      return 0;
    }
    return await cmd.run(args, new Reporter(name, args.options.json));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`levelkit ${name}: ${printable(e.message)}\nusage: ${cmd.usage}   (levelkit ${name} --help)\n`);
      return cmd.usageStatus ?? 1;
    }
    // The file system refused (an output on a full disk, a folder that is a file): the system's
    // reason in one line, with the path when there is one; exit 2 as for any failed file.
    const io = e instanceof OutputError ? e : fsFailure(e);
    if (io) {
      process.stderr.write(`levelkit ${name}: ${io.code}: ${printable(io.message)}\n`);
      return 2;
    }
    // Not the user's doing: say so in one line; the stack is there for whoever debugs it.
    process.stderr.write(
      `levelkit ${name}: internal error: ${printable(String((e as Error)?.message ?? e))}${process.env.LEVELKIT_DEBUG ? `\n${(e as Error)?.stack}` : ' (LEVELKIT_DEBUG=1 shows the stack)'}\n`,
    );
    return 2;
  }
}

/** An fs error as an IO failure naming its path, or undefined for anything else. */
function fsFailure(e: unknown): { code: string; message: string } | undefined {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err.code !== 'string' || !err.syscall) return undefined;
  const where = err.path === undefined ? '' : `${displayName(pathBytes(err.path))}: `;
  return { code: 'IO', message: `${where}cannot ${err.syscall}: ${systemReason(err)}` };
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
