import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFakeMarketingServer, SeedError } from '../../src/index.js';
import { AUTH, basic, makeFake, smallSeed, useFake } from '../helpers/fake.js';

const PATH_PARTS = fc.constantFrom(
  'marketing',
  'v1',
  'beta',
  'lists',
  'contacts',
  'unsubscribe',
  'customfields',
  'content',
  '1',
  '2',
  '0',
  '-1',
  '99999999999999999999',
  '1.5',
  '%2F',
  '%00',
  '%zz',
  '%C3%A9',
  '__proto__',
  'constructor',
  '..',
  '',
  '__admin',
  'thumbnails',
);
const PATHS = fc.oneof(
  fc.array(PATH_PARTS, { maxLength: 7 }).map((parts) => `/${parts.join('/')}`),
  fc
    .tuple(
      fc.constantFrom('/marketing/v1/', '/marketing/beta/'),
      fc.array(PATH_PARTS, { maxLength: 4 }),
    )
    .map(([prefix, parts]) => prefix + parts.join('/')),
  fc.string({ maxLength: 60 }).map((text) => `/marketing/v1/${encodeURIComponent(text)}`),
);
const QUERIES = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?emailAddress=ann@example.com',
    '?emailAddress=',
    '?emailAddress=a&emailAddress=b',
    '?__proto__=1',
  ),
  fc.string({ maxLength: 30 }).map((text) => `?emailAddress=${encodeURIComponent(text)}`),
);
const METHODS = fc.constantFrom('GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
const AUTHS = fc.oneof(
  fc.constant(AUTH),
  fc.constant(undefined),
  fc.constantFrom(
    'Basic',
    'Basic ',
    'Bearer x',
    basic(1234, 'wrong'),
    basic('0000', ''),
    basic('__proto__', 'x'),
  ),
  fc.string({ maxLength: 40 }).map((text) => `Basic ${Buffer.from(text).toString('base64')}`),
  fc.string({ maxLength: 40 }),
);
const ACCEPTS = fc.oneof(
  fc.constantFrom(
    undefined,
    'text/xml',
    'application/json',
    '*/*',
    'text/xml;q=abc',
    ';;;',
    'text/*;q=2',
  ),
  fc.string({ maxLength: 40 }),
);
const CONTENT_TYPES = fc.oneof(
  fc.constantFrom(
    undefined,
    'application/json',
    'application/json; charset=latin1',
    'text/plain',
    'application/xml',
  ),
  fc.string({ maxLength: 30 }),
);
const PROTO_KEYS = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
);
const JSON_VALUES = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    fc.dictionary(
      fc.oneof(
        PROTO_KEYS,
        fc.constantFrom(
          'emailAddress',
          'EmailAddress',
          'customFields',
          'Name',
          'Value',
          'firstName',
        ),
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
}));
const BODIES = fc.oneof(
  fc.constant(undefined),
  JSON_VALUES.value.map((value) => JSON.stringify(value) ?? ''),
  fc
    .record({
      emailAddress: fc.oneof(
        fc.constantFrom('ann@example.com', 'new@example.com'),
        fc.string({ maxLength: 20 }),
      ),
      customFields: fc.array(
        fc.record({
          Name: fc.oneof(PROTO_KEYS, fc.string({ maxLength: 8 })),
          Value: fc.jsonValue(),
        }),
        { maxLength: 3 },
      ),
    })
    .map((body) => JSON.stringify(body)),
  fc.constantFrom(
    '{"__proto__":{"polluted":true},"emailAddress":"p@example.com"}',
    '{"constructor":{"prototype":{"polluted":true}}}',
  ),
  fc.nat({ max: 3000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc
    .nat({ max: 200_000 })
    .map((size) => JSON.stringify({ emailAddress: `${'a'.repeat(size)}@example.com` })),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

const ARBITRARY_REQUEST = fc.record({
  method: METHODS,
  path: PATHS,
  query: QUERIES,
  auth: AUTHS,
  accept: ACCEPTS,
  contentType: CONTENT_TYPES,
  body: BODIES,
});

type FuzzRequest = typeof ARBITRARY_REQUEST extends fc.Arbitrary<infer T> ? T : never;

function headersOf(input: FuzzRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  // Header values a real client could send: Node refuses control characters before sending.
  const clean = (value: string) => value.replace(/[^\t\x20-\x7e]/g, '');
  if (input.auth !== undefined) headers.authorization = clean(input.auth);
  if (input.accept !== undefined) headers.accept = clean(input.accept);
  if (input.contentType !== undefined) headers['content-type'] = clean(input.contentType);
  return headers;
}

const fake = useFake({ perFile: true });
let baseline: string;
beforeAll(() => {
  baseline = JSON.stringify(fake.exportState());
});

describe('fuzzing: arbitrary requests never crash, never get a 5xx, never change state when rejected', () => {
  it('through inject', async () => {
    await fc.assert(
      fc.asyncProperty(ARBITRARY_REQUEST, async (input) => {
        fake.reset();
        const response = await fake.inject({
          method: input.method as 'GET',
          url: input.path + input.query,
          headers: headersOf(input),
          ...(input.body === undefined || input.method === 'GET' || input.method === 'HEAD'
            ? {}
            : { payload: input.body }),
        });
        expect(response.statusCode, `${input.method} ${input.path}`).toBeLessThan(500);
        if (response.statusCode >= 400) expect(JSON.stringify(fake.exportState())).toBe(baseline);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 1500 },
    );
  });

  it('through a real socket', async () => {
    await using socketFake = await makeFake();
    const { url } = await socketFake.listen({ https: false });
    const before = JSON.stringify(socketFake.exportState());
    await fc.assert(
      fc.asyncProperty(ARBITRARY_REQUEST, fc.boolean(), async (input, lieAboutLength) => {
        socketFake.reset();
        const headers = headersOf(input);
        const body = input.method === 'GET' || input.method === 'HEAD' ? undefined : input.body;
        if (body !== undefined && lieAboutLength)
          headers['content-length'] = String(Buffer.byteLength(body) + 5);
        const status = await new Promise<number>((resolve) => {
          const req = httpRequest(
            `${url}${input.path}${input.query}`,
            { method: input.method, headers, agent: false },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          // A lie about Content-Length leaves the server waiting for bytes that never come.
          req.setTimeout(300, () => req.destroy());
          req.on('error', () => resolve(0));
          req.end(body);
        });
        expect(status).toBeLessThan(500);
        if (status >= 400 || status === 0)
          expect(JSON.stringify(socketFake.exportState())).toBe(before);
      }),
      { numRuns: 200 },
    );
    // Still alive and answering after all of that.
    const response = await fetch(`${url}/marketing/v1/lists`, { headers: { authorization: AUTH } });
    expect(response.status).toBe(200);
    // Each request that lies about its length waits out its 300 ms: some 40 of the 200
    // runs do, 12 s here, so the suite's 20 s would be too close on a busy machine.
  }, 90_000);
});

describe('fuzzing seeds: anything either loads or throws SeedError', () => {
  const seedLike = fc.letrec((tie) => ({
    server: fc.record(
      {
        serverId: fc.oneof(fc.integer({ min: 900, max: 100_100 }), fc.jsonValue()),
        key: fc.oneof(fc.string(), fc.jsonValue()),
        maxContacts: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.jsonValue()),
        customFields: fc.array(
          fc.record(
            {
              customFieldNameId: fc.oneof(fc.nat(5), fc.jsonValue()),
              name: fc.oneof(fc.constantFrom('FirstName', 'id', '<x>', ''), fc.string()),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 4 },
        ),
        lists: fc.array(
          fc.record(
            {
              id: fc.oneof(fc.nat(4), fc.jsonValue()),
              name: fc.oneof(fc.string(), fc.jsonValue()),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
        contacts: fc.array(tie('contact'), { maxLength: 4 }),
        content: fc.array(
          fc.record(
            {
              id: fc.nat(3),
              name: fc.string(),
              created: fc.oneof(
                fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
                fc.string(),
              ),
              updated: fc.string(),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    ),
    contact: fc.record(
      {
        contactId: fc.oneof(fc.nat(4), fc.jsonValue()),
        emailAddress: fc.oneof(
          fc.constantFrom('a@example.com', 'A@EXAMPLE.com', 'bad'),
          fc.string(),
        ),
        status: fc.oneof(fc.constantFrom('Active', 'Unsubscribed'), fc.jsonValue()),
        customFields: fc.oneof(
          fc.dictionary(
            fc.oneof(PROTO_KEYS, fc.constantFrom('FirstName', 'firstname')),
            fc.oneof(fc.string(), fc.jsonValue()),
          ),
          fc.jsonValue(),
        ),
        lists: fc.oneof(fc.array(fc.nat(4), { maxLength: 3 }), fc.jsonValue()),
      },
      { requiredKeys: [] },
    ),
  }));
  const seeds = fc.oneof(
    fc.anything(),
    fc.record({ servers: fc.array(seedLike.server, { maxLength: 3 }) }),
    fc.record({ servers: fc.anything() }),
  );

  it('through seed() and createFakeMarketingServer()', async () => {
    await using target = await createFakeMarketingServer({ seed: smallSeed() });
    await fc.assert(
      fc.asyncProperty(seeds, async (seed) => {
        target.reset();
        const before = JSON.stringify(target.exportState());
        try {
          target.seed(seed as never);
        } catch (error) {
          expect(error).toBeInstanceOf(SeedError);
          expect(JSON.stringify(target.exportState())).toBe(before);
        }
        try {
          const fresh = await createFakeMarketingServer({ seed: seed as never });
          await fresh.close();
        } catch (error) {
          expect(error).toBeInstanceOf(SeedError);
        }
      }),
      { numRuns: 600 },
    );
  });
});
