import { expect, test } from './fixtures.js';

test.use({
  tenantSeed: { lists: [{ id: 1, name: 'Newsletter' }], customFields: [{ name: 'FirstName' }] },
});

test('adds a contact to a list', async ({ tenant }) => {
  const response = await tenant.inject({
    method: 'PUT',
    url: '/lists/1/contacts',
    payload: { emailAddress: 'ann@example.com', firstName: 'Ann' },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ serverId: tenant.serverId, contactId: 1, listId: 1 });
});

test('retries through a one-request outage', async ({ tenant }) => {
  await tenant.maintenance({ times: 1 }); // this tenant's next request gets 503, no one else's
  expect((await tenant.inject('/lists')).statusCode).toBe(503);
  expect((await tenant.inject('/lists')).statusCode).toBe(200);
  const journal = await tenant.requests({ path: '/marketing/v1/lists' });
  expect(journal.map((entry) => entry.status)).toEqual([503, 200]);
});
