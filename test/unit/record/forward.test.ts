import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  request,
  Server,
  type ServerResponse,
} from 'node:http';
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
} from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../../src/answer-limit.js';
import { type Exchange, forward, parseUpstream, type Route } from '../../../src/record/forward.js';

/**
 * Refusing a mis-typed credentialed `--upstream` repeated the key. A message about `--upstream`
 * shows what it can of the address (its origin, or for text that is no URL the host part) and never
 * credentials, a path, a query or a fragment.
 */
const KEY = 'sandbox-key-12345';

function messageOf(upstream: string): string {
  try {
    parseUpstream(upstream);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${upstream} was accepted`);
}

describe('parseUpstream: what its refusals show', () => {
  it.each([
    [`http:/12345:${KEY}@127.0.0.1:19290`, 'http://127.0.0.1:19290'],
    [`http:\\\\12345:${KEY}@127.0.0.1:19290`, 'http://127.0.0.1:19290'],
    [`HTTPS://${KEY}@Api.Example.com:443/marketing/v1?k=${KEY}#${KEY}`, 'https://api.example.com'],
  ])('credentials (%s): the origin only', (upstream, origin) => {
    const message = messageOf(upstream);
    expect(message).toContain('--upstream must not hold credentials');
    expect(message).toContain(`e.g. '${origin}'`);
    expect(message).not.toContain(KEY);
  });

  it.each([
    ['api.example.com', 'api.example.com'],
    [`api.example.com/${KEY}/marketing/v1`, 'api.example.com'],
    [`http://12345:${KEY}@[bad/marketing`, 'http://[bad'],
    [`12345:${KEY}@exa mple.com?k=${KEY}`, 'exa mple.com'],
    [`http://exa mple.com/marketing/v1#${KEY}`, 'http://exa mple.com'],
  ])('text that is no URL (%s): its host part only', (upstream, shown) => {
    const message = messageOf(upstream);
    expect(message).toBe(
      `--upstream must be a URL such as https://api.example.com, got '${shown}'.`,
    );
    expect(message).not.toContain(KEY);
  });

  it.each([
    ['ftp://example.com', 'ftp:'],
    [`ftp://12345:${KEY}@example.com/x?k=${KEY}`, 'ftp:'],
    [`mailto:${KEY}@example.com`, 'mailto:'],
  ])('another scheme (%s): the scheme only', (upstream, scheme) => {
    const message = messageOf(upstream);
    expect(message).toBe(`--upstream must be an http or https URL, got a '${scheme}' URL.`);
  });
});

/** A recorder of one route in front of `upstream`: each request is forwarded and its result kept. */
interface Front {
  readonly url: string;
  readonly results: Promise<Exchange>[];
  /** The recorder's answers, settled when the client's connection to it closed. */
  readonly closed: Promise<void>[];
  readonly closeListeners: number[];
  readonly stop: () => Promise<void>;
}

const HOP = 'fake-marketing-server-record-forward-test';

