// The page's server (web/serve.ts, `npm run demo:browser`): a request target it cannot read is a
// 400 and the server stays up (`GET /%E0%A4%A` threw a URIError out of the handler and stopped
// it); paths that lead out of what it serves get no file.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../web/serve.js';
import { FIXTURES } from './helpers/paths.js';

let server: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  server = await serve(0);
});
afterAll(async () => {
  await server?.close();
});

/** Sends `target` byte for byte (no client library re-encodes it) and resolves to the status code. */
function rawStatus(target: string): Promise<number> {
  const { port, hostname } = new URL(server.url);
  return new Promise((ok, fail) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let reply = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      reply += d;
    });
    socket.on('end', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(reply);
      m ? ok(Number(m[1])) : fail(new Error(`no status line in ${JSON.stringify(reply.slice(0, 80))}`));
    });
    socket.on('error', fail);
  });
}

describe('web/serve.ts', () => {
  it('answers 400 to a target whose escapes are not UTF-8, and still serves the next request', async () => {
    expect(await rawStatus('/%E0%A4%A')).toBe(400);
    const res = await fetch(`${server.url}/fixtures/gwc/basic.gwc`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(FIXTURES, 'gwc', 'basic.gwc')))).toBe(true);
  });

  it('answers 400 to targets that are not a path, and stays up', async () => {
    for (const target of ['http://[', '*', '/%00', '/fixtures/%']) expect(await rawStatus(target)).toBe(400);
    // `//` threw out of new URL(target, base) too; it is the page's root path.
    expect([200, 404]).toContain(await rawStatus('//'));
    expect(await rawStatus('/fixtures/gwc/basic.gwc')).toBe(200);
  });

  it('serves nothing outside dist/web, dist and fixtures, however the way out is spelt', async () => {
    for (const target of [
      '/../package.json',
      '/..%2fpackage.json',
      '/%2e%2e/package.json',
      '/fixtures/..%2f..%2fpackage.json',
      '/dist/..%2f..%2f..%2fetc%2fpasswd',
      '/fixtures/%2e%2e/src/index.ts',
    ])
      expect(await rawStatus(target)).not.toBe(200);
  });
});
