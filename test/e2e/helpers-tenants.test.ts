import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type LocalTenant, UnknownServerError } from 'fake-marketing-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeMarketingServer, withTenant } from '../../src/testing/vitest.js';

// The runner helpers and tenants: what the file-level helper resets and keeps, withTenant for
// concurrent tests in any runner, and node:test's tenantFor.

const seed = { lists: [{ id: 1, name: 'Newsletter' }] };
const addAnn = {
  method: 'PUT',
  url: '/lists/1/contacts',
  payload: { emailAddress: 'ann@example.com' },
};

describe('useFakeMarketingServer, resetting after each test', () => {
  const fake = useFakeMarketingServer({ listen: false });
  let shared: LocalTenant;
  let added = 0;
  beforeAll(async () => {
    shared = await fake.tenant(seed);
  });

  it('lets a test change a tenant made in beforeAll', async () => {
    expect((await shared.inject(addAnn)).statusCode).toBe(200);
    await shared.maintenance();
    added = fake.addServer().serverId;
  });

  it('keeps that tenant for the next test, back to its seed; removes servers added otherwise', async () => {
    expect(shared.server.contacts()).toEqual([]);
    expect((await shared.inject('/lists')).statusCode).toBe(200);
    expect(await shared.requests()).toHaveLength(1);
    expect(() => fake.server(added)).toThrow(UnknownServerError);
  });
});

describe('useFakeMarketingServer with resetAfterEach: false', () => {
  const fake = useFakeMarketingServer({ listen: false, resetAfterEach: false });
  let serverId = 0;

  it('changes the state', () => {
    serverId = fake.addServer().serverId;
  });

  it('finds it unchanged in the next test', () => {
    expect(fake.server(serverId).serverId).toBe(serverId);
  });
});

describe('withTenant', () => {
  const fake = useFakeMarketingServer({ listen: false, resetAfterEach: false });
  const seen: number[] = [];

  for (const index of [1, 2, 3]) {
    it.concurrent(
      `gives concurrent test ${index} a tenant of its own`,
      withTenant(fake, seed, async (tenant) => {
        seen.push(tenant.serverId);
        await tenant.maintenance({ times: 1 });
        expect((await tenant.inject('/lists')).statusCode).toBe(503);
        expect((await tenant.inject('/lists')).statusCode).toBe(200);
      }),
    );
  }

  it('closed each one, even after a failure', async () => {
    expect(new Set(seen).size).toBe(3);
    for (const serverId of seen) expect(() => fake.server(serverId)).toThrow(UnknownServerError);
    let leaked = 0;
    const failing = withTenant(fake, seed, (tenant) => {
      leaked = tenant.serverId;
      throw new Error('the test failed');
    });
    await expect(failing()).rejects.toThrow('the test failed');
    expect(() => fake.server(leaked)).toThrow(UnknownServerError);
  });
});

describe('fake-marketing-server/node-test and tenants', () => {
  it('runs concurrent node:test tests, each with its own tenant', async () => {
    const file = fileURLToPath(new URL('../fixtures/node-test-tenants.mjs', import.meta.url));
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(process.execPath, ['--test', '--test-reporter=tap', file], (error, out) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out }),
      ),
    );
    expect(stdout).toMatch(/# pass 5/);
    expect(stdout).toMatch(/# fail 0/);
    expect(code).toBe(0);
  });
});
