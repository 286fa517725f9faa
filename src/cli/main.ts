// The `levelkit` command: picks a subcommand (commands/<name>.ts), parses its options
// (options.ts) and hands it a Reporter (report.ts). Exit codes: 0 every file fine, 2 some file
// failed, 1 bad usage. A user's mistake is one line on stderr, never a stack trace.

import { displayName, pathBytes, printable } from '../scan/names.js';
import { systemReason } from '../scan/read.js';
import { OutputError } from '../scan/write.js';
import type { Command } from './command.js';
import { convert } from './commands/convert.js';
import { extract } from './commands/extract.js';
import { info } from './commands/info.js';
import { renderCommand } from './commands/render.js';
import { reportCommand } from './commands/report.js';
import { scanCommand } from './commands/scan.js';
import { helpText, parseCommandArgs, UsageError } from './options.js';
import { Reporter } from './report.js';
import { stdoutGone } from './stdout.js';
import { packageVersion } from './version.js';

const COMMANDS: Record<string, Command> = { scan: scanCommand, report: reportCommand, info, extract, convert, render: renderCommand };

function overview(): string {
  return (
    'usage: levelkit <command> [options]   (levelkit <command> --help lists its options)\n\n' +
    Object.values(COMMANDS)
      .map((c) => `  ${c.usage}\n      ${c.summary}\n`)
      .join('') +
    '  levelkit --version\n'
  );
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    process.stdout.write(`levelkit ${packageVersion()}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? process.stdout : process.stderr).write(overview());
    return name ? 0 : 1;
  }
  const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!cmd) {
    process.stderr.write(`levelkit: unknown command '${name}'\n${overview()}`);
    return 1;
  }
  try {
    const args = parseCommandArgs(rest, cmd.options);
    if (args.options.help) {
      process.stdout.write(helpText(cmd));
      return 0;
    }
    const code = await cmd.run(args, new Reporter(name, args.options.json));
    // `levelkit info --json dir | head` closed the pipe: the reader's choice, not a failure (stdout.ts).
    return stdoutGone.aborted ? 0 : code;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`levelkit ${name}: ${e.message}\nusage: ${cmd.usage}   (levelkit ${name} --help)\n`);
      return 1;
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
      `levelkit ${name}: internal error: ${(e as Error)?.message ?? String(e)}${process.env.LEVELKIT_DEBUG ? `\n${(e as Error)?.stack}` : ' (LEVELKIT_DEBUG=1 shows the stack)'}\n`,
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
