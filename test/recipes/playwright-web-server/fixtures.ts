import { test as base } from '@playwright/test';
import {
  connectFakeMarketingServer,
  type RemoteFakeMarketingServer,
  type Tenant,
  type TenantSeed,
} from 'fake-marketing-server';

export { expect } from '@playwright/test';

/**
 * `fake`: one connection per worker to the sandbox playwright.config.ts starts, trusting its
 * certificate. `tenant`: each test's own server of that sandbox, seeded with `tenantSeed` (a
 * fixture option: `test.use({ tenantSeed: ... })`), closed when the test ends.
 */
export const test = base.extend<
  { tenant: Tenant; tenantSeed: TenantSeed },
  { fake: RemoteFakeMarketingServer }
>({
  fake: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
    async ({}, use) => {
      const fake = await connectFakeMarketingServer({
        url: process.env.FAKE_MARKETING_URL!,
        ca: process.env.FAKE_MARKETING_CA!, // the --ca-out file
      });
      await use(fake);
      await fake.close();
    },
    { scope: 'worker' },
  ],
  tenantSeed: [{}, { option: true }],
  tenant: async ({ fake, tenantSeed }, use) => {
    const tenant = await fake.tenant(tenantSeed);
    await use(tenant);
    await tenant.close();
  },
});
