// Start-up: from spawning the sandbox to its first 200, for the CLI and for the container image.
// `node bench/startup.mjs [--image TAG] [--runs N] [--baseline OLD/dist/cli.js]`: prints one JSON
// object (bench/run.mjs includes it). `--baseline` times another build of the CLI (a copy of an
// older dist/, with fixtures/ and package.json beside it) in the same alternating rounds: on a
// shared machine, before/after figures from separate runs compare the load more than the code.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { image: { type: 'string' }, runs: { type: 'string' }, baseline: { type: 'string' } },
});
const RUNS = Number(values.runs ?? 10);
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const BASELINE = values.baseline === undefined ? undefined : resolve(values.baseline);

// Wall time on a loaded machine moves by 100 ms between runs; the child's CPU time (user + system,
// every thread) moves by a few. Each spawn loads this hook, which reports the process's CPU time
// on SIGUSR2, sent once the first 200 is in: the CPU it took to start and give that answer.
const CPU_HOOK = `data:text/javascript,process.on('SIGUSR2', () => { const u = process.cpuUsage(); process.stderr.write('cpu-us ' + (u.user + u.system) + '\\n'); });`;

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

// Over HTTPS the fake's own certificate is not checked: this times the start, not the trust.
const ok = (port, secure) =>
  new Promise((resolve) => {
    const options = { host: '127.0.0.1', port, path: '/__admin/health', rejectUnauthorized: false };
    const req = (secure ? httpsRequest : request)(options, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });

async function untilOk(port, started, limitMs = 30_000, secure = false) {
  while (!(await ok(port, secure))) {
    if (performance.now() - started > limitMs) throw new Error('no 200 in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - started;
}

const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

// The floors: the same spawn of a bare Node HTTP server, and of a bare fastify app built with the
// fake's fastify options (no ajv compilers, one route), in the same alternating rounds, so the
// CLI's own share of its start-up, and fastify's, can be read on a loaded machine.
const FLOOR = `require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.argv[1]), '127.0.0.1')`;
const FASTIFY_FLOOR = `
const fastify = require('node:module').createRequire(process.argv[2])('fastify');
const never = () => { throw new Error('no schema'); };
const app = fastify({ exposeHeadRoutes: false, schemaController: { compilersFactory: { buildValidator: () => never, buildSerializer: () => never } } });
app.get('/__admin/health', async () => ({ status: 'ok' }));
app.listen({ port: Number(process.argv[1]), host: '127.0.0.1' });`;

/** Spawn to first 200, and the child's CPU time then; the child is stopped after. */
async function timeSpawn(args, secure = false) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', CPU_HOOK, ...args(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ms = await untilOk(port, started, 30_000, secure);
  child.kill('SIGUSR2');
  const cpuAfter = performance.now();
  let cpu = /cpu-us (\d+)/.exec(stderr);
  while (!cpu) {
    if (performance.now() - cpuAfter > 5_000) throw new Error(`no CPU time reported: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
    cpu = /cpu-us (\d+)/.exec(stderr);
  }
  child.kill('SIGTERM');
  await exited;
  return { ms, cpuMs: Number(cpu[1]) / 1000 };
}

/** Medians and every run, wall and CPU time, of one kind of spawn. */
function summary(results, prefix = '') {
  const key = (name) => (prefix ? prefix + name[0].toUpperCase() + name.slice(1) : name);
  return {
    [key('medianMs')]: Math.round(median(results.map((r) => r.ms))),
    [key('runs')]: results.map((r) => Math.round(r.ms)),
    [key('cpuMedianMs')]: Math.round(median(results.map((r) => r.cpuMs))),
    [key('cpuRuns')]: results.map((r) => Math.round(r.cpuMs)),
  };
}

// Over HTTPS (the CLI's default) the first answer also waits for the certificate the fake makes;
// its CA file goes to a folder of the benchmark's own, not the sandbox's default.
const CA_FOLDER = mkdtempSync(join(tmpdir(), 'fms-startup-bench-'));
const httpArgs = (cli) => (port) => [cli, '--http', '--port', String(port)];
const httpsArgs = (cli) => (port) => [
  cli,
  '--port',
  String(port),
  '--ca-out',
  join(CA_FOLDER, 'ca.pem'),
];

async function cli() {
  const times = [];
  const secure = [];
  const baseline = [];
  const baselineSecure = [];
  const floor = [];
  const fastifyFloor = [];
  for (let i = 0; i < RUNS; i++) {
    times.push(await timeSpawn(httpArgs(CLI)));
    if (BASELINE) baseline.push(await timeSpawn(httpArgs(BASELINE)));
    secure.push(await timeSpawn(httpsArgs(CLI), true));
    if (BASELINE) baselineSecure.push(await timeSpawn(httpsArgs(BASELINE), true));
    floor.push(await timeSpawn((port) => ['-e', FLOOR, String(port)]));
    fastifyFloor.push(await timeSpawn((port) => ['-e', FASTIFY_FLOOR, String(port), CLI]));
  }
  return {
    ...summary(times),
    https: summary(secure),
    ...(BASELINE
      ? { baseline: { cli: BASELINE, ...summary(baseline), https: summary(baselineSecure) } }
      : {}),
    ...summary(floor, 'nodeFloor'),
    ...summary(fastifyFloor, 'fastifyFloor'),
  };
}

async function container(image) {
  const first200 = [];
  const healthy = [];
  for (let i = 0; i < Math.min(RUNS, 5); i++) {
    const port = await freePort();
    const name = `fms-startup-${port}`;
    const started = performance.now();
    execFileSync(
      'docker',
      [
        'run',
        '-d',
        '--name',
        name,
        '--network',
        'host',
        '-e',
        `FMS_PORT=${port}`,
        '-e',
        'FMS_HTTP=true',
        image,
      ],
      { stdio: 'ignore' },
    );
    first200.push(await untilOk(port, started));
    for (;;) {
      const status = execFileSync('docker', ['inspect', '-f', '{{.State.Health.Status}}', name], {
        encoding: 'utf8',
      }).trim();
      if (status === 'healthy') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    healthy.push(performance.now() - started);
    execFileSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
  }
  return {
    first200MedianMs: Math.round(median(first200)),
    healthyMedianMs: Math.round(median(healthy)),
    runs: first200.map(Math.round),
    healthyRuns: healthy.map(Math.round),
  };
}

const result = { cli: await cli() };
rmSync(CA_FOLDER, { recursive: true, force: true });
if (values.image) result.container = await container(values.image);
process.stdout.write(`${JSON.stringify(result)}\n`);
