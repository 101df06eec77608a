import { describe, expect, it } from 'vitest';
import { call, useFake } from '../../../helpers/fake.js';

const fake = useFake();

const status = (id: number) => fake.server(1234).contact(id)?.status;

describe.each(['v1', 'beta'])('POST /marketing/%s/contacts/unsubscribe', (version) => {
  const path = (rest = '') => `/marketing/${version}/contacts/unsubscribe${rest}`;

  it('form 1 (id in the path): 200 with an empty body; the contact keeps its lists', async () => {
    const response = await call(fake, 'POST', path('/2'));
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expect(fake.server(1234).contact(2)).toMatchObject({ status: 'Unsubscribed', listIds: [1, 2] });
  });

  it('form 2 (email in a JSON body), case-insensitive: 200', async () => {
    const response = await call(fake, 'POST', path(), {
      body: { emailAddress: 'BEN@example.com' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expect(status(2)).toBe('Unsubscribed');
  });

  it('unsubscribing twice is 200', async () => {
    expect((await call(fake, 'POST', path('/3'))).status).toBe(200);
    expect(status(3)).toBe('Unsubscribed');
  });

  it('only touches the server of the credentials', async () => {
    await call(fake, 'POST', path(), { body: { emailAddress: 'ann@example.com' } });
    expect(fake.server(56789).contact('ann@example.com')?.status).toBe('Active');
  });

  it.each([
    ['/99', undefined, 404, 'Contact 99 does not exist.'],
    [
      '',
      { emailAddress: 'zed@example.com' },
      404,
      "No contact has the email address 'zed@example.com'.",
    ],
    ['', { emailAddress: 'zed' }, 400, 'The email address is missing or poorly formatted.'],
    ['', {}, 400, 'The email address is missing or poorly formatted.'],
    ['', undefined, 400, 'The email address is missing or poorly formatted.'],
  ])('%s %j -> %i, nothing changes', async (rest, body, code, message) => {
    const before = fake.exportState();
    const json = await call(fake, 'POST', path(rest), { body });
    expect(json.status).toBe(code);
    expect(json.json()).toEqual({ message });
    const xml = await call(fake, 'POST', path(rest), { body, accept: 'text/xml' });
    expect(xml.status).toBe(code);
    expect(xml.xml()).toEqual({ Error: { Message: message } });
    expect(fake.exportState()).toEqual(before);
  });
});
