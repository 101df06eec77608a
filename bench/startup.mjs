// Start-up: from spawning the sandbox to its first 200, for the CLI and for the container image.
// `node bench/startup.mjs [--image TAG]`: prints one JSON object (bench/run.mjs includes it).
import { execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { image: { type: 'string' }, runs: { type: 'string' } } });
const RUNS = Number(values.runs ?? 10);
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const ok = (port) =>
  new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/__admin/health' }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });

async function untilOk(port, started, limitMs = 30_000) {
  while (!(await ok(port))) {
    if (performance.now() - started > limitMs) throw new Error('no 200 in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - started;
}

const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

// The floor: the same spawn of a bare Node HTTP server, in the same alternating rounds, so the
// CLI's own share of its start-up can be read on a loaded machine.
const FLOOR = `require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.argv[1]), '127.0.0.1')`;

async function timeSpawn(args) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args(port), { stdio: 'ignore' });
  const ms = await untilOk(port, started);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return ms;
}

async function cli() {
  const times = [];
  const floor = [];
  for (let i = 0; i < RUNS; i++) {
    times.push(await timeSpawn((port) => [CLI, '--http', '--port', String(port)]));
    floor.push(await timeSpawn((port) => ['-e', FLOOR, String(port)]));
  }
  return {
    medianMs: Math.round(median(times)),
    runs: times.map(Math.round),
    nodeFloorMedianMs: Math.round(median(floor)),
    nodeFloorRuns: floor.map(Math.round),
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
if (values.image) result.container = await container(values.image);
process.stdout.write(`${JSON.stringify(result)}\n`);
