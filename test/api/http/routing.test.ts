import { describe, expect, it } from 'vitest';
import { call, makeFake, useFake } from '../../helpers/fake.js';

const fake = useFake({ perFile: true });

describe('routing', () => {
  it.each([
    ['GET', 'lists/'],
    ['GET', 'customfields/'],
    ['GET', 'content/'],
    ['POST', 'contacts/unsubscribe/3/'],
    ['POST', '/marketing/beta/contacts/unsubscribe/3/'],
    ['PUT', 'lists/1/contacts/3/'],
    ['DELETE', 'lists/2/contacts/3/'],
  ] as const)('%s %s answers with a trailing slash too', async (method, path) => {
    expect((await call(fake, method, path)).status).toBeLessThan(300);
  });

  it('POST /contacts/unsubscribe/ (trailing slash, email body) works, as the sample client sends it', async () => {
    const response = await call(fake, 'POST', 'contacts/unsubscribe/', {
      body: { emailAddress: 'ben@example.com' },
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ['GET', '/marketing/v1/nothing'],
    ['GET', '/marketing/v2/lists'],
    ['GET', '/marketing/beta/lists'],
    ['GET', '/elsewhere'],
    ['GET', '/'],
  ] as const)('unknown route %s %s -> 404 with the error body', async (method, path) => {
    const response = await call(fake, method, path);
    expect(response.status).toBe(404);
    expect(response.json()).toEqual({ message: `No route matches ${method} ${path}.` });
    const xml = await call(fake, method, path, { accept: 'text/xml' });
    expect(xml.xml()).toEqual({ Error: { Message: `No route matches ${method} ${path}.` } });
  });

  it.each([
    ['PUT', 'lists/x/contacts/1'],
    ['PUT', 'lists/1/contacts/1.5'],
    ['PUT', 'lists/0/contacts/1'],
    ['PUT', 'lists/-1/contacts/1'],
    ['PUT', 'lists/1e2/contacts/1'],
    ['DELETE', 'lists/1/contacts/abc'],
    ['DELETE', 'customfields/abc'],
    ['DELETE', 'customfields/0'],
    ['POST', 'contacts/unsubscribe/abc'],
    ['PUT', 'lists/99999999999999999999/contacts/1'],
  ] as const)(
    'a non-integer or non-positive id: %s %s -> 404, nothing changes',
    async (method, path) => {
      const before = fake.exportState();
      const response = await call(fake, method, path);
      expect(response.status).toBe(404);
      expect((response.json() as { message: string }).message).toMatch(/^No route matches/);
      expect(fake.exportState()).toEqual(before);
    },
  );

  it.each([
    ['POST', 'lists', 'GET'],
    ['DELETE', 'lists', 'GET'],
    ['PATCH', 'lists/1/contacts/1', 'DELETE, PUT'],
    ['GET', 'lists/1/contacts', 'DELETE, PUT'],
    ['GET', 'contacts/unsubscribe/1', 'POST'],
    ['PUT', 'customfields/1', 'DELETE, POST'],
    ['DELETE', 'content', 'GET'],
    ['GET', '/marketing/beta/contacts/unsubscribe', 'POST'],
  ] as const)(
    'a known path with a wrong method: %s %s -> 405 with Allow: %s',
    async (method, path, allow) => {
      const before = fake.exportState();
      const response = await call(fake, method, path);
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect((response.json() as { message: string }).message).toContain(
        `${method} is not allowed`,
      );
      expect(fake.exportState()).toEqual(before);
    },
  );

  it('HEAD, which the service does not list, is a 405 like any other method', async () => {
    const response = await call(fake, 'HEAD', 'lists');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET');
  });
});

describe('the finer points of routing', () => {
  // The answers of route resolution,
  // word for word, on the emulated API and on the control API.

  const fake = useFake();

  const message = (body: string) => (JSON.parse(body) as { message: string }).message;

  describe('route resolution answers', () => {
    it('an unknown emulated path is 404 naming the method and the path without its query', async () => {
      const response = await call(fake, 'GET', 'nowhere?x=1');
      expect(response.status).toBe(404);
      expect(response.json()).toEqual({ message: 'No route matches GET /marketing/v1/nowhere.' });
    });

    it('a parameter of the wrong kind on the emulated API is the same 404', async () => {
      const response = await call(fake, 'DELETE', 'customfields/City');
      expect(response.status).toBe(404);
      expect(response.json()).toEqual({
        message: 'No route matches DELETE /marketing/v1/customfields/City.',
      });
    });

    it('a wrong method on the emulated API is 405 with Allow, before credentials are checked', async () => {
      const response = await call(fake, 'DELETE', 'lists', { auth: null });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('GET');
      expect(response.json()).toEqual({
        message: 'DELETE is not allowed on /marketing/v1/lists; use GET.',
      });
    });

    it('an unknown control path is 404 quoting the method and the URL as sent', async () => {
      const response = await fake.inject({ url: '/__admin/nothing?x=1' });
      expect(response.statusCode).toBe(404);
      expect(message(response.body)).toBe('No control route matches GET /__admin/nothing?x=1.');
    });

    it('a control parameter of the wrong kind is 404 saying what it should be', async () => {
      const response = await fake.inject({ method: 'POST', url: '/__admin/servers/12/reset' });
      expect(response.statusCode).toBe(404);
      expect(message(response.body)).toBe("'12' is not a server id (4 or 5 digits).");
      for (const id of ['abc', '1.5', '9007199254740993']) {
        const entry = await fake.inject({ url: `/__admin/requests/${id}`, headers: {} });
        expect([id, entry.statusCode]).toEqual([id, 404]);
        expect(message(entry.body)).toBe(
          `'${id}' is not an id (a whole number from 1, at most 15 digits).`,
        );
      }
    });

    it('a known control route answers with its own status', async () => {
      const reset = await fake.inject({ method: 'POST', url: '/__admin/servers/1234/reset' });
      expect(reset.statusCode).toBe(204);
      expect(reset.body).toBe('');
      expect(reset.headers['content-type']).toBeUndefined();
      const health = await fake.inject({ url: '/__admin/health' });
      expect(health.statusCode).toBe(200);
      expect(health.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
    });

    it('with an admin token, an unknown emulated path is still the emulated 404, not a 401', async () => {
      await using guarded = await makeFake({ adminToken: 's3cret' });
      const response = await call(guarded, 'GET', 'nowhere');
      expect(response.status).toBe(404);
      expect(response.json()).toEqual({ message: 'No route matches GET /marketing/v1/nowhere.' });
    });
  });
});
