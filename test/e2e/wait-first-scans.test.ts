import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { spawnCliPerTest, started } from '../helpers/cli.js';

// Long polls stay cheap however many there are: 500 waits with body filters that never match,
// asked at once over a journal of 300 bodies of 60 KB, share one budget for their first scans,
// and past it are refused at once (400) instead of each scanning every body. Without that budget
// the waits held the sandbox's event loop for 2 to 2.7 s and a PUT waited behind them. What the
// waits are answered is checked here; how long other requests take meanwhile is measured by
// bench/waits.mjs, never timed in a test. The sandbox runs in its own process, as users run it.

const spawn = spawnCliPerTest();
const WAITS = 500;

/** One exchange over its own connection (or `agent`'s): the status it was answered. */
function exchange(
  url: string,
  path: string,
  init: { method?: string; authorization?: string; body?: string; agent?: Agent } = {},
): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path,
        method: init.method ?? 'GET',
        agent: init.agent ?? false,
        headers: {
          ...(init.authorization ? { authorization: init.authorization } : {}),
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('many long polls with body filters over a full journal', () => {
  it('are each answered, refused at once past their shared budget, and other requests are answered meanwhile', async () => {
    const cli = spawn(['--http', '--port', '0']);
    const { url, servers } = await started(cli);
    const { serverId, key } = servers[0]!;
    const authorization = `Basic ${Buffer.from(`${serverId}:${key}`).toString('base64')}`;
    const put = {
      method: 'PUT',
      authorization,
      body: JSON.stringify({ emailAddress: 'not an address', firstName: 'x'.repeat(60_000) }),
    };
    for (let sent = 0; sent < 300; sent += 4) {
      await Promise.all(
        Array.from({ length: 4 }, () => exchange(url, '/marketing/v1/lists/1/contacts', put)),
      );
    }

    // The others' client keeps one connection, opened before the waits arrive, as a real client
    // does.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await exchange(url, '/marketing/v1/lists', { authorization, agent });
    const never = encodeURIComponent(JSON.stringify({ firstName: 'never sent' }));
    const waits = Array.from({ length: WAITS }, () =>
      exchange(url, `/__admin/requests/wait?body=${never}&timeoutMs=2000`),
    );
    // Others' requests, one after another, while the waits arrive and are scanned.
    const others: number[] = [];
    let settled = false;
    const allWaits = Promise.all(waits).finally(() => {
      settled = true;
    });
    while (!settled || others.length < 10) {
      others.push(await exchange(url, '/marketing/v1/lists', { authorization, agent }));
      others.push(await exchange(url, '/marketing/v1/lists/1/contacts', { ...put, agent }));
    }
    const answered = await allWaits;
    agent.destroy();

    // Each wait ends: refused at once past the shared budget (400), or timed out (404), or over
    // the cap of pending waits (429); none hangs or fails.
    const statuses = new Set(answered);
    expect([...statuses].every((status) => [400, 404, 429].includes(status))).toBe(true);
    // Most are refused at once: the budget of first scans covers a few scans of this journal.
    expect(answered.filter((status) => status === 400).length).toBeGreaterThan(WAITS / 2);
    expect(others).toEqual(others.map((_, index) => (index % 2 === 0 ? 200 : 400)));
  }, 60_000);
});
