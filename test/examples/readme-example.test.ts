// marketing-client.test.ts
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createFakeMarketingServer, type FakeMarketingServer } from '../../src/index.js';

let fake: FakeMarketingServer;
const auth = `Basic ${Buffer.from('12345:test-key').toString('base64')}`;

beforeAll(async () => {
  fake = await createFakeMarketingServer({
    seed: {
      servers: [
        {
          serverId: 12345,
          key: 'test-key',
          customFields: [{ name: 'FirstName' }, { name: 'LastName' }],
          lists: [{ id: 1, name: 'Newsletter' }],
        },
      ],
    },
  });
});
afterEach(() => fake.reset()); // back to the seed; journal and faults cleared
afterAll(() => fake.close());

it('adds a contact by email', async () => {
  const response = await fake.inject({
    method: 'PUT',
    url: '/marketing/v1/lists/1/contacts',
    headers: { authorization: auth },
    payload: { emailAddress: 'ann@example.com', firstName: 'Ann' },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ serverId: 12345, contactId: 1, listId: 1 });
  expect(fake.server(12345).contact('ann@example.com')).toMatchObject({
    customFields: { FirstName: 'Ann' },
    listIds: [1],
  });
});

it('retries through a maintenance window', async () => {
  fake.maintenance({ times: 2 }); // the next two requests get 503 + Retry-After
  const { baseUrl, ca } = await fake.listen(); // HTTPS on 127.0.0.1, a free port
  // ...point your client at baseUrl, trusting `ca` (see below), then:
  // expect(fake.requests({ path: '/lists' }).map((r) => r.status)).toEqual([503, 503, 200]);
  expect(baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/marketing\/v1$/);
  expect(ca).toContain('BEGIN CERTIFICATE');
});
