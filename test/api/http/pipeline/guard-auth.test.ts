import { describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../../../src/index.js';
import { call, makeFake, useFake } from '../../../helpers/fake.js';

// The control API's Host, Origin and
// Sec-Fetch-Site checks and its admin token, through inject (the same pipeline as a socket).
// Only calls that change state are sent from foreign origins here: reads from foreign origins are
// covered by test/api/http/pipeline/control-guard.test.ts.

const fake = useFake();

const ORIGIN_REFUSED = (origin: string) =>
  `A control call from another site or origin (${origin}) is refused, reads included: the control API takes calls only from its own pages and from clients that are not browsers.`;

const HOST_REFUSED = (host: string) =>
  `Host '${host}' is not allowed on the control API, which guards against DNS rebinding: add it with the allowedHosts option (CLI: --allowed-hosts).`;

/** Something POST /__admin/reset undoes, so that a refused reset shows. */
async function dirty(target: FakeMarketingServer = fake) {
  await call(target, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'dee@example.com' } });
  return target.exportState();
}

const reset = (headers: Record<string, string>) =>
  fake.inject({ method: 'POST', url: '/__admin/reset', headers });

describe('the control API guard: Host', () => {
  const state = (host: string) => fake.inject({ url: '/__admin/state', headers: { host } });

  it.each(['localhost', 'localhost:8080', '127.0.0.1:3000', '[::1]', '[::1]:8443'])(
    'answers Host %s',
    async (host) => {
      expect((await state(host)).statusCode).toBe(200);
    },
  );

  it.each([
    'evil.example',
    'evil.example:80',
    'localhost.evil.example:80',
    'evil.example:localhost',
    '[evil.example]:80',
  ])('refuses Host %s, quoting it whole', async (host) => {
    const response = await state(host);
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: HOST_REFUSED(host) });
  });

  it('leaves the emulated API alone, whatever the Host and Origin', async () => {
    const lists = await fake.inject({
      url: '/marketing/v1/lists',
      headers: {
        host: 'api.marketing.example',
        authorization: `Basic ${btoa('1234:key-1234')}`,
      },
    });
    expect(lists.statusCode).toBe(200);
    const added = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'dee@example.com' },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(added.status).toBe(200);
  });

  it('answers peers off this machine when localControlOnly is not set', async () => {
    const far = await fake.inject({ url: '/__admin/state', remoteAddress: '172.17.0.1' });
    expect(far.statusCode).toBe(200);
  });
});

describe('the control API guard: calls that change state from web pages', () => {
  it.each([['https://evil.example'], ['http://localhost:81'], ['https://localhost:80'], ['null']])(
    'refuses Origin %s, saying which, and changes nothing',
    async (origin) => {
      const before = await dirty();
      const response = await reset({ origin });
      expect(response.statusCode).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ message: ORIGIN_REFUSED(origin) });
      expect(fake.exportState()).toEqual(before);
    },
  );

  it.each(['cross-site', 'same-site'])(
    'refuses Sec-Fetch-Site %s without an Origin, naming the header',
    async (site) => {
      const before = await dirty();
      const response = await reset({ 'sec-fetch-site': site });
      expect(response.statusCode).toBe(403);
      expect(JSON.parse(response.body)).toEqual({
        message: ORIGIN_REFUSED(`Sec-Fetch-Site: ${site}`),
      });
      expect(fake.exportState()).toEqual(before);
    },
  );

  it('refuses a foreign Sec-Fetch-Site even with its own Origin', async () => {
    const before = await dirty();
    const response = await reset({ origin: 'http://localhost:80', 'sec-fetch-site': 'cross-site' });
    expect(response.statusCode).toBe(403);
    expect(fake.exportState()).toEqual(before);
  });

  it('refuses PUT and DELETE from another origin too', async () => {
    fake.faults.add({ kind: 'delay', delayMs: 1 });
    const removed = await fake.inject({
      method: 'DELETE',
      url: '/__admin/faults',
      headers: { origin: 'https://evil.example' },
    });
    expect(removed.statusCode).toBe(403);
    expect(fake.faults.list()).toHaveLength(1);
  });

  it.each([
    ['its own origin', { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site none (typed in the address bar)', { 'sec-fetch-site': 'none' }],
    ['a client that is not a browser', {}],
  ])('takes %s', async (_name, headers: Record<string, string>) => {
    await dirty();
    expect((await reset(headers)).statusCode).toBe(204);
    expect(fake.server(1234).contacts()).toHaveLength(3);
  });
});

