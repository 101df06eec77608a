import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../../src/domain/errors.js';
import { importSeed } from '../../../src/verify/import.js';
import { closeUpstream, listenUpstream } from '../../helpers/upstream.js';

const SERVER_ID = 1234;
const KEY = 'import-key-1234';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The request lines and Accept headers the service got. */
const seen: string[] = [];
let server: Server | undefined;

/** A service answering each path from `answers`: [status, body], or a handler of its own. */
async function serve(answers: Record<string, [number, string] | Handler>): Promise<string> {
  server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.accept}`);
    const path = (request.url ?? '').replace('/marketing/v1', '');
    const answer = answers[path] ?? [200, '[]'];
    if (typeof answer === 'function') return answer(request, response);
    response.writeHead(answer[0], { 'content-type': 'application/json' }).end(answer[1]);
  });
  return listenUpstream(server);
}

afterEach(async () => {
  seen.length = 0;
  if (server) await closeUpstream(server);
  server = undefined;
});

const importFrom = async (answers: Record<string, [number, string] | Handler>) =>
  importSeed({ baseUrl: await serve(answers), serverId: SERVER_ID, key: KEY });

/** The message importSeed refuses with; fails the test when it is no InvalidOptionError. */
async function refusal(answers: Record<string, [number, string] | Handler>): Promise<string> {
  const error = await importFrom(answers).then(
    () => expect.unreachable(),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(InvalidOptionError);
  return (error as Error).message;
}

describe('importing an account into a seed', () => {
  it('asks each collection once, in JSON, and copies what the seed holds', async () => {
    const seed = await importFrom({
      '/lists': [200, JSON.stringify([{ id: 3, name: 'News', serverId: SERVER_ID }])],
      '/customfields': [200, JSON.stringify([{ customFieldNameId: 2, name: 'City', x: 1 }])],
      '/content': [
        200,
        JSON.stringify([
          { id: 9, name: 'Hi', created: '2026-01-05T10:00:00Z', updated: '2026-01-06T10:00:00Z' },
        ]),
      ],
    });
    expect(seen).toEqual([
      'GET /marketing/v1/lists application/json',
      'GET /marketing/v1/customfields application/json',
      'GET /marketing/v1/content application/json',
    ]);
    expect(seed).toEqual({
      servers: [
        {
          serverId: SERVER_ID,
          customFields: [{ customFieldNameId: 2, name: 'City' }],
          lists: [{ id: 3, name: 'News' }],
          content: [
            { id: 9, name: 'Hi', created: '2026-01-05T10:00:00Z', updated: '2026-01-06T10:00:00Z' },
          ],
        },
      ],
    });
  });

  it('writes no key the account holds, in any form, unless asked to keep it, and says where', async () => {
    const base64 = Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64');
    const answers = {
      '/lists': [
        200,
        JSON.stringify([
          { id: 3, name: `News ${KEY}` },
          { id: 4, name: `Echo ${base64}` },
          { id: 5, name: 'Plain' },
        ]),
      ] as [number, string],
      '/customfields': [
        200,
        JSON.stringify([{ customFieldNameId: 2, name: encodeURIComponent(KEY) }]),
      ] as [number, string],
      '/content': [200, JSON.stringify([{ id: 8, name: `Draft ${KEY}` }])] as [number, string],
    };
    const hidden: string[] = [];
    const seed = await importSeed({
      baseUrl: await serve(answers),
      serverId: SERVER_ID,
      key: KEY,
      onKeyHidden: (where) => hidden.push(where),
    });
    expect(JSON.stringify(seed)).not.toContain(KEY);
    expect(JSON.stringify(seed)).not.toContain(base64);
    expect(seed.servers[0]?.lists).toEqual([
      { id: 3, name: 'News [redacted]' },
      { id: 4, name: 'Echo [redacted]' },
      { id: 5, name: 'Plain' },
    ]);
    expect(seed.servers[0]?.customFields).toEqual([{ customFieldNameId: 2, name: '[redacted]' }]);
    expect(seed.servers[0]?.content).toEqual([{ id: 8, name: 'Draft [redacted]' }]);
    expect(hidden).toEqual([
      'GET /customfields item 0: name',
      'GET /lists item 0: name',
      'GET /lists item 1: name',
      'GET /content item 0: name',
    ]);
    // Without a listener, the same seed.
    await closeUpstream(server!);
    expect(
      await importSeed({ baseUrl: await serve(answers), serverId: SERVER_ID, key: KEY }),
    ).toEqual(seed);
    // With the key kept, the account's data is copied as it is.
    await closeUpstream(server!);
    const kept: string[] = [];
    const whole = await importSeed({
      baseUrl: await serve(answers),
      serverId: SERVER_ID,
      key: KEY,
      keepKey: true,
      onKeyHidden: (where) => kept.push(where),
    });
    expect(whole.servers[0]?.lists?.[0]?.name).toBe(`News ${KEY}`);
    expect(whole.servers[0]?.key).toBe(KEY);
    expect(kept).toEqual([]);
  });

  it('tells apart custom field names that are one once the key in them is hidden', async () => {
    const base64 = Buffer.from(KEY).toString('base64');
    const credentials = Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64');
    const long = 'L'.repeat(40);
    const seed = await importFrom({
      '/customfields': [
        200,
        JSON.stringify([
          { customFieldNameId: 1, name: KEY },
          { customFieldNameId: 2, name: base64 },
          { customFieldNameId: 3, name: '[REDACTED] 2' },
          { customFieldNameId: 4, name: credentials },
          { customFieldNameId: 5, name: `${long}${KEY}` },
          { customFieldNameId: 6, name: `${long}${KEY.replace('-', '%2D')}` },
        ]),
      ],
    });
    // The account's own `[REDACTED] 2` keeps its name (names are case-insensitive): the hidden
    // ones go round it, each cut to 50 characters.
    expect(seed.servers[0]?.customFields?.map((field) => field.name)).toEqual([
      '[redacted]',
      '[redacted] 3',
      '[REDACTED] 2',
      '[redacted] 4',
      `${long}[redacted]`,
      `${long}[redacte 2`,
    ]);
    expect(JSON.stringify(seed)).not.toContain(KEY);
  });

  it('imports content the service lists without its times: the seed rules date it', async () => {
    const seed = await importFrom({ '/content': [200, JSON.stringify([{ id: 1, name: 'A' }])] });
    expect(seed.servers[0]?.content).toEqual([{ id: 1, name: 'A' }]);
  });

  it('refuses an answer other than 200, quoting its body', async () => {
    expect(await refusal({ '/lists': [500, '[]'] })).toBe('GET /lists answered 500: []');
  });

  it('quotes at most 200 characters of a refused body, with the key taken out', async () => {
    const body = `${KEY} ${'z'.repeat(300)}`;
    const message = await refusal({ '/customfields': [403, body] });
    expect(message).not.toContain(KEY);
    expect(message).toMatch(/^GET \/customfields answered 403: \S+ z+$/);
    expect(message.length).toBeLessThanOrEqual('GET /customfields answered 403: '.length + 200);
    expect(message.length).toBeGreaterThan('GET /customfields answered 403: '.length + 150);
  });

  it.each([
    ['a string, its first 40 characters', JSON.stringify('s'.repeat(50)), `"${'s'.repeat(40)}"`],
    ['an object', '{"lists":[]}', 'an object'],
    ['null', 'null', 'null'],
    ['a number', '7', '7'],
  ])('refuses %s for the array', async (_what, body, described) => {
    expect(await refusal({ '/lists': [200, body] })).toBe(
      `GET /lists answered ${described}, not an array: ${body.slice(0, 200)}`,
    );
  });

  it('refuses a body that is not JSON, quoting it', async () => {
    expect(await refusal({ '/lists': [200, '<ArrayOfList/>'] })).toBe(
      'GET /lists answered 200 with a body that is not JSON: <ArrayOfList/>',
    );
  });

  it('refuses an answer nested deeper than 100 levels before it is parsed, quoting it', async () => {
    const body = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(await refusal({ '/lists': [200, body] })).toBe(
      `GET /lists answered JSON nested deeper than 100 levels: ${'['.repeat(200)}`,
    );
  });

  it('reads an answer nested 100 levels', async () => {
    // The array 1, the item 2, then 98 arrays.
    const deep = `${'['.repeat(98)}${']'.repeat(98)}`;
    const seed = await importFrom({ '/lists': [200, `[{"id":1,"name":"A","x":${deep}}]`] });
    expect(seed.servers[0]!.lists).toEqual([{ id: 1, name: 'A' }]);
  });

  it.each([
    ['null', '[null]', 'null'],
    ['an array', '[[]]', 'an array'],
    ['a number', '[1]', '1'],
  ])('refuses %s for an item', async (_what, body, described) => {
    expect(await refusal({ '/lists': [200, body] })).toBe(
      `GET /lists answered an array whose item 0 is ${described}, not an object`,
    );
  });

  it('writes the key into the seed only when asked', async () => {
    const baseUrl = await serve({});
    const kept = await importSeed({ baseUrl, serverId: SERVER_ID, key: KEY, keepKey: true });
    expect(kept.servers[0]?.key).toBe(KEY);
    const left = await importSeed({ baseUrl, serverId: SERVER_ID, key: KEY });
    expect(left.servers[0]).not.toHaveProperty('key');
  });

  it('names the first item that is no object', async () => {
    expect(await refusal({ '/content': [200, '[{"id":1},"oops",[]]'] })).toBe(
      'GET /content answered an array whose item 1 is "oops", not an object',
    );
  });

  it('refuses an answer larger than an import reads, as a bad answer', async () => {
    const message = await refusal({
      '/lists': (_request, response) => {
        response.writeHead(200, { 'content-length': String(64 * 1024 * 1024) });
        response.write('[');
      },
    });
    expect(message).toMatch(/^the answer to GET \/lists is larger than \d+ bytes/);
  });

  it('refuses a switch to another protocol, as a bad answer', async () => {
    const message = await refusal({
      '/lists': (request) => {
        request.socket.write(
          'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n',
        );
      },
    });
    expect(message).toMatch(/^GET \/lists answered 101 \(Switching Protocols\)/);
  });

  it('lets no answer at all through as it came, not as a bad answer', async () => {
    const error = await importFrom({
      '/lists': (request) => {
        request.socket.destroy();
      },
    }).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    );
    expect(error).not.toBeInstanceOf(InvalidOptionError);
    expect((error as { code?: unknown }).code).toEqual(expect.any(String));
  });
});
