import { expect, test } from './fixtures.js';

test.use({ tenantSeed: { lists: [{ id: 7, name: 'Customers' }] } });

test('lists its own lists over HTTPS, trusting the sandbox', async ({ fake, tenant }) => {
  // fake.fetch is Node's fetch trusting the sandbox's certificate: what your own client does
  // with the same URL and CA file.
  const response = await fake.fetch(`${tenant.baseUrl}/lists`, {
    headers: { authorization: tenant.authorization },
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual([{ id: 7, serverId: tenant.serverId, name: 'Customers' }]);
});

test('a wrong key is refused and journaled', async ({ fake, tenant }) => {
  const wrong = `Basic ${Buffer.from(`${tenant.serverId}:wrong`).toString('base64')}`;
  const response = await fake.fetch(`${tenant.baseUrl}/lists`, {
    headers: { authorization: wrong },
  });
  expect(response.status).toBe(401);
  const journal = await tenant.requests();
  expect(journal).toEqual([
    expect.objectContaining({ status: 401, serverId: tenant.serverId, authenticated: false }),
  ]);
});