describe('the admin token', () => {
  const TOKEN = 's3cret';
  const open = (target: FakeMarketingServer, url: string, authorization?: string) =>
    target.inject({ url, headers: authorization === undefined ? {} : { authorization } });

  it.each([`Bearer ${TOKEN}`, `BEARER ${TOKEN}`, `bEaReR ${TOKEN}`, `Bearer   ${TOKEN}  `])(
    'takes %j',
    async (authorization) => {
      await using guarded = await makeFake({ adminToken: TOKEN });
      expect((await open(guarded, '/__admin/state', authorization)).statusCode).toBe(200);
    },
  );

  it.each([
    `Bearer${TOKEN}`,
    ` Bearer ${TOKEN}`,
    `Token ${TOKEN}`,
    // Seven characters before the token, as "Bearer " has: the scheme is still wrong.
    `Token: ${TOKEN}`,
    `Bearer ${TOKEN}x`,
    TOKEN,
    // Not spaces: a token with a no-break space (byte 0xA0) or a tab around it is another token.
    `Bearer ${TOKEN}\u00a0`,
    `Bearer \u00a0${TOKEN}`,
    `Bearer \t${TOKEN}`,
    `Bearer\t${TOKEN}`,
  ])('refuses %j', async (authorization) => {
    await using guarded = await makeFake({ adminToken: TOKEN });
    expect((await open(guarded, '/__admin/state', authorization)).statusCode).toBe(401);
  });

  it('takes ?token= on the inspector page only, as one string, and never over a wrong header', async () => {
    await using guarded = await makeFake({ adminToken: TOKEN });
    expect((await open(guarded, `/__admin/ui?token=${TOKEN}`)).statusCode).toBe(200);
    expect((await open(guarded, '/__admin/ui?token=nope')).statusCode).toBe(401);
    expect((await open(guarded, `/__admin/ui?token=${TOKEN}&token=${TOKEN}`)).statusCode).toBe(401);
    expect((await open(guarded, `/__admin/ui?token=${TOKEN}`, 'Bearer nope')).statusCode).toBe(401);
    expect((await open(guarded, `/__admin/state?token=${TOKEN}`)).statusCode).toBe(401);
  });

  it('takes ?token= on the inspector page when the browser also sends Basic credentials', async () => {
    await using guarded = await makeFake({ adminToken: TOKEN });
    const basic = `Basic ${btoa('1234:key-1234')}`;
    expect((await open(guarded, `/__admin/ui?token=${TOKEN}`, basic)).statusCode).toBe(200);
    expect((await open(guarded, '/__admin/ui?token=nope', basic)).statusCode).toBe(401);
  });

  it('with the token, an unknown control path is 404 and a wrong method 405', async () => {
    await using guarded = await makeFake({ adminToken: TOKEN });
    const missing = await open(guarded, '/__admin/nothing', `Bearer ${TOKEN}`);
    expect(missing.statusCode).toBe(404);
    const wrong = await guarded.inject({
      method: 'DELETE',
      url: '/__admin/state',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(wrong.statusCode).toBe(405);
  });

  it('does not guard thumbnails, whose signed URL is the ticket', async () => {
    await using guarded = await makeFake({ adminToken: TOKEN });
    const listed = await call(guarded, 'GET', 'content');
    const { thumbnailUrl } = listed.json()[0] as { thumbnailUrl: string };
    const thumbnail = await guarded.inject({ url: new URL(thumbnailUrl).pathname });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/png');
  });
});
