const { connectFakeMarketingServer } = require('fake-marketing-server');
const { withTenant } = require('fake-marketing-server/jest');

// The same shared fake as contacts.recipe.cjs, from another test file (maybe another worker).
let fake;
beforeAll(async () => {
  fake = await connectFakeMarketingServer({
    url: process.env.FAKE_MARKETING_URL,
    ca: process.env.FAKE_MARKETING_CA,
  });
});
afterAll(() => fake.close());

const seed = { lists: [{ id: 7, name: 'Customers' }] };

test.concurrent(
  'lists its own lists over HTTPS, trusting the fake',
  withTenant(
    () => fake,
    seed,
    async (tenant) => {
      // fake.fetch is Node's fetch trusting the fake's certificate: what your own client does
      // with the same URL and CA.
      const response = await fake.fetch(`${tenant.baseUrl}/lists`, {
        headers: { authorization: tenant.authorization },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([
        { id: 7, serverId: tenant.serverId, name: 'Customers' },
      ]);
    },
  ),
);

test.concurrent(
  'a fault rule of one tenant leaves the others alone',
  withTenant(
    () => fake,
    seed,
    async (tenant) => {
      await tenant.faults.add({ kind: 'status', status: 500, times: 1, match: { path: '/lists' } });
      await withTenant(
        () => fake,
        seed,
        async (other) => {
          expect((await other.inject('/lists')).statusCode).toBe(200);
        },
      )();
      expect((await tenant.inject('/lists')).statusCode).toBe(500);
      expect((await tenant.inject('/lists')).statusCode).toBe(200);
      const journal = await tenant.requests();
      expect(journal.map((entry) => [entry.status, entry.fault])).toEqual([
        [500, 'status'],
        [200, undefined],
      ]);
    },
  ),
);
