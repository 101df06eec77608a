const { connectFakeMarketingServer } = require('fake-marketing-server');
const { withTenant } = require('fake-marketing-server/jest');

// The fake global-setup.cjs started, shared by every test file and worker of the run.
let fake;
beforeAll(async () => {
  fake = await connectFakeMarketingServer({
    url: process.env.FAKE_MARKETING_URL,
    ca: process.env.FAKE_MARKETING_CA, // a PEM file path (or the PEM text)
  });
});
afterAll(() => fake.close());

const seed = { lists: [{ id: 1, name: 'Newsletter' }], customFields: [{ name: 'FirstName' }] };

// withTenant gives each test its own tenant, closed when it ends; `() => fake` is read when the
// test runs, after beforeAll.
test.concurrent(
  'adds a contact to a list',
  withTenant(
    () => fake,
    seed,
    async (tenant) => {
      const response = await tenant.inject({
        method: 'PUT',
        url: '/lists/1/contacts',
        payload: { emailAddress: 'ann@example.com', firstName: 'Ann' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ serverId: tenant.serverId, contactId: 1, listId: 1 });
    },
  ),
);

test.concurrent(
  'retries through a one-request outage',
  withTenant(
    () => fake,
    seed,
    async (tenant) => {
      await tenant.maintenance({ times: 1 }); // this tenant's next request gets 503, no one else's
      expect((await tenant.inject('/lists')).statusCode).toBe(503);
      expect((await tenant.inject('/lists')).statusCode).toBe(200);
      const journal = await tenant.requests({ path: '/marketing/v1/lists' });
      expect(journal.map((entry) => entry.status)).toEqual([503, 200]);
    },
  ),
);
