// The `levelkit` command: picks a subcommand; each lives in commands/<name>.ts.
// Exit codes: 0 all files fine, 2 some file failed to decode, 1 bad usage.
import { UsageError } from './args.js';
import * as info from './commands/info.js';
import * as extract from './commands/extract.js';
import * as convert from './commands/convert.js';

interface Command { usage: string; run(argv: string[]): Promise<number> }

// One line per subcommand.
const COMMANDS: Record<string, Command> = {
  info,
  extract,
  convert,
};

function help(): string {
  return 'usage:\n' + Object.values(COMMANDS).map((c) => '  ' + c.usage).join('\n') + '\n';
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    process.stdout.write(help());
    return name ? 0 : 1;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    process.stderr.write(`levelkit: unknown command '${name}'\n${help()}`);
    return 1;
  }
  try {
    return await cmd.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`levelkit ${name}: ${e.message}\nusage: ${cmd.usage}\n`);
      return 1;
    }
    throw e;
  }
}

// `levelkit info --json dir | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
