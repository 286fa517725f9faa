// The README's TypeScript examples compile against the package as it stands: each ```ts block is
// type-checked on its own, with `levelkit`, `levelkit/scan` and `levelkit/<format>` mapped to the
// sources their exports are built from. A snippet that calls a function it never imports (issue 28:
// `extract` in the Library section) fails here.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/paths.js';

/** Every ```ts block of the README, with the line it starts on. */
function snippets(): { line: number; code: string }[] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => ({ line: text.slice(0, m.index).split('\n').length, code: m[1]! }));
}

describe('README snippets', () => {
  it('there are snippets to check', () => {
    expect(snippets().length).toBeGreaterThanOrEqual(3);
  });

  it('every ts snippet type-checks with its own imports', { timeout: 300_000 }, () => {
    const dir = join(ROOT, 'test-output', 'readme-snippets');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = snippets().map(({ line, code }) => {
      // A module of its own (so top-level await is allowed and names do not clash between snippets).
      const file = join(dir, `readme-line-${line}.mts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      baseUrl: ROOT,
      paths: { levelkit: ['src/index.ts'], 'levelkit/scan': ['src/scan/index.ts'], 'levelkit/*': ['src/entries/*.ts'] },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.includes(d.file.fileName))
      .map((d) => {
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${d.file!.fileName.replace(`${dir}/`, '')}:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(problems).toEqual([]);
  });
});
