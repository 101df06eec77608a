import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { HarValidator } from '@har-sdk/validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  type Har,
  replayHar,
  startRecorder,
} from '../../src/index.js';
import { send } from '../../src/verify/http-client.js';
import { spawnCli } from '../helpers/cli.js';
import { KEY, SERVER_ID, smallSeed } from '../helpers/fake.js';

let fake: FakeMarketingServer;
let fakeCa: string | undefined;
let folder: string;
let files = 0;
const harPath = () => join(folder, `${++files}.har`);
/** A recorder over plain HTTP in front of the test's fake, writing `out`. */
const recordingFake = (out: string) =>
  startRecorder({ upstream: fake.baseUrl, out, https: false, ...(fakeCa ? { ca: fakeCa } : {}) });
const readHar = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Har;

beforeAll(async () => {
  fake = await createFakeMarketingServer({ seed: smallSeed() });
  ({ ca: fakeCa } = await fake.listen());
  folder = mkdtempSync(join(tmpdir(), 'record-'));
});
afterAll(async () => {
  await fake?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the recording proxy', () => {
  it('serves HTTPS with the generated certificate, trusts the upstream through ca, and writes a valid, redacted HAR', async () => {
    const out = harPath();
    const recorder = await startRecorder({
      upstream: fake.baseUrl,
      out,
      ...(fakeCa ? { ca: fakeCa } : {}),
    });
    expect(recorder.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const target = { baseUrl: recorder.baseUrl, serverId: SERVER_ID, key: KEY, ca: recorder.ca };
    const direct = await send(
      { ...target, baseUrl: fake.baseUrl, ca: fakeCa },
      { method: 'GET', path: '/lists', accept: 'text/xml' },
    );
    const through = await send(target, { method: 'GET', path: '/lists', accept: 'text/xml' });
    const added = await send(target, {
      method: 'PUT',
      path: '/lists/1/contacts',
      body: { emailAddress: 'rec@example.com' },
    });
    await recorder.close();
    expect(through).toEqual(direct);
    expect(added.status).toBe(200);
    const text = readFileSync(out, 'utf8');
    const har = JSON.parse(text) as Har;
    expect(await new HarValidator().verify(har as never)).toEqual([]);
    expect(har.log.entries).toHaveLength(2);
    const [first, second] = har.log.entries;
    expect(first?.request.url).toBe(`${fake.baseUrl}/lists`);
    expect(first?.response.content.text).toBe(direct.body);
    expect(second?.request.postData?.text).toBe('{"emailAddress":"rec@example.com"}');
    expect(first?.request.headers).toContainEqual({
      name: 'authorization',
      value: `Basic ${SERVER_ID}:<redacted>`,
    });
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64'));
  });

  it('learns each key from the credentials it forwards and redacts it wherever else it appears', async () => {
    const out = harPath();
    const recorder = await recordingFake(out);
    const basic = (user: string, password: string) =>
      `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    // The key in the query, in another header and in the body; then a client that swapped the
    // server id and the key.
    await fetch(`${recorder.baseUrl}/lists?apiKey=${encodeURIComponent(KEY)}`, {
      headers: { authorization: basic(String(SERVER_ID), KEY), 'x-api-key': KEY },
    });
    await fetch(`${recorder.baseUrl}/lists/1/contacts`, {
      method: 'PUT',
      headers: { authorization: basic(String(SERVER_ID), KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ emailAddress: 'learned@example.com', firstName: KEY }),
    });
    await fetch(`${recorder.baseUrl}/lists`, {
      headers: { authorization: basic(KEY, String(SERVER_ID)) },
    });
    await recorder.close();
    const text = readFileSync(out, 'utf8');
    const har = JSON.parse(text) as Har;
    expect(har.log.entries).toHaveLength(3);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(encodeURIComponent(KEY));
    expect(text).toContain('<redacted>');
    expect(har.log.entries[2]?.request.headers).toContainEqual({
      name: 'authorization',
      value: 'Basic <redacted>',
    });
  });

  it('redacts a learned key spelt with only some characters percent-escaped', async () => {
    const key = 'Tk/9+ab_cDe-77Q';
    const { serverId } = fake.addServer({ key });
    const out = harPath();
    const recorder = await recordingFake(out);
    const auth = `Basic ${Buffer.from(`${serverId}:${key}`).toString('base64')}`;
    for (const spelt of ['Tk/9%2Bab_cDe-77Q', 'Tk%2f9+ab_cDe-77Q']) {
      await fetch(`${recorder.baseUrl}/lists?apikey=${spelt}`, {
        headers: { authorization: auth },
      });
      await fetch(`${recorder.baseUrl}/lists/1/contacts`, {
        method: 'PUT',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: `{"emailAddress":"a@example.com","firstName":"${spelt}"}`,
      });
    }
    await recorder.close();
    const text = readFileSync(out, 'utf8');
    expect(readHar(out).log.entries).toHaveLength(4);
    for (const form of [key, 'Tk/9%2Bab_cDe-77Q', 'Tk%2f9+ab_cDe-77Q', 'Tk/9 ab_cDe-77Q']) {
      expect(text).not.toContain(form);
    }
    expect(text).toContain('<redacted>');
  });

  it('keeps the file whole at every moment while exchanges arrive concurrently', async () => {
    const out = harPath();
    const recorder = await recordingFake(out);
    const target = { baseUrl: recorder.baseUrl, serverId: SERVER_ID, key: KEY };
    let reading = true;
    let reads = 0;
    let last = 0;
    const reader = (async () => {
      while (reading) {
        const har = readHar(out);
        expect(har.log.entries.length).toBeGreaterThanOrEqual(last);
        last = har.log.entries.length;
        reads += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        send(target, { method: 'GET', path: i % 2 ? '/lists' : '/content' }),
      ),
    );
    await recorder.close();
    reading = false;
    await reader;
    expect(reads).toBeGreaterThan(1);
    expect(readHar(out).log.entries).toHaveLength(60);
    expect(readdirTemp()).toEqual([]);
  });

  it('answers 502 with the reason when the upstream cannot be reached, and records it as such', async () => {
    const out = harPath();
    const recorder = await startRecorder({
      upstream: 'http://127.0.0.1:9/marketing/v1',
      out,
      https: false,
    });
    const answer = await send(
      { baseUrl: recorder.baseUrl, serverId: SERVER_ID, key: KEY },
      { method: 'GET', path: '/lists' },
    );
    await recorder.close();
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body).message).toMatch(
      /upstream http:\/\/127\.0\.0\.1:9 could not be reached: ECONNREFUSED/,
    );
    const [entry] = readHar(out).log.entries;
    expect(entry?.response.status).toBe(502);
    expect(entry?.comment).toMatch(/ECONNREFUSED/);
    const report = await replayHar(readFileSync(out, 'utf8'));
    expect(report.results[0]).toMatchObject({
      outcome: 'not comparable',
      reason: expect.stringMatching(/could not reach the upstream/),
    });
  });

  it('returns a compressed answer unchanged and stores it decoded, as HAR 1.2 wants', async () => {
    const body = '[{"id":1,"serverId":1234,"name":"Zipped"}]';
    const upstream = createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-encoding': 'gzip',
      });
      res.end(gzipSync(body));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const out = harPath();
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      out,
      https: false,
    });
    const raw = await new Promise<{ encoding: string | undefined; bytes: Buffer }>(
      (resolve, reject) => {
        import('node:http').then(({ get }) =>
          get(`${recorder.baseUrl}/lists`, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
            );
          }).on('error', reject),
        );
      },
    );
    await recorder.close();
    upstream.close();
    expect(raw.encoding).toBe('gzip');
    expect(raw.bytes).toEqual(gzipSync(body));
    expect(readHar(out).log.entries[0]?.response.content.text).toBe(body);
  });

  it('continues an existing HAR and never overwrites a file that is not one', async () => {
    const out = harPath();
    for (let run = 0; run < 2; run++) {
      const recorder = await recordingFake(out);
      await send(
        { baseUrl: recorder.baseUrl, serverId: SERVER_ID, key: KEY },
        { method: 'GET', path: '/lists' },
      );
      await recorder.close();
    }
    expect(readHar(out).log.entries).toHaveLength(2);
    const notHar = harPath();
    writeFileSync(notHar, 'my notes');
    await expect(
      startRecorder({ upstream: fake.baseUrl, out: notHar, https: false }),
    ).rejects.toThrow(/is not a HAR file/);
    expect(readFileSync(notHar, 'utf8')).toBe('my notes');
  });
});

/** Waits until the record CLI says it listens (10 s at most); its base URL. */
async function startedAt(cli: ReturnType<typeof spawnCli>): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!cli.output().includes('Press Ctrl+C to stop.')) {
    if (cli.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`record did not start: ${(await cli.exited).stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return /Base URL\s+(\S+)/.exec(cli.output())?.[1] as string;
}

/** `record --http` on a free port in front of the fake, writing `out`. */
function recordOver(out: string): ReturnType<typeof spawnCli> {
  return spawnCli(['record', '--upstream', fake.baseUrl, '--http', '--port', '0', '--out', out]);
}

function readdirTemp(): string[] {
  return (existsSync(folder) ? readdirSync(folder) : []).filter((name) => name.endsWith('.tmp'));
}

describe('fake-marketing-server record (the CLI)', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`prints where to point clients and where it writes; ${signal} leaves a whole HAR`, async () => {
      const out = harPath();
      const cli = spawnCli([
        'record',
        '--upstream',
        fake.baseUrl,
        '--http',
        '--port',
        '0',
        '--out',
        out,
        ...(fakeCa ? ['--ca', writeCa()] : []),
      ]);
      const baseUrl = await startedAt(cli);
      expect(cli.output()).toContain(`Writing      ${out}`);
      const target = { baseUrl, serverId: SERVER_ID, key: KEY };
      const requests = Array.from({ length: 20 }, () =>
        send(target, { method: 'GET', path: '/lists' }),
      );
      await Promise.all(requests.slice(0, 5));
      cli.child.kill(signal);
      await Promise.allSettled(requests);
      const { code } = await cli.exited;
      expect(code).toBe(0);
      const har = readHar(out);
      expect(har.log.entries.length).toBeGreaterThanOrEqual(5);
      expect(cli.output()).toContain(`Wrote ${har.log.entries.length} exchanges to ${out}`);
    });
  }

  it('writes its exchanges and exits 0 on SIGTERM when nothing reads its output any more', async () => {
    const out = harPath();
    const cli = recordOver(out);
    const baseUrl = await startedAt(cli);
    await send({ baseUrl, serverId: SERVER_ID, key: KEY }, { method: 'GET', path: '/lists' });
    // A pipe into `head` that has exited: the "stopping" message finds no reader.
    cli.child.stdout.destroy();
    cli.child.kill('SIGTERM');
    const { code, stderr } = await cli.exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(readHar(out).log.entries).toHaveLength(1);
  });

  it('counts what this run wrote, and what the file holds when it continued one', async () => {
    const out = harPath();
    const said: string[] = [];
    for (const requests of [2, 1]) {
      const cli = recordOver(out);
      const baseUrl = await startedAt(cli);
      for (let n = 0; n < requests; n++)
        await send({ baseUrl, serverId: SERVER_ID, key: KEY }, { method: 'GET', path: '/lists' });
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
      said.push(/Wrote .*/.exec(cli.output())?.[0] ?? '');
    }
    expect(said).toEqual([
      `Wrote 2 exchanges to ${out}`,
      `Wrote 1 exchanges to ${out} (3 in the file)`,
    ]);
    expect(readHar(out).log.entries).toHaveLength(3);
  });

  it.each([
    [[], '--upstream <base URL> is required.'],
    [
      ['--upstream', 'api.example.com'],
      "--upstream must be a URL such as https://api.example.com, got 'api.example.com'.",
    ],
    [
      ['--upstream', 'ftp://example.com'],
      "--upstream must be an http or https URL, got a 'ftp:' URL.",
    ],
    [
      ['--upstream', 'http://127.0.0.1:9', '--port', '70000'],
      "--port must be a whole number from 0 to 65535, got '70000'.",
    ],
  ])('refuses %j with exit 2, saying what to fix', async (args, message) => {
    const { code, stderr } = await spawnCli(['record', ...args]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it.each([
    ['http://12345:sandbox-key-12345@127.0.0.1:9/marketing/v1', 'http://127.0.0.1:9'],
    ['https://:sandbox-key-12345@api.example.com', 'https://api.example.com'],
    ['https://sandbox-key-12345@api.example.com', 'https://api.example.com'],
    // Mis-typed slashes, which a URL parser reads all the same.
    ['http:/12345:sandbox-key-12345@127.0.0.1:9', 'http://127.0.0.1:9'],
    ['http:\\12345:sandbox-key-12345@127.0.0.1:9', 'http://127.0.0.1:9'],
    ['http:12345:sandbox-key-12345@127.0.0.1:9/x?k=sandbox-key-12345', 'http://127.0.0.1:9'],
  ])(
    'refuses an upstream holding credentials (%s) with exit 2, never printing them',
    async (upstream, origin) => {
      const cli = spawnCli(['record', '--upstream', upstream, '--http', '--port', '0']);
      const { code, stderr } = await cli.exited;
      expect(code).toBe(2);
      expect(stderr).toContain('--upstream must not hold credentials');
      expect(stderr).toContain('the client under test sends its own key');
      expect(stderr).toContain(`e.g. '${origin}'`);
      expect(`${cli.output()}${stderr}`).not.toContain('sandbox-key-12345');
    },
  );

  it('prints the upstream origin only: never a key in its query or fragment', async () => {
    const upstream = `${fake.baseUrl}?apikey=sandbox-key-12345#sandbox-key-12345`;
    const cli = spawnCli([
      'record',
      '--upstream',
      upstream,
      '--http',
      '--port',
      '0',
      '--out',
      harPath(),
    ]);
    const deadline = Date.now() + 10_000;
    while (!cli.output().includes('Press Ctrl+C to stop.')) {
      if (cli.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`record did not start: ${(await cli.exited).stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    cli.child.kill('SIGINT');
    const { stderr } = await cli.exited;
    expect(cli.output()).toContain(`forwarding to ${new URL(fake.baseUrl).origin}\n`);
    expect(`${cli.output()}${stderr}`).not.toContain('sandbox-key-12345');
  });
});

function writeCa(): string {
  const file = join(folder, 'upstream-ca.pem');
  writeFileSync(file, fakeCa as string);
  return file;
}
