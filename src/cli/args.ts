// Minimal argument parsing shared by the commands: flags (--x, --x=v, --x v for known valued flags) and positionals.
export interface ParsedArgs {
  flags: Map<string, string | true>;
  positionals: string[];
}

export class UsageError extends Error {}

/** `valued` lists flags that take a value (`-o dir`, `--backend js`). Unknown flags are usage errors. */
export function parseArgs(argv: string[], known: { bool?: string[]; valued?: string[] }): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  const bool = new Set(known.bool ?? []);
  const valued = new Set(known.valued ?? []);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (!a.startsWith('-') || a === '-') { positionals.push(a); continue; }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (valued.has(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      flags.set(name, v);
    } else if (bool.has(name) && eq < 0) flags.set(name, true);
    else throw new UsageError(`unknown option ${name}`);
  }
  return { flags, positionals };
}
