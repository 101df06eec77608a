// contacts.test.ts: every test owns a tenant of one shared fake, and runs concurrently.
import { createTenantTest } from 'fake-marketing-server/vitest';

const test = createTenantTest({
  seed: { customFields: [{ name: 'City' }], lists: [{ id: 1, name: 'Newsletter' }] },
});

test.concurrent('adds a contact', async ({ tenant, expect }) => {
  const response = await tenant.inject({
    method: 'PUT',
    url: '/lists/1/contacts',
    payload: { emailAddress: 'ann@example.com', customFields: [{ name: 'City', value: 'Porto' }] },
  });
  expect(response.json()).toEqual({ serverId: tenant.serverId, contactId: 1, listId: 1 });
  expect(tenant.server.contact('ann@example.com')?.customFields).toEqual({ City: 'Porto' });
});

test.concurrent('retries through its own outage', async ({ tenant, fake, expect }) => {
  await tenant.maintenance({ times: 2 }); // this tenant's next two requests get 503
  // Your client, over HTTPS, trusting the fake: fake.fetch (or fake.dispatcher, fake.httpsAgent).
  const get = () =>
    fake.fetch(`${tenant.baseUrl}/lists`, { headers: { authorization: tenant.authorization } });
  const statuses = [(await get()).status, (await get()).status, (await get()).status];
  expect(statuses).toEqual([503, 503, 200]);
  await expect(tenant).toHaveReceivedRequestTimes({ path: '/lists', status: 503 }, 2);
});
