// Serves the levelkit page (dist/web/, built by `npm run build`) on 127.0.0.1: `npm run
// demo:browser`, then open the printed URL. The browser suite also reaches the library build
// (/dist/…) and the fixtures (/fixtures/…) through it; nothing else in the repo is served. The
// browser bench also serves an older revision's build (bench/old-page.ts) from another root.

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.map': 'application/json',
  '.json': 'application/json',
  '.png': 'image/png',
  '.zip': 'application/zip',
};

/**
 * The file a request target names: /dist/… and /fixtures/… from `root`, anything else from its
 * dist/web/; 'outside' when it leads out of them; 'bad' when it is no origin-form path (`//`,
 * `http://[`, `*`) or its escapes are not UTF-8 (`/%E0%A4%A`), which used to throw out of the
 * request handler and stop the server.
 */
function fileFor(root: string, target: string): string | 'outside' | 'bad' {
  // The target's own path, not new URL(target, base): that reads `//host/x` as a host and throws on `//`.
  const urlPath = target.split(/[?#]/, 1)[0]!;
  if (!urlPath.startsWith('/')) return 'bad';
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return 'bad';
  }
  if (decoded.includes('\0')) return 'bad';
  const path = normalize(decoded);
  const page = join(root, 'dist', 'web');
  const [base, rest] = /^[/\\](dist|fixtures)[/\\]/.test(path) ? [root, path] : [page, path.endsWith('/') ? `${path}index.html` : path];
  const file = join(base, rest);
  return file.startsWith(base + sep) ? file : 'outside';
}

/**
 * Starts the server on `port` (0 = any free port) and resolves to its base URL and a close
 * function. `root` is the checkout whose build is served (this one unless given).
 */
export function serve(port = 0, root = ROOT): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const file = fileFor(root, req.url ?? '/');
    if (file === 'bad' || file === 'outside') {
      res.writeHead(file === 'bad' ? 400 : 403).end();
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      // Missing, a folder, unreadable: the page asks for nothing else.
      if (!res.headersSent) res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': (Object.hasOwn(TYPES, extname(file)) ? TYPES[extname(file)] : undefined) ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((ok) =>
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address() as { port: number };
      ok({ url: `http://127.0.0.1:${p}`, close: () => new Promise<void>((c) => server.close(() => c())) });
    }),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serve(Number(process.env.PORT ?? 8080));
  console.log(`levelkit page: ${url}/`);
}
