import { createTenantTest } from 'fake-marketing-server/vitest';
import { inject } from 'vitest';

// Each test gets its own tenant (a server with this seed) of the one fake that global-setup.ts
// shares; the tests of this file and of every other file run against it at the same time.
const test = createTenantTest({
  seed: { lists: [{ id: 1, name: 'Newsletter' }], customFields: [{ name: 'FirstName' }] },
  connect: () => ({ url: inject('fakeUrl'), ca: inject('fakeCa') }),
});

test.concurrent('adds a contact to a list', async ({ tenant, expect }) => {
  const response = await tenant.inject({
    method: 'PUT',
    url: '/lists/1/contacts',
    payload: { emailAddress: 'ann@example.com', firstName: 'Ann' },
  });
  expect(response.statusCode).toBe(200);
  // Every tenant starts from the same seed, so every tenant's first contact has id 1.
  expect(response.json()).toEqual({ serverId: tenant.serverId, contactId: 1, listId: 1 });
  const { contacts } = await tenant.exportState();
  expect(contacts).toHaveLength(1);
});

test.concurrent('retries through a one-request outage', async ({ tenant, expect }) => {
  await tenant.maintenance({ times: 1 }); // this tenant's next request gets 503, no one else's
  expect((await tenant.inject('/lists')).statusCode).toBe(503);
  expect((await tenant.inject('/lists')).statusCode).toBe(200);
  const journal = await tenant.requests({ path: '/marketing/v1/lists' });
  expect(journal.map((entry) => entry.status)).toEqual([503, 200]);
});

test.concurrent('creates a custom field', async ({ tenant, expect }) => {
  const response = await tenant.inject({ method: 'POST', url: '/customfields/City' });
  expect(response.statusCode).toBe(200);
  await expect(tenant).toHaveReceivedRequest({ operation: 'createCustomField', status: 200 });
});
