// Serves the repository on 127.0.0.1 so test/browser/demo.html can load dist/ and fixtures/.
// `npm run demo:browser` (after `npm run build`), then open the printed URL.

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.map': 'application/json',
  '.json': 'application/json',
};

/** Starts the server on `port` (0 = any free port) and resolves to its base URL and a close function. */
export function serve(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(ROOT, path);
    if (!file.startsWith(ROOT)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
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
  console.log(`levelkit demo: ${url}/test/browser/demo.html`);
}
