import { spawn } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localhostCertificateOnce } from '../../src/certificate.js';
import { CLI, spawnCliPerTest, started } from '../helpers/cli.js';
import { basic, smallSeed } from '../helpers/fake.js';
import { freePort } from '../helpers/free-port.js';
import { send } from '../helpers/request.js';

const run = spawnCliPerTest();

const dir = mkdtempSync(join(tmpdir(), 'fms-cli-'));

describe('the sandbox CLI', () => {
  it('starts on the default seed over HTTPS, prints a readable block, and stops cleanly on SIGTERM', async () => {
    const caOut = join(dir, 'ca.pem');
    const cli = run(['--port', '0', '--ca-out', caOut]);
    const { baseUrl, caFile, servers, text } = await started(cli);
    expect(baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/marketing\/v1$/);
    expect(caFile).toBe(caOut);
    expect(servers).toEqual([
      { serverId: 12345, key: 'sandbox-key-12345' },
      { serverId: 6789, key: 'sandbox-key-6789' },
    ]);
    expect(text).toContain(`curl --cacert ${caOut} -u 12345:sandbox-key-12345 ${baseUrl}/lists`);
    const ca = readFileSync(caOut, 'utf8');
    const lists = await send(`${baseUrl}/lists`, {
      ca,
      headers: { authorization: basic(12345, 'sandbox-key-12345') },
    });
    expect(lists.status).toBe(200);
    expect(JSON.parse(lists.body).length).toBeGreaterThanOrEqual(2);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('answers a request in flight before exiting on SIGINT', async () => {
    const cli = run(['--port', '0', '--http']);
    const { url, baseUrl } = await started(cli);
    await send(`${url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'delay', delayMs: 300 }),
    });
    const inFlight = send(`${baseUrl}/lists`, {
      headers: { authorization: basic(12345, 'sandbox-key-12345') },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    cli.child.kill('SIGINT');
    expect((await inFlight).status).toBe(200);
    expect((await cli.exited).code).toBe(0);
  });

  it('releases held requests on SIGINT instead of hanging', async () => {
    const cli = run(['--port', '0', '--http']);
    const { url, baseUrl } = await started(cli);
    await send(`${url}/__admin/maintenance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'no-response' }),
    });
    const held = send(`${baseUrl}/lists`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = Date.now();
    cli.child.kill('SIGINT');
    await expect(held).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect((await cli.exited).code).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(3000);
  });

  it('a CI job: start, wait for health, seed over HTTP, call, read the journal', async () => {
    const cli = run(['--port', '0', '--http', '--admin-token', 'ci-token']);
    const { url, baseUrl } = await started(cli);
    const admin = { authorization: 'Bearer ci-token', 'content-type': 'application/json' };
    expect((await send(`${url}/__admin/health`, { headers: admin })).status).toBe(200);
    expect((await send(`${url}/__admin/health`)).status).toBe(401);
    const seeded = await send(`${url}/__admin/seed`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(smallSeed()),
    });
    expect(JSON.parse(seeded.body)).toEqual([
      { serverId: 1234, key: 'key-1234' },
      { serverId: 56789, key: 'key-56789' },
    ]);
    await send(`${baseUrl}/lists`, { headers: { authorization: basic(1234, 'key-1234') } });
    const journal = await send(`${url}/__admin/requests?serverId=1234`, { headers: admin });
    expect(JSON.parse(journal.body)).toMatchObject([
      { method: 'GET', path: '/marketing/v1/lists', status: 200, serverId: 1234 },
    ]);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('answers the control API under --allowed-hosts names, and journals no more than --journal-body-limit', async () => {
    const cli = run([
      '--port',
      '0',
      '--http',
      '--allowed-hosts',
      'sandbox,.internal',
      '--journal-body-limit',
      '8',
    ]);
    const { url, baseUrl } = await started(cli);
    const state = (host: string) => send(`${url}/__admin/state`, { headers: { host } });
    expect((await state('sandbox')).status).toBe(200);
    expect((await state('fake.internal')).status).toBe(200);
    expect((await state('evil.example')).status).toBe(403);
    await send(`${baseUrl}/lists`, {
      headers: { authorization: basic(12345, 'sandbox-key-12345') },
    });
    const [entry] = JSON.parse((await send(`${url}/__admin/requests`)).body);
    expect(entry.response.bodyTruncated).toBe(true);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('takes its configuration from FMS_ variables; the certificate names FMS_TLS_HOSTNAMES and is served at /__admin/ca.pem', async () => {
    const caOut = join(dir, 'env-ca.pem');
    const child = spawn(process.execPath, [CLI], {
      env: {
        ...process.env,
        FMS_PORT: '0',
        FMS_CA_OUT: caOut,
        FMS_TLS_HOSTNAMES: 'fake.test,10.9.8.7',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + 10_000;
    while (!output.includes('Press Ctrl+C to stop.') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const url = /Control API\s+(\S+)\/__admin/.exec(output)![1]!;
    const ca = readFileSync(caOut, 'utf8');
    expect(new X509Certificate(ca).subjectAltName).toContain('DNS:fake.test');
    expect(new X509Certificate(ca).subjectAltName).toContain('IP Address:10.9.8.7');
    // A client that knows the fake as fake.test (a Compose service name) verifies it.
    const served = await send(`${url}/__admin/ca.pem`, {
      ca,
      servername: 'fake.test',
      headers: { host: 'fake.test' },
    });
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('application/x-pem-file');
    expect(served.body).toBe(ca);
    child.kill('SIGTERM');
    await exited;
  });

  it('beyond loopback, as in a container: prints the listen address and where to find keys, never a key', async () => {
    const cli = run(['--port', '0', '--http', '--host', '0.0.0.0', '--local-control-only']);
    const { baseUrl, servers, text } = await started(cli);
    expect(text).toMatch(/Listening {4}0\.0\.0\.0:\d+ \(every interface\)/);
    expect(text).toContain('FMS_PUBLIC_URL');
    expect(text).toContain('  Servers      12345, 6789');
    expect(text).not.toContain('sandbox-key');
    expect(servers).toEqual([]);
    // The printed base URL works from this machine.
    const lists = await send(`${baseUrl}/lists`, {
      headers: { authorization: basic(12345, 'sandbox-key-12345') },
    });
    expect(lists.status).toBe(200);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('--public-url: the startup block prints the address clients use', async () => {
    const cli = run(['--port', '0', '--http', '--public-url', 'http://fake.test:9000/']);
    const { baseUrl, text } = await started(cli);
    expect(baseUrl).toBe('http://fake.test:9000/marketing/v1');
    expect(text).toContain('Control API  http://fake.test:9000/__admin');
    expect(text).toContain('key sandbox-key-12345');
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('loads --seed and serves a given --cert/--key', async () => {
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(smallSeed()));
    const { key, cert } = await localhostCertificateOnce();
    writeFileSync(join(dir, 'cert.pem'), cert);
    writeFileSync(join(dir, 'key.pem'), key);
    const cli = run([
      '--port',
      '0',
      '--seed',
      seedFile,
      '--cert',
      join(dir, 'cert.pem'),
      '--key',
      join(dir, 'key.pem'),
    ]);
    const { baseUrl, caFile, servers } = await started(cli);
    expect(caFile).toBeUndefined();
    expect(servers.map((s) => s.serverId)).toEqual([1234, 56789]);
    const response = await send(`${baseUrl}/customfields`, {
      ca: cert,
      headers: { authorization: basic(1234, 'key-1234') },
    });
    expect(response.status).toBe(200);
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--port', 'abc'], '--port must be a whole number from 0 to 65535'],
    [['--port', '70000'], '--port must be a whole number'],
    [['--cert', 'c.pem'], '--cert and --key go together'],
    [['--http', '--ca-out', 'x.pem'], '--ca-out writes the generated certificate'],
    [['--host', '0.0.0.0'], 'not a loopback address'],
    [['--admin-token', ''], '--admin-token must not be empty'],
    // No client could send these in an Authorization header: the control API would be locked.
    [['--admin-token', 'a\nb'], 'adminToken must be 1 to 1024 printable ASCII characters'],
    [['--admin-token', 'a b'], 'without spaces or control characters'],
    [['--admin-token', 'tökén'], 'printable ASCII'],
    [['--seed', '/nonexistent/seed.json'], 'cannot read seed file /nonexistent/seed.json'],
    [
      ['--cert', '/nonexistent/c.pem', '--key', '/nonexistent/k.pem'],
      'cannot read --cert /nonexistent/c.pem',
    ],
    [['extra'], 'Unexpected argument'],
    [['--allowed-hosts', ','], '--allowed-hosts takes comma-separated host names'],
    [['--allowed-hosts', 'a b'], '--allowed-hosts takes comma-separated host names'],
    [['--journal-body-limit', 'lots'], '--journal-body-limit must be a whole number'],
  ])('%j: exit 2 with a message that says what to fix', async (args, message) => {
    const { code, stderr } = await run(args).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('a --cert or --key that cannot be served: exit 2 naming the flag and the file', async () => {
    const { key, cert } = await localhostCertificateOnce();
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const file = (name: string, text: string | Buffer) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const notPem = file('hostname.txt', 'my-machine\n');
    const certFile = file('good-cert.pem', cert);
    const keyFile = file('good-key.pem', key);
    const otherKey = file('other-key.pem', other);
    const cases: [string[], string][] = [
      [
        ['--cert', notPem, '--key', notPem],
        `--cert ${notPem} is not a PEM certificate: it should hold a '-----BEGIN CERTIFICATE-----' block.`,
      ],
      [['--cert', keyFile, '--key', keyFile], `--cert ${keyFile} is not a PEM certificate`],
      [['--cert', certFile, '--key', notPem], `--key ${notPem} is not a PEM private key`],
      [['--cert', certFile, '--key', certFile], `--key ${certFile} is not a PEM private key`],
      [
        ['--cert', certFile, '--key', otherKey],
        `--key ${otherKey} does not match --cert ${certFile}: give the private key the certificate was made for.`,
      ],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await run(['--port', '0', ...args]).exited;
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain(message);
      expect(stderr).not.toContain('routines::');
    }
  });

  it('a bad seed: exit 2 naming the path, and nothing listens', async () => {
    const port = await freePort();
    const seedFile = join(dir, 'bad.json');
    writeFileSync(
      seedFile,
      JSON.stringify({ servers: [{ serverId: 1234, contacts: [{ emailAddress: 'nope' }] }] }),
    );
    const { code, stderr } = await run(['--port', String(port), '--seed', seedFile]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(
      'servers[0].contacts[0].emailAddress: must be a well-formed email address',
    );
    await expect(send(`http://127.0.0.1:${port}/`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('a port in use: exit 1 with a clear message', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    const { port } = blocker.address() as { port: number };
    const { code, stderr } = await run(['--port', String(port)]).exited;
    blocker.close();
    expect(code).toBe(1);
    expect(stderr).toContain(`port ${port} is in use`);
  });

  it('--help and --version', async () => {
    const help = run(['--help']);
    expect((await help.exited).code).toBe(0);
    expect(help.output()).toContain('Usage: fake-marketing-server [options]');
    expect(help.output()).toContain('--allowed-hosts <names>');
    expect(help.output()).toContain('--journal-body-limit <bytes>');
    const version = run(['--version']);
    expect((await version.exited).code).toBe(0);
    expect(version.output().trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('the sandbox CLI with --state-file', () => {
  it('keeps the state across a restart, and saves on POST /__admin/save', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fms-cli-state-')), 'sandbox.json');
    const first = run(['--port', '0', '--http', '--state-file', file]);
    const { url, baseUrl, text } = await started(first);
    expect(text).toContain(`State file   ${file}`);
    await send(`${baseUrl}/customfields/Survivor`, {
      method: 'POST',
      headers: { authorization: basic(12345, 'sandbox-key-12345') },
    });
    const saved = await send(`${url}/__admin/save`, { method: 'POST' });
    expect(JSON.parse(saved.body)).toEqual({ stateFile: file });
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(
      JSON.parse(readFileSync(file, 'utf8')).servers[0].customFields.map(
        (f: { name: string }) => f.name,
      ),
    ).toContain('Survivor');

    const second = run(['--port', '0', '--http', '--state-file', file]);
    const restarted = await started(second);
    const fields = await send(`${restarted.baseUrl}/customfields`, {
      headers: { authorization: basic(12345, 'sandbox-key-12345') },
    });
    expect(fields.body).toContain('Survivor');
    second.child.kill('SIGINT');
    expect((await second.exited).code).toBe(0);
  });

  it('writes the state file and exits 0 on SIGTERM when nothing reads its output any more', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fms-cli-state-')), 'unread.json');
    const cli = run(['--port', '0', '--http', '--state-file', file]);
    const { baseUrl } = await started(cli);
    await send(`${baseUrl}/customfields/Unread`, {
      method: 'POST',
      headers: { authorization: basic(12345, 'sandbox-key-12345') },
    });
    // A pipe into `head` that has exited: the "stopping" message finds no reader.
    cli.child.stdout.destroy();
    cli.child.kill('SIGTERM');
    const { code, stderr } = await cli.exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"Unread"');
  });

  it('a bad state file: exit 2 with what is wrong, and the file untouched', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fms-cli-state-')), 'broken.json');
    writeFileSync(file, '{ not json');
    const { code, stderr } = await run(['--port', '0', '--state-file', file]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain('is not valid JSON');
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });
});
