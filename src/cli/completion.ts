// `levelkit completion bash|zsh|fish`: a shell completion script generated from the command and
// option tables (main.ts's COMMANDS, options.ts's OPTIONS), so it can never list an option the
// command does not take. Commands complete first, then each command's options, the values of
// options with fixed choices, and file names everywhere else.
import type { Command } from './command.js';
import { OPTIONS, type OptionName, type OptionSpec } from './options.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What a completion needs of a command. */
export type CompletedCommand = Pick<Command, 'summary' | 'options' | 'optionHelp' | 'optionValue'>;

/** The script for `shell`; `commands` includes the built-ins (help, completion) with their own arguments. */
export function completionScript(shell: Shell, commands: Record<string, CompletedCommand>): string {
  const table = Object.entries(commands).map(([name, c]) => ({
    name,
    summary: c.summary,
    options: [...c.options, 'help' as const].map((n) => option(n, c)),
  }));
  return { bash, zsh, fish }[shell](table);
}

/** One option as a command takes it: its flags, its help, and what its value completes to. */
interface CompletedOption {
  name: OptionName;
  /** `--name` and, when it has one, `-x`. */
  flags: string[];
  help: string;
  /** none: a switch; choices: one of `choices`; file: a path; text: anything (nothing to complete). */
  value: 'none' | 'choices' | 'file' | 'text';
  choices: readonly string[];
  multiple: boolean;
}

type Table = { name: string; summary: string; options: CompletedOption[] }[];

function option(n: OptionName, c: CompletedCommand): CompletedOption {
  const o: OptionSpec = OPTIONS[n];
  const placeholder = c.optionValue?.[n] ?? o.value ?? '';
  return {
    name: n,
    flags: o.short ? [`--${n}`, `-${o.short}`] : [`--${n}`],
    help: brief(c.optionHelp?.[n] ?? o.help),
    value: o.type === 'boolean' ? 'none' : o.choices ? 'choices' : /file|dir|\.[a-z]+$/.test(placeholder) ? 'file' : 'text',
    choices: o.choices ?? [],
    multiple: o.multiple === true,
  };
}

/** What a built-in's positional argument completes to. */
function positionalWords(name: string, table: Table): string[] | undefined {
  if (name === 'help') return table.map((c) => c.name).filter((n) => n !== 'help');
  if (name === 'completion') return [...SHELLS];
  return undefined;
}

/** The first clause of a help text, without its asides in brackets: a shell shows one short line. */
function brief(text: string): string {
  return text
    .replace(/\s*\([^)]*\)/g, '')
    .split(';')[0]!
    .trim();
}

function bash(table: Table): string {
  const valued = new Map(table.flatMap((c) => c.options.filter((o) => o.value === 'choices').map((o) => [o.name, o] as const)));
  return `# levelkit completion for bash. Load it with: eval "$(levelkit completion bash)"
# or save it as /etc/bash_completion.d/levelkit (or ~/.local/share/bash-completion/completions/levelkit).
_levelkit() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" words="" args=""
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "${table.map((c) => c.name).join(' ')} --help --version" -- "$cur") )
    return
  fi
  case "$prev" in
${[...valued.values()].map((o) => `    ${o.flags.join('|')}) COMPREPLY=( $(compgen -W "${o.choices.join(' ')}" -- "$cur") ); return ;;`).join('\n')}
  esac
  case "\${COMP_WORDS[1]}" in
${table
  .map((c) => {
    const positional = positionalWords(c.name, table);
    return `    ${c.name}) words="${c.options.flatMap((o) => o.flags).join(' ')}"${positional ? ` args="${positional.join(' ')}"` : ''} ;;`;
  })
  .join('\n')}
  esac
  # Options after a dash; a built-in's own words (help's commands, completion's shells) otherwise; else file names (-o default).
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$words" -- "$cur") )
  elif [[ -n "$args" ]]; then
    COMPREPLY=( $(compgen -W "$args" -- "$cur") )
  fi
}
complete -o default -o bashdefault -F _levelkit levelkit
`;
}

/** Text inside single quotes in zsh and fish: a quote is closed, escaped and reopened. */
function quoted(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function zsh(table: Table): string {
  // In an _arguments spec, brackets close the description and colons separate its parts.
  const describe = (s: string) => brief(s).replace(/[[\]]/g, '').replace(/:/g, '\\:');
  const action = { none: '', choices: '', file: '_files', text: ' ' };
  const spec = (o: CompletedOption) => {
    const value = o.value === 'none' ? '' : `:${o.name}:${o.value === 'choices' ? `(${o.choices.join(' ')})` : action[o.value]}`;
    return o.flags.map((f) => quoted(`${o.multiple ? '*' : ''}${f}[${describe(o.help)}]${value}`));
  };
  return `#compdef levelkit
# levelkit completion for zsh. Load it with: eval "$(levelkit completion zsh)" (after compinit),
# or save it as _levelkit in a folder of $fpath.
_levelkit() {
  local -a commands
  commands=(
${table.map((c) => `    ${quoted(`${c.name}:${describe(c.summary)}`)}`).join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case $words[2] in
${table
  .map((c) => {
    const positional = positionalWords(c.name, table);
    const rest = positional ? quoted(`1:${c.name === 'help' ? 'command' : 'shell'}:(${positional.join(' ')})`) : quoted('*:file:_files');
    return `    ${c.name}) _arguments -s ${[...c.options.flatMap(spec), rest].join(' ')} ;;`;
  })
  .join('\n')}
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _levelkit "$@"
else
  compdef _levelkit levelkit
fi
`;
}

function fish(table: Table): string {
  const lines = [
    '# levelkit completion for fish. Load it with: levelkit completion fish | source',
    '# or save it as ~/.config/fish/completions/levelkit.fish.',
    'complete -c levelkit -f',
    `complete -c levelkit -n __fish_use_subcommand -l help -s h -d ${quoted('the commands')}`,
    `complete -c levelkit -n __fish_use_subcommand -l version -s V -d ${quoted('the version of levelkit')}`,
  ];
  for (const c of table) {
    lines.push(`complete -c levelkit -n __fish_use_subcommand -a ${c.name} -d ${quoted(brief(c.summary))}`);
    const when = `-n ${quoted(`__fish_seen_subcommand_from ${c.name}`)}`;
    const positional = positionalWords(c.name, table);
    lines.push(positional ? `complete -c levelkit ${when} -a ${quoted(positional.join(' '))}` : `complete -c levelkit ${when} -F`);
    for (const o of c.options) {
      const value = { none: '', choices: ` -x -a ${quoted(o.choices.join(' '))}`, file: ' -r -F', text: ' -x' }[o.value];
      const short = o.flags[1] ? ` -s ${o.flags[1].slice(1)}` : '';
      lines.push(`complete -c levelkit ${when} -l ${o.name}${short}${value} -d ${quoted(o.help)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