async function front(upstream: Server | NetServer, timeoutMs = 60_000): Promise<Front> {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const agent = new Agent();
  const route: Route = {
    upstream: parseUpstream(`${origin}/marketing/v1`),
    agent,
    timeoutMs,
    hop: HOP,
  };
  const results: Promise<Exchange>[] = [];
  const closed: Promise<void>[] = [];
  const closeListeners: number[] = [];
  const server = createServer((req, res) => {
    closed.push(new Promise((resolve) => res.once('close', () => resolve())));
    const before = res.listenerCount('close');
    const result = forward(req, res, route);
    results.push(result);
    result.then(
      () => closeListeners.push(res.listenerCount('close') - before),
      () => closeListeners.push(res.listenerCount('close') - before),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    results,
    closed,
    closeListeners,
    stop: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (upstream instanceof Server) upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    },
  };
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request to the recorder on a connection of its own. */
function send(
  url: string,
  path: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const refusal = (reason: string) =>
  JSON.stringify({ message: `fake-marketing-server record: ${reason}` });

describe('parseUpstream: the upstream it takes', () => {
  it('keeps a gateway prefix before /marketing/v1, without a final slash', () => {
    expect(parseUpstream('https://api.example.com/gateway/x/marketing/v1')).toEqual({
      https: true,
      origin: 'https://api.example.com',
      host: 'api.example.com',
      prefix: '/gateway/x',
    });
    expect(parseUpstream('http://api.example.com:8080/gateway/').prefix).toBe('/gateway');
    expect(parseUpstream('http://api.example.com/marketing/beta/').prefix).toBe('');
  });

  it('refuses a key without a user name', () => {
    expect(messageOf(`https://:${KEY}@api.example.com`)).toBe(
      `--upstream must not hold credentials (user:key@): the client under test sends its own key in its Authorization header, and record forwards it. Give the address alone, e.g. 'https://api.example.com'.`,
    );
  });

  it.each([
    [`exa mple.com?k=${KEY} and more`, 'exa mple.com'],
    [`exa mple.com/a path/${KEY}`, 'exa mple.com'],
    [`exa mple.com/go/http://${KEY}`, 'exa mple.com'],
  ])(
    'text that is no URL, whitespace in its path or query (%s): its host part only',
    (upstream, shown) => {
      expect(messageOf(upstream)).toBe(
        `--upstream must be a URL such as https://api.example.com, got '${shown}'.`,
      );
    },
  );
});

describe('forward', () => {
  let stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops) await stop();
    stops = [];
  });
  const started = async (upstream: Server | NetServer, timeoutMs?: number) => {
    const it = await front(upstream, timeoutMs);
    stops.push(it.stop);
    return it;
  };

  it('adds its Via to the one a request came with, or makes one', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const proxy = await started(
      createServer((req, res) => {
        seen.push(req.headers);
        req.resume();
        res.end('ok');
      }),
    );
    await send(proxy.url, '/marketing/v1/lists');
    await send(proxy.url, '/marketing/v1/lists', { headers: { via: '1.0 front-proxy' } });
    expect(seen.map((headers) => headers.via)).toEqual([
      `1.1 ${HOP}`,
      `1.0 front-proxy, 1.1 ${HOP}`,
    ]);
    // A request without a body is sent without one, as it came.
    expect(seen[0]!['content-length']).toBeUndefined();
    expect(seen[0]!['transfer-encoding']).toBeUndefined();
    const exchange = await proxy.results[0]!;
    expect(exchange.path).toBe('/marketing/v1/lists');
    expect(exchange.status).toBe(200);
    expect(exchange.responseBody.toString()).toBe('ok');
    // It leaves no listener behind on the client's response.
    expect(proxy.closeListeners).toEqual([0, 0]);
  });

  it.each([[`1.1 ${HOP} , 1.0 other-proxy`], [`1.0 first-proxy, 1.1 ${HOP}`]])(
    'refuses a request that came back to it (Via: %s) with a 508, nothing forwarded',
    async (via) => {
      let forwarded = 0;
      const proxy = await started(
        createServer((_req, res) => {
          forwarded++;
          res.end();
        }),
      );
      const answer = await send(proxy.url, '/marketing/v1/lists', { headers: { via } });
      expect(answer.status).toBe(508);
      expect(answer.headers['x-fake-marketing-server-loop']).toBe(HOP);
      await expect(proxy.results[0]).rejects.toMatchObject({ name: 'RefusedHereError' });
      expect(forwarded).toBe(0);
    },
  );

  it("answers 508 with its loop message for an upstream's answer that is its own loop refusal", async () => {
    const proxy = await started(
      createServer((_req, res) => {
        res.writeHead(508, { 'x-fake-marketing-server-loop': HOP }).end('{}');
      }),
    );
    const answer = await send(proxy.url, '/marketing/v1/lists');
    expect(answer.status).toBe(508);
    const exchange = await proxy.results[0]!;
    expect(exchange.status).toBe(508);
    expect(exchange.unreachable).toMatch(
      /^loop detected: --upstream http:\/\/127\.0\.0\.1:\d+ is this recorder itself, so each request would come back to it without end\. Point --upstream at the service to record\.$/,
    );
    expect(answer.body).toBe(refusal(exchange.unreachable!));
  });

  it('answers 502 in JSON, naming the bound, for an answer declared past it; the query left out', async () => {
    const proxy = await started(
      createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-length': String(MAX_ANSWER_BYTES + 1) });
        res.flushHeaders();
        // The body never comes: the connection is cut.
        setImmediate(() => res.destroy());
      }),
    );
    const answer = await send(proxy.url, `/marketing/v1/lists?api_key=${KEY}`);
    const reason = `the upstream's answer to GET /marketing/v1/lists is larger than ${MAX_ANSWER_BYTES} bytes (32 MiB), the limit of one answer for record: reading it was stopped`;
    expect(answer.status).toBe(502);
    expect(answer.body).toBe(refusal(reason));
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    const exchange = await proxy.results[0]!;
    expect(exchange).toMatchObject({
      status: 502,
      unreachable: reason,
      responseHeaders: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(answer.body)),
      },
    });
  });

  it('answers 502 saying so for an upstream that gives no whole answer in time', async () => {
    const proxy = await started(
      createServer((req) => {
        req.resume();
      }),
      200,
    );
    const answer = await send(proxy.url, '/marketing/v1/lists');
    expect(answer.status).toBe(502);
    const exchange = await proxy.results[0]!;
    expect(exchange.unreachable).toMatch(
      /^upstream http:\/\/127\.0\.0\.1:\d+ gave no whole answer within 200 ms$/,
    );
  });

  it.each([
    ['without Upgrade', 'HTTP/1.1 101 Switching Protocols\r\n\r\n'],
    [
      'with Upgrade',
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
    ],
  ])(
    'answers 502 saying so for an upstream that answers 101 Switching Protocols %s',
    async (_how, raw) => {
      const upstream = createNetServer((socket) => {
        socket.once('data', () => socket.write(raw));
      });
      const proxy = await started(upstream);
      const answer = await send(proxy.url, '/marketing/v1/lists');
      expect(answer.status).toBe(502);
      const exchange = await proxy.results[0]!;
      expect(exchange.unreachable).toMatch(
        /^upstream http:\/\/127\.0\.0\.1:\d+ answered 101 Switching Protocols: record passes on and records HTTP exchanges only/,
      );
      expect(answer.body).toBe(refusal(exchange.unreachable!));
    },
  );

  it('stops reading an answer when its client goes away, and records nothing', async () => {
    let upstreamClosed!: () => void;
    const upstreamGone = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    const proxy = await started(
      createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('a first part');
        res.on('close', upstreamClosed);
      }),
    );
    const client = request(`${proxy.url}/marketing/v1/lists`, { agent: false });
    client.on('error', () => {});
    client.end();
    while (proxy.results.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // The recorder is reading the answer (it holds it whole before passing it on).
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.destroy();
    await expect(proxy.results[0]).rejects.toMatchObject({ name: 'ClientGoneError' });
    await upstreamGone;
  });

  it.each([
    ['answers', (res: ServerResponse) => res.end('late')],
    ['breaks off', (res: ServerResponse) => res.socket?.destroy()],
  ])('records nothing when its client went away before the upstream %s', async (_what, answer) => {
    let arrived!: () => void;
    const upstreamHasIt = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let proxy!: Front;
    proxy = await started(
      createServer((req, res) => {
        req.resume();
        arrived();
        void proxy.closed[0]!.then(() => answer(res));
      }),
    );
    const client = request(`${proxy.url}/marketing/v1/lists`, { agent: false });
    client.on('error', () => {});
    client.end();
    await upstreamHasIt;
    client.destroy();
    await expect(proxy.results[0]).rejects.toMatchObject({ name: 'ClientGoneError' });
  });

  it('forwards a request body of the bound exactly, and refuses one declared past it with a 413', async () => {
    const received: number[] = [];
    const methods: string[] = [];
    const proxy = await started(
      createServer(async (req, res) => {
        methods.push(req.method ?? '');
        let length = 0;
        for await (const chunk of req) length += (chunk as Buffer).length;
        received.push(length);
        res.end('taken');
      }),
    );
    const whole = await send(proxy.url, '/marketing/v1/lists', {
      method: 'POST',
      body: Buffer.alloc(MAX_ANSWER_BYTES, 'a'),
    });
    expect(whole.status).toBe(200);
    expect(received).toEqual([MAX_ANSWER_BYTES]);
    expect((await proxy.results[0]!).method).toBe('POST');
    expect(methods).toEqual(['POST']);
    const keptAlive = new Agent({ keepAlive: true });
    const past = await new Promise<Answer>((resolve, reject) => {
      const req = request(
        `${proxy.url}/marketing/v1/lists`,
        {
          method: 'POST',
          headers: { 'content-length': MAX_ANSWER_BYTES + 1 },
          // A client that would keep the connection: the refusal closes it.
          agent: keptAlive,
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(past.status).toBe(413);
    expect(past.headers.connection).toBe('close');
    expect(past.body).toBe(
      refusal(
        `the request body is larger than ${MAX_ANSWER_BYTES} bytes (32 MiB), the most record reads`,
      ),
    );
    await expect(proxy.results[1]).rejects.toMatchObject({ name: 'RefusedHereError' });
    expect(received).toEqual([MAX_ANSWER_BYTES]);
    keptAlive.destroy();
  });

  it('stops reading a chunked request body past the bound, naming it', async () => {
    const proxy = await started(createServer((_req, res) => res.end()));
    const req = request(`${proxy.url}/marketing/v1/lists`, { method: 'POST', agent: false });
    req.on('error', () => {});
    req.write(Buffer.alloc(MAX_ANSWER_BYTES, 'a'));
    req.end(Buffer.alloc(1, 'a'));
    while (proxy.results.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(proxy.results[0]).rejects.toThrow(
      `the request body is larger than ${MAX_ANSWER_BYTES} bytes (32 MiB), the limit of one answer for record: reading it was stopped`,
    );
  });

  it('answers 502 for an upstream that drips its answer past the time, never silent for long', async () => {
    const proxy = await started(
      createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/plain' });
        let drops = 0;
        const drip = setInterval(() => {
          drops++;
          if (drops === 100 || res.destroyed) {
            clearInterval(drip);
            res.end();
          } else res.write('.');
        }, 20);
      }),
      300,
    );
    const answer = await send(proxy.url, '/marketing/v1/lists');
    expect(answer.status).toBe(502);
    const exchange = await proxy.results[0]!;
    expect(exchange.unreachable).toMatch(
      /^upstream http:\/\/127\.0\.0\.1:\d+ gave no whole answer within 300 ms$/,
    );
  });

  it('answers 502 naming the error for an upstream that cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const agent = new Agent();
    const route: Route = {
      upstream: parseUpstream(`http://127.0.0.1:${port}`),
      agent,
      timeoutMs: 60_000,
      hop: HOP,
    };
    const results: Promise<Exchange>[] = [];
    const server = createServer((req, res) => results.push(forward(req, res, route)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stops.push(async () => {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    const answer = await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/x');
    const reason = `upstream http://127.0.0.1:${port} could not be reached: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:${port}`;
    expect(answer.status).toBe(502);
    expect(answer.body).toBe(refusal(reason));
    expect((await results[0]!).unreachable).toBe(reason);
  });

  it('passes on no header that Connection names, whatever its case and spacing', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const proxy = await started(
      createServer((req, res) => {
        seen.push(req.headers);
        res.writeHead(200, {
          connection: 'X-Answer-Hop',
          'x-answer-hop': 'drop',
          'x-answer-kept': 'yes',
        });
        res.end();
      }),
    );
    const answer = await send(proxy.url, '/marketing/v1/lists', {
      headers: {
        connection: 'X-Hop-A, , x-hop-b',
        'x-hop-a': 'only for the next hop',
        'x-hop-b': 'only for the next hop',
        'x-kept': 'yes',
      },
    });
    expect(seen[0]!['x-hop-a']).toBeUndefined();
    expect(seen[0]!['x-hop-b']).toBeUndefined();
    expect(seen[0]!['x-kept']).toBe('yes');
    expect(answer.headers['x-answer-hop']).toBeUndefined();
    expect(answer.headers['x-answer-kept']).toBe('yes');
  });
});
