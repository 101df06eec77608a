import { describe, expect, it } from 'vitest';
import { createFakeMarketingServer } from '../../../../src/index.js';
import { basic, call, KEY, OTHER_KEY, SERVER_ID, useFake } from '../../../helpers/fake.js';

const fake = useFake();

const UNAUTHORIZED =
  'Invalid credentials: use Basic authentication with the server id and its key.';

describe('Basic authentication', () => {
  it.each([
    ['no Authorization header', null],
    ['an empty header', ''],
    ['another scheme', `Bearer ${KEY}`],
    ['Basic without credentials', 'Basic'],
    ['Basic with garbage', 'Basic !!!not-base64!!!'],
    ['credentials without a colon', `Basic ${Buffer.from('1234').toString('base64')}`],
    ['the wrong key', basic(SERVER_ID, 'wrong')],
    ['an empty key', basic(SERVER_ID, '')],
    ['the key with different case', basic(SERVER_ID, KEY.toUpperCase())],
    ['the key with a suffix', basic(SERVER_ID, `${KEY}x`)],
    ['an unknown server id', basic(9999, KEY)],
    ['a 3-digit server id', basic(123, KEY)],
    ['a 6-digit server id', basic(123456, KEY)],
    ['a server id with letters', basic('12a4', KEY)],
    ['a padded server id', basic(' 1234', KEY)],
    ["another server's key", basic(SERVER_ID, OTHER_KEY)],
    ['control characters', `Basic ${Buffer.from(`1234:${KEY}\u0000`).toString('base64')}`],
  ])('%s -> 401 with WWW-Authenticate, in JSON and XML', async (_, auth) => {
    for (const accept of ['application/json', 'text/xml']) {
      const response = await call(fake, 'GET', 'lists', { auth, accept });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="marketing"');
      if (accept === 'text/xml')
        expect(response.xml()).toEqual({ Error: { Message: UNAUTHORIZED } });
      else expect(response.json()).toEqual({ message: UNAUTHORIZED });
    }
  });

  it('every emulated route needs credentials, and a 401 changes nothing', async () => {
    const before = fake.exportState();
    const routes: [Parameters<typeof call>[1], string, unknown?][] = [
      ['GET', 'lists'],
      ['PUT', 'lists/1/contacts/2'],
      ['PUT', 'lists/1/contacts', { emailAddress: 'new@example.com' }],
      ['DELETE', 'lists/1/contacts/1'],
      ['DELETE', 'lists/1/contacts?emailAddress=ann@example.com'],
      ['POST', 'contacts/unsubscribe/1'],
      ['POST', 'contacts/unsubscribe', { emailAddress: 'ann@example.com' }],
      ['POST', '/marketing/beta/contacts/unsubscribe/1'],
      ['GET', 'customfields'],
      ['POST', 'customfields/Shoe'],
      ['DELETE', 'customfields/1'],
      ['GET', 'content'],
    ];
    for (const [method, path, body] of routes) {
      const response = await call(fake, method, path, { auth: basic(SERVER_ID, 'wrong'), body });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    expect(fake.exportState()).toEqual(before);
  });

  it('a regenerated key works at once and the old one gets 401', async () => {
    const key = fake.regenerateKey(SERVER_ID);
    expect(key).not.toBe(KEY);
    expect((await call(fake, 'GET', 'lists')).status).toBe(401);
    expect((await call(fake, 'GET', 'lists', { auth: basic(SERVER_ID, key) })).status).toBe(200);
    expect(fake.server(SERVER_ID).key()).toBe(key);
  });

  it('accepts keys with colons and non-ASCII characters', async () => {
    const { serverId, key } = fake.addServer({ key: 'a:b:ключ' });
    expect((await call(fake, 'GET', 'lists', { auth: basic(serverId, key) })).status).toBe(200);
  });

  it('accepts the scheme name in any case', async () => {
    const auth = `basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;
    expect((await call(fake, 'GET', 'lists', { auth })).status).toBe(200);
  });
});

// The in-process default is an empty fake (the sandbox seed is the CLI's): its first request must
// say why it is refused and how to seed, in the answer and in the journal.
describe('a fake created without a seed', () => {
  const NO_SERVERS =
    'Invalid credentials: this fake holds no server yet, so no key is valid. Seed one: the seed option of createFakeMarketingServer() or useFakeMarketingServer(), fake.seed(), fake.addServer(), or POST /__admin/seed.';

  it('holds no server', async () => {
    await using empty = await createFakeMarketingServer();
    expect(empty.exportState()).toEqual({ servers: [] });
  });

  it.each([
    ['no credentials', null],
    ['the sandbox credentials', basic(12345, 'sandbox-key-12345')],
  ])('answers %s with a 401 saying no server exists and how to seed one', async (_, auth) => {
    await using empty = await createFakeMarketingServer();
    for (const accept of ['application/json', 'text/xml']) {
      const response = await call(empty, 'GET', 'lists', { auth, accept });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="marketing"');
      if (accept === 'text/xml') expect(response.xml()).toEqual({ Error: { Message: NO_SERVERS } });
      else expect(response.json()).toEqual({ message: NO_SERVERS });
    }
    const [entry] = empty.requests();
    expect(entry?.status).toBe(401);
    expect(entry?.response?.body).toBe(JSON.stringify({ message: NO_SERVERS }));
  });

  it('answers the usual 401 once a server exists, and 200 with its key', async () => {
    await using fake = await createFakeMarketingServer();
    const { serverId, key } = fake.addServer({});
    const wrong = await call(fake, 'GET', 'lists', { auth: basic(serverId, 'wrong') });
    expect(wrong.json()).toEqual({ message: UNAUTHORIZED });
    expect((await call(fake, 'GET', 'lists', { auth: basic(serverId, key) })).status).toBe(200);
  });

  it('says no server exists again after reset() to its empty baseline', async () => {
    await using fake = await createFakeMarketingServer();
    fake.addServer({});
    fake.reset();
    expect((await call(fake, 'GET', 'lists', { auth: null })).json()).toEqual({
      message: NO_SERVERS,
    });
  });
});
