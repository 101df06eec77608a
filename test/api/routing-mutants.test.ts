import { describe, expect, it } from 'vitest';
import { call, makeFake, useFake } from '../helpers/fake.js';

// Tests that the mutation run (npm run mutation) asked for: the answers of route resolution,
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
