// What a subcommand is to main.ts: its help, the shared options it takes, and run().
import type { OptionName, Parsed } from './options.js';
import type { Reporter } from './report.js';

export interface Command {
  /** `levelkit info <file|folder…> [options]` */
  usage: string;
  /** One line: what the command does. */
  summary: string;
  options: readonly OptionName[];
  /** Command-specific wording of a shared option's help. */
  optionHelp?: Partial<Record<OptionName, string>>;
  /** Command-specific placeholder of an option's value (`--out <file>` for scan, `<dir>` for extract). */
  optionValue?: Partial<Record<OptionName, string>>;
  /** Exit status of bad usage (default 1); `diff` says 2, since its 1 means the files differ (as diff(1) and cmp(1)). */
  usageStatus?: number;
  /** Returns the exit code (usually `out.finish()`); throws UsageError before any output for bad usage. */
  run(args: Parsed, out: Reporter): Promise<number> | number;
}
