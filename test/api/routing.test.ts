import { describe, expect, it } from 'vitest';
import { call, useFake } from '../helpers/fake.js';

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
