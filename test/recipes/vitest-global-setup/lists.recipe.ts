import { createTenantTest } from 'fake-marketing-server/vitest';
import { inject } from 'vitest';

// The same shared fake as contacts.recipe.ts, from another test file (another worker).
const seed = { lists: [{ id: 7, name: 'Customers' }] };
const test = createTenantTest({
  seed,
  connect: () => ({ url: inject('fakeUrl'), ca: inject('fakeCa') }),
});

test.concurrent('lists its own lists over HTTPS, trusting the fake', async ({
  fake,
  tenant,
  expect,
}) => {
  // fake.fetch is Node's fetch trusting the fake's certificate: what your own client does
  // with the same URL and CA.
  const response = await fake.fetch(`${tenant.baseUrl}/lists`, {
    headers: { authorization: tenant.authorization },
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual([{ id: 7, serverId: tenant.serverId, name: 'Customers' }]);
});

test.concurrent('an outage of one tenant leaves the others alone', async ({
  fake,
  tenant,
  expect,
}) => {
  const other = await fake.tenant(seed);
  try {
    await tenant.maintenance({ times: 1 });
    expect((await other.inject('/lists')).statusCode).toBe(200);
    expect((await tenant.inject('/lists')).statusCode).toBe(503);
    expect((await tenant.inject('/lists')).statusCode).toBe(200);
    expect((await tenant.requests()).map((entry) => entry.status)).toEqual([503, 200]);
    expect((await other.requests()).map((entry) => entry.status)).toEqual([200]);
  } finally {
    await other.close();
  }
});

test.concurrent('a wrong key is refused and journaled', async ({ fake, tenant, expect }) => {
  const response = await fake.fetch(`${tenant.baseUrl}/lists`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${tenant.serverId}:wrong`).toString('base64')}`,
    },
  });
  expect(response.status).toBe(401);
  const [entry] = await tenant.requests();
  expect(entry).toMatchObject({ status: 401, serverId: tenant.serverId, authenticated: false });
});
