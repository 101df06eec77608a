import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dockerProblem } from '../helpers/docker.js';
import { AUTH, smallSeed } from '../helpers/fake.js';
import { freePort } from '../helpers/free-port.js';
import { IMAGE_TAG, repositoryUrl } from '../helpers/package.js';
import { send } from '../helpers/request.js';

// .ci/run installs Docker, starts dockerd and builds this image (`npm run image`) before the tests.
const IMAGE = IMAGE_TAG;
const run = promisify(execFile);

const problem = dockerProblem('container.test.ts');

/** A folder the container's non-root user (uid 1000) can write to. */
function sharedFolder(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'fms-container-')), name);
  mkdirSync(dir);
  chmodSync(dir, 0o777);
  return dir;
}

async function waitHealthy(container: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { stdout } = await run('docker', [
      'inspect',
      '--format',
      '{{.State.Health.Status}}',
      container,
    ]);
    if (stdout.trim() === 'healthy') return;
    if (Date.now() > deadline) throw new Error(`not healthy: ${stdout.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(problem !== undefined)(`the container image ${IMAGE}`, () => {
  it('is built as documented: non-root, port 8443, health check, SIGTERM, OCI labels', async () => {
    const { stdout } = await run('docker', [
      'image',
      'inspect',
      '--format',
      '{{json .Config}}',
      IMAGE,
    ]);
    const config = JSON.parse(stdout) as {
      User: string;
      ExposedPorts: Record<string, unknown>;
      Healthcheck: { Test: string[] };
      StopSignal: string;
      Labels: Record<string, string>;
      Env: string[];
    };
    expect(config.User).toBe('node');
    expect(Object.keys(config.ExposedPorts)).toEqual(['8443/tcp']);
    expect(config.Healthcheck.Test).toEqual(['CMD', 'node', 'dist/healthcheck.js']);
    expect(config.StopSignal).toBe('SIGTERM');
    expect(config.Labels['org.opencontainers.image.licenses']).toBe('MIT');
    expect(config.Labels['org.opencontainers.image.version']).toMatch(/^\d+\.\d+\.\d+$/);
    // The same repository as package.json, or none: never an address that does not exist.
    expect(config.Labels['org.opencontainers.image.source']).toBe(repositoryUrl());
    expect(config.Env).toEqual(
      expect.arrayContaining(['FMS_HOST=0.0.0.0', 'FMS_LOCAL_CONTROL_ONLY=true']),
    );
    // Only what runs: no sources, tests or development tools.
    const { stdout: files } = await run('docker', [
      'run',
      '--rm',
      '--entrypoint',
      'node',
      IMAGE,
      '-e',
      "console.log(require('fs').readdirSync('.').sort().join(' '))",
    ]);
    expect(files.trim()).toBe(
      'dist fixtures node_modules openapi.json package.json seed.schema.json',
    );
  });

  it('serves a mounted seed over HTTPS trusting the exported CA; healthy; SIGTERM stops it at once with the state saved', async () => {
    const port = await freePort();
    const seeds = sharedFolder('seeds');
    const certs = sharedFolder('certs');
    const state = sharedFolder('state');
    writeFileSync(join(seeds, 'seed.json'), JSON.stringify(smallSeed()));
    const name = `fms-test-${port}`;
    await run('docker', [
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      'host',
      '--volume',
      `${seeds}/seed.json:/seed.json:ro`,
      '--volume',
      `${certs}:/certs`,
      '--volume',
      `${state}:/state`,
      '--env',
      `FMS_PORT=${port}`,
      '--env',
      'FMS_SEED=/seed.json',
      '--env',
      'FMS_CA_OUT=/certs/ca.pem',
      '--env',
      'FMS_STATE_FILE=/state/state.json',
      '--env',
      'FMS_TLS_HOSTNAMES=fake.test',
      IMAGE,
    ]);
    try {
      await waitHealthy(name);
      const ca = readFileSync(join(certs, 'ca.pem'), 'utf8');
      const url = `https://127.0.0.1:${port}`;
      const lists = await send(`${url}/marketing/v1/lists`, {
        ca,
        headers: { authorization: AUTH },
      });
      expect(lists.status).toBe(200);
      expect(JSON.parse(lists.body).map((list: { name: string }) => list.name)).toEqual([
        'Newsletter',
        'Customers & <Friends>',
      ]);
      const served = await send(`${url}/__admin/ca.pem`, { ca });
      expect(served.body).toBe(ca);
      const added = await send(`${url}/marketing/v1/lists/1/contacts`, {
        ca,
        method: 'PUT',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ emailAddress: 'from-the-host@example.com' }),
      });
      expect(added.status).toBe(200);
      // One second of grace: a container still running after it is SIGKILLed and exits 137.
      await run('docker', ['stop', '--time', '1', name]);
      const { stdout: code } = await run('docker', [
        'inspect',
        '--format',
        '{{.State.ExitCode}}',
        name,
      ]);
      expect(code.trim()).toBe('0');
      const saved = JSON.parse(readFileSync(join(state, 'state.json'), 'utf8'));
      expect(JSON.stringify(saved)).toContain('from-the-host@example.com');
    } finally {
      await run('docker', ['rm', '--force', name]).catch(() => undefined);
    }
  }, 60_000);

  it('gives the CA to the host with docker cp, from the path its startup block prints', async () => {
    const port = await freePort();
    const name = `fms-test-ca-${port}`;
    await run('docker', [
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      'host',
      '--env',
      `FMS_PORT=${port}`,
      IMAGE,
    ]);
    try {
      await waitHealthy(name);
      const { stdout: logs } = await run('docker', ['logs', name]);
      // The path docs/container.md gives: the non-root user's private folder in /tmp.
      expect(logs).toMatch(/CA file\s+\/tmp\/fake-marketing-server-1000\/ca\.pem/);
      const copy = join(sharedFolder('ca'), 'ca.pem');
      await run('docker', ['cp', `${name}:/tmp/fake-marketing-server-1000/ca.pem`, copy]);
      const lists = await send(`https://localhost:${port}/marketing/v1/lists`, {
        ca: readFileSync(copy, 'utf8'),
        headers: {
          authorization: `Basic ${Buffer.from('12345:sandbox-key-12345').toString('base64')}`,
        },
      });
      expect(lists.status).toBe(200);
    } finally {
      await run('docker', ['rm', '--force', name]).catch(() => undefined);
    }
  }, 60_000);

  it('stops with exit 2, naming the folder and the fix, when a mounted certs folder is not writable', async () => {
    // Made by root, mode 0755: the container's user (uid 1000) cannot write in it.
    const certs = join(mkdtempSync(join(tmpdir(), 'fms-container-')), 'certs');
    mkdirSync(certs, { mode: 0o755 });
    const port = await freePort();
    const exited = await run('docker', [
      'run',
      '--rm',
      '--network',
      'host',
      '--volume',
      `${certs}:/certs`,
      '--env',
      `FMS_PORT=${port}`,
      '--env',
      'FMS_CA_OUT=/certs/ca.pem',
      IMAGE,
    ]).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(exited.code).toBe(2);
    expect(exited.stderr).toContain(
      'the CA file /certs/ca.pem cannot be written: no permission to write in its folder; make /certs writable by uid 1000',
    );
    expect(exited.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('starts with Testcontainers, waiting on its health check', async () => {
    // The reaper's own image cannot be pulled here; the test removes its container itself.
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
    const { GenericContainer, Wait } = await import('testcontainers');
    const port = await freePort();
    const container = await new GenericContainer(IMAGE)
      .withNetworkMode('host')
      .withEnvironment({ FMS_PORT: String(port), FMS_HTTP: 'true' })
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(30_000)
      .start();
    try {
      const lists = await send(`http://127.0.0.1:${port}/marketing/v1/lists`, {
        headers: {
          authorization: `Basic ${Buffer.from('12345:sandbox-key-12345').toString('base64')}`,
        },
      });
      expect(lists.status).toBe(200);
      const health = await send(`http://127.0.0.1:${port}/__admin/health`);
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
    } finally {
      await container.stop();
    }
  }, 60_000);
});
