import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

const SERVER_ID = 1234;
const KEY = 'Sup3r-Secret-Key-zz';

/** Not the API: every request gets a 404 whose body names the path it asked for, as many do. */
function echoPathUpstream(): Promise<{ server: Server; host: string }> {
  const server = createServer((request, response) => {
    response.statusCode = 404;
    response.setHeader('content-type', 'text/plain');
    response.end(`no route for ${request.url}`);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, host: `127.0.0.1:${port}` });
    }),
  );
}

let upstream: { server: Server; host: string };
let folder: string;
beforeAll(async () => {
  upstream = await echoPathUpstream();
  folder = mkdtempSync(join(tmpdir(), 'verify-base-url-'));
});
afterAll(async () => {
  await new Promise((resolve) => upstream.server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

async function run(command: 'verify' | 'import', baseUrl: string, ...args: string[]) {
  const cli = spawnCli([
    command,
    '--base-url',
    baseUrl,
    '--server-id',
    String(SERVER_ID),
    '--key',
    KEY,
    ...args,
  ]);
  const { code, stderr } = await cli.exited;
  return { code, stdout: cli.output(), stderr, text: cli.output() + stderr };
}

describe('verify and import never print a key given in --base-url', () => {
  const credentialed = () => [
    `http://${SERVER_ID}:${KEY}@${upstream.host}/marketing/v1`,
    // Mis-typed with one slash: URL parsers still read user:key@.
    `http:/${SERVER_ID}:${KEY}@${upstream.host}/marketing/v1`,
  ];

  it('a --base-url with credentials is usage (exit 2), naming --base-url, never the key', async () => {
    for (const baseUrl of credentialed()) {
      for (const [command, ...args] of [
        ['verify'],
        ['verify', '--har', join(folder, 'creds.har')],
        ['import', '--out', join(folder, 'creds-seed.json')],
      ] as const) {
        const result = await run(command, baseUrl, ...args);
        expect(result.code, `${command} ${args.join(' ')} ${baseUrl}`).toBe(2);
        expect(result.stderr).toContain('--base-url must not hold credentials');
        expect(result.stderr).not.toContain('--upstream');
        expect(result.text).not.toContain(KEY);
      }
    }
  }, 60_000);

  it('a --base-url with a query or fragment is usage (exit 2), never repeating a key in it', async () => {
    for (const baseUrl of [
      `http://${upstream.host}/marketing/v1?apikey=${KEY}`,
      `http://${upstream.host}/marketing/v1#${KEY}`,
    ]) {
      for (const command of ['verify', 'import'] as const) {
        const result = await run(command, baseUrl, '--out', join(folder, `${command}-query.out`));
        expect(result.code, `${command} ${baseUrl}`).toBe(2);
        expect(result.stderr).toContain(
          `--base-url must be the API's base alone, without a query or fragment`,
        );
        expect(result.text).not.toContain(KEY);
      }
    }
  }, 60_000);

  it('a key in the path is <redacted> on stdout and in --out', async () => {
    const out = join(folder, 'report.txt');
    for (const baseUrl of [`http://${upstream.host}/${KEY}/marketing/v1`]) {
      const result = await run('verify', baseUrl, '--out', out);
      expect(result.code, baseUrl).toBe(3);
      expect(result.stdout).toContain('Conformance of');
      expect(result.stdout).toContain('<redacted>');
      expect(result.text).not.toContain(KEY);
      expect(readFileSync(out, 'utf8')).not.toContain(KEY);
    }
  }, 60_000);

  it('import: a server body that quotes a key-bearing path is <redacted>', async () => {
    const result = await run(
      'import',
      `http://${upstream.host}/${KEY}/marketing/v1`,
      '--out',
      join(folder, 'seed.json'),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('answered 404');
    expect(result.stderr).toContain('<redacted>');
    expect(result.text).not.toContain(KEY);
  }, 30_000);

  it('import: a base URL without a scheme is usage (exit 2) with the clear message verify gives', async () => {
    const result = await run(
      'import',
      `${upstream.host}/marketing/v1`,
      '--out',
      join(folder, 's.json'),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('must be an http(s) URL such as https://host/marketing/v1');
  }, 30_000);
});

describe('the library refuses the same base URLs, never repeating the key', () => {
  it('verifyService and importSeed with user:key@ in baseUrl', async () => {
    const { importSeed, verifyService } = await import('../../src/index.js');
    const baseUrl = `http:/${SERVER_ID}:${KEY}@${upstream.host}/marketing/v1`;
    for (const call of [
      () => verifyService({ baseUrl, serverId: SERVER_ID, key: 'another-key-0' }),
      () => importSeed({ baseUrl, serverId: SERVER_ID, key: KEY }),
    ]) {
      const error = await call().then(
        () => undefined,
        (thrown: Error) => thrown,
      );
      expect(error?.message).toContain('baseUrl must not hold credentials');
      expect(error?.message).not.toContain(KEY);
    }
  });
});
