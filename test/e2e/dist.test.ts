import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const AUTH = `Basic ${Buffer.from('1234:k').toString('base64')}`;
const seed = { servers: [{ serverId: 1234, key: 'k', lists: [{ name: 'Built' }] }] };

// `npm test` builds first (pretest), so dist/ is the package as published.
describe('the built package', () => {
  it('imports as ESM through the exports map', async () => {
    const { createFakeMarketingServer, SeedError } = await import('fake-marketing-server');
    const fake = await createFakeMarketingServer({ seed });
    const response = await fake.inject({
      url: '/marketing/v1/lists',
      headers: { authorization: AUTH },
    });
    expect(JSON.parse(response.body)).toEqual([{ id: 1, serverId: 1234, name: 'Built' }]);
    expect(() => fake.seed(JSON.parse('{"servers":1}'))).toThrow(SeedError);
    await fake.close();
  });

  it('requires as CommonJS through the exports map', async () => {
    const cjs = require('fake-marketing-server') as typeof import('../../src/index.js');
    expect(require.resolve('fake-marketing-server')).toMatch(/dist[\\/]index\.cjs$/);
    const fake = await cjs.createFakeMarketingServer({ seed });
    const response = await fake.inject({
      url: '/marketing/v1/lists',
      headers: { authorization: AUTH },
    });
    expect(response.statusCode).toBe(200);
    const { serverId } = fake.addServer();
    expect(serverId).toBeGreaterThan(9999);
    await fake.close();
  });

  it('ships the seed schema and the default fixture', () => {
    const schema = require('fake-marketing-server/seed.schema.json') as { title: string };
    expect(schema.title).toMatch(/seed/i);
    const fixture = require('fake-marketing-server/fixtures/default.json') as {
      servers: unknown[];
    };
    expect(fixture.servers.length).toBeGreaterThanOrEqual(2);
  });
});
