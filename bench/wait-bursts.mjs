// A worker thread of bench/waits.mjs: asks `waits` long polls with a body filter that never
// matches, all at once, every second, until told to stop; then posts how many got each status.
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, waits, timeoutMs } = workerData;
const { hostname, port } = new URL(url);
const never = encodeURIComponent(JSON.stringify({ firstName: 'never sent' }));
const statuses = {};
let running = true;
parentPort.once('message', () => {
  running = false;
});

function one() {
  return new Promise((resolve) => {
    const path = `/__admin/requests/wait?body=${never}&timeoutMs=${timeoutMs}`;
    const req = request({ host: hostname, port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

while (running) {
  const started = Date.now();
  for (const status of await Promise.all(Array.from({ length: waits }, one))) {
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() - started))));
}
parentPort.postMessage(statuses);
