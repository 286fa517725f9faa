// An older revision's page, built once into a temp folder, for the browser bench's page-timing
// row (`LEVELKIT_OLD_REV=<rev> npm run bench:browser`, test/browser.test.ts). The revision's files
// come out of git with `git archive` (no worktree is registered in this repo), node_modules is
// this checkout's (a symlink: the old build uses today's toolchain), and `npm run build` builds it
// as that revision defines. A finished build is kept (a marker file names the commit), so a re-run
// only serves it; a failed one is removed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OldPage {
  /** The folder holding the revision's checkout and its dist/web/ (serve it with web/serve.ts). */
  dir: string;
  commit: string;
  /** False when an earlier run's build was reused. */
  built: boolean;
}

/** Builds (or finds built) the page of `rev` of the repository at `root`; throws with the build's last lines if it fails. */
export function buildOldPage(root: string, rev: string): OldPage {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `levelkit-page-${commit.slice(0, 12)}`);
  const marker = join(dir, '.levelkit-old-page');
  if (existsSync(marker) && existsSync(join(dir, 'dist/web/index.html'))) return { dir, commit, built: false };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const tar = execFileSync('git', ['archive', '--format=tar', commit], { cwd: root, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'));
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'pipe', maxBuffer: 1 << 26 });
    if (!existsSync(join(dir, 'dist/web/index.html'))) throw new Error(`${rev} builds no dist/web/index.html: it has no page to time`);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    const out = `${(e as { stdout?: Buffer }).stdout ?? ''}${(e as { stderr?: Buffer }).stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`building the page of ${rev} (${commit}) in ${dir} failed: ${(e as Error).message.split('\n')[0]}${out ? `\n${out}` : ''}`);
  }
  writeFileSync(marker, `${commit}\n`);
  return { dir, commit, built: true };
}
