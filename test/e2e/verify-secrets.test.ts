import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportJunit, reportText, verifyService } from '../../src/index.js';
import { spawnCli } from '../helpers/cli.js';

const SERVER_ID = 1234;
const KEYS = ['Sup3r-Secret-Key-zz', 'k"ey/&<é>+ 42', 'abc'];

const b64 = (text: string) => Buffer.from(text).toString('base64');
const hexOf = (char: string) => char.charCodeAt(0).toString(16).padStart(4, '0');

/** Every way the upstream below writes the key back: verify must show none of them. */
function echoes(key: string, authorization: string): string[] {
  return [
    `you sent ${authorization}`,
    `key ${b64(key)}`,
    `pair ${b64(`${SERVER_ID}:${key}`)}`,
    `swapped ${b64(`${key}:${SERVER_ID}`)}`,
    `mime ${b64(`${SERVER_ID}:${key}`).replace(/(.{16})/, '$1\r\n')}`,
    `plain ${key}`,
    `url ${encodeURIComponent(key)}`,
    `json ${JSON.stringify(key).slice(1, -1)}`,
    `escaped ${[...key].map((char) => `\\u${hexOf(char)}`).join('')}`,
    `xml ${key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}`,
  ];
}

/**
 * A quirky implementation that echoes what it got, as many APIs do in error bodies: the lists
 * answer holds the key in base64, every other answer is a 418 quoting the credentials.
 */
function echoUpstream(): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((request, response) => {
    const authorization = request.headers.authorization ?? '';
    const decoded = Buffer.from(authorization.split(' ')[1] ?? '', 'base64').toString();
    const key = decoded.slice(decoded.indexOf(':') + 1);
    response.setHeader('content-type', 'application/json');
    if (request.method === 'GET' && request.url?.endsWith('/lists')) {
      response.end(JSON.stringify([{ id: 1, serverId: SERVER_ID, name: b64(key) }]));
      return;
    }
    // As text: each echo in one form (JSON quoted in JSON is two forms at once).
    response.setHeader('content-type', 'text/plain');
    response.statusCode = 418;
    response.end(echoes(key, authorization).join('; '));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, baseUrl: `http://127.0.0.1:${port}/marketing/v1` });
    }),
  );
}

/** Independent of the redactor: reads every escape and base64 run, then looks for the key. */
function leaks(text: string, key: string): boolean {
  const unescaped = text
    .replace(/\\+u([0-9a-f]{4})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    )
    .replace(/\\+"/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"');
  const readable = [
    text,
    unescaped,
    unescaped.replace(/%[0-9A-F]{2}(?:%[0-9A-F]{2})*/gi, safeDecode),
  ];
  if (readable.some((one) => one.includes(key))) return true;
  // Base64 runs, MIME line breaks taken out, at every alignment.
  for (const [run] of unescaped.replace(/\r?\n|\\r\\n/g, '').matchAll(/[A-Za-z0-9+/_-]{6,}/g)) {
    for (let skip = 0; skip < 4; skip += 1) {
      if (Buffer.from(run.slice(skip), 'base64').toString('utf8').includes(key)) return true;
    }
  }
  return false;
}

function safeDecode(escaped: string): string {
  try {
    return decodeURIComponent(escaped);
  } catch {
    return escaped;
  }
}

let upstream: { server: Server; baseUrl: string };
let folder: string;
beforeAll(async () => {
  upstream = await echoUpstream();
  folder = mkdtempSync(join(tmpdir(), 'verify-secrets-'));
});
afterAll(async () => {
  await new Promise((resolve) => upstream.server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

describe('verify never reports the key, whatever form an upstream echoes it in', () => {
  it('the checker finds every echo the upstream writes (it can fail)', () => {
    for (const key of KEYS.slice(0, 2)) {
      for (const echo of echoes(key, `Basic ${b64(`${SERVER_ID}:${key}`)}`)) {
        expect(leaks(echo, key), echo).toBe(true);
      }
    }
  });

  it.each(KEYS)(
    'verifyService, text and JUnit reports: key %j',
    async (key) => {
      const report = await verifyService({ baseUrl: upstream.baseUrl, serverId: SERVER_ID, key });
      expect(report.failed).toBeGreaterThan(0);
      const text = reportText(report);
      // The echoes are in the report, redacted: what came back is still shown.
      expect(text).toContain('you sent Basic');
      expect(text).toContain('<redacted>');
      for (const shown of [JSON.stringify(report), text, reportJunit(report)]) {
        if (key.length >= 6) expect(leaks(shown, key)).toBe(false);
        // A short key's base64 is not searched for (it would match any base64): as is and escaped only.
        else expect(shown).not.toMatch(new RegExp(`[^A-Za-z0-9]${key}[^A-Za-z0-9]`));
      }
    },
    30_000,
  );

  it('the CLI: stdout, --out text and JUnit, and the --har recording', async () => {
    const [key] = KEYS as [string];
    const run = async (...args: string[]) => {
      const cli = spawnCli([
        'verify',
        '--base-url',
        upstream.baseUrl,
        '--server-id',
        String(SERVER_ID),
        '--key',
        key,
        ...args,
      ]);
      const { code, stderr } = await cli.exited;
      return { code, text: cli.output() + stderr };
    };
    const out = join(folder, 'report.txt');
    const junit = join(folder, 'report.xml');
    const har = join(folder, 'verify.har');
    const outputs = [
      (await run()).text,
      (await run('--out', out)).text,
      (await run('--reporter', 'junit', '--out', junit)).text,
      (await run('--har', har)).text,
    ];
    const files = [out, junit, har].map((file) => readFileSync(file, 'utf8'));
    expect(files[0]).toContain('you sent Basic');
    expect(files[2]).toContain('you sent Basic');
    for (const shown of [...outputs, ...files]) expect(leaks(shown, key)).toBe(false);
  }, 60_000);
});
