import type { Tenant, TenantSeed } from 'fake-marketing-server';

/** Anything that makes tenants: an in-process fake, its helper's handle, or a remote one. */
export interface TenantMaker<T extends Tenant = Tenant> {
  tenant(seed?: TenantSeed): Promise<T>;
}

/**
 * Wraps a test body so that it runs with a tenant of its own, created before it and closed after
 * it, however it ends: `it.concurrent('...', withTenant(fake, seed, async (tenant) => {...}))`.
 * Works in every runner, concurrent tests included, since it uses no hook. `fake` may be a
 * function returning the fake (read when the test runs, e.g. after beforeAll).
 */
export function withTenant<T extends Tenant>(
  fake: TenantMaker<T> | (() => TenantMaker<T>),
  seed: TenantSeed | undefined,
  body: (tenant: T) => unknown,
): () => Promise<void> {
  return async () => {
    const maker = typeof fake === 'function' ? fake() : fake;
    const tenant = await maker.tenant(seed);
    try {
      await body(tenant);
    } finally {
      await tenant.close();
    }
  };
}
