import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeMarketingServer, replayHar, replayReportText } from '../../src/index.js';
import { basic, KEY, OTHER_KEY, OTHER_SERVER_ID, SERVER_ID, smallSeed } from '../helpers/fake.js';

// Small pools, so that sessions revisit what they made: the same address twice, a field created
// and then deleted, an id used before and after the answer that revealed it.
const EMAIL = fc.constantFrom(
  'ann@example.com',
  'BEN@example.com',
  'new@example.com',
  'new2@example.com',
  'not-an-address',
);
const FIELD = fc.constantFrom('City', 'Nickname', 'Region', 'emailaddress', 'x'.repeat(51));
const ACCEPT = fc.constantFrom('application/json', 'text/xml');
const LIST = fc.integer({ min: 1, max: 3 });
const ID = fc.integer({ min: 1, max: 7 });
const SERVER = fc.constantFrom(
  { serverId: SERVER_ID, key: KEY },
  { serverId: SERVER_ID, key: KEY },
  { serverId: OTHER_SERVER_ID, key: OTHER_KEY },
  { serverId: SERVER_ID, key: 'wrong' },
);

interface Step {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  payload?: object;
}

const STEP: fc.Arbitrary<Step> = fc.oneof(
  fc
    .constantFrom('/lists', '/customfields', '/content')
    .map((url) => ({ method: 'GET' as const, url })),
  fc
    .record({
      list: LIST,
      email: EMAIL,
      city: fc.option(fc.constantFrom('Porto', 'Oslo')),
      first: fc.boolean(),
    })
    .map(({ list, email, city, first }) => ({
      method: 'PUT' as const,
      url: `/lists/${list}/contacts`,
      payload: {
        emailAddress: email,
        ...(city ? { customFields: [{ Name: 'City', Value: city }] } : {}),
        ...(first ? { firstName: 'Ann' } : {}),
      },
    })),
  fc
    .tuple(LIST, ID)
    .map(([list, id]) => ({ method: 'PUT' as const, url: `/lists/${list}/contacts/${id}` })),
  fc
    .tuple(LIST, ID)
    .map(([list, id]) => ({ method: 'DELETE' as const, url: `/lists/${list}/contacts/${id}` })),
  ID.map((id) => ({ method: 'POST' as const, url: `/contacts/unsubscribe/${id}` })),
  EMAIL.map((email) => ({
    method: 'POST' as const,
    url: '/contacts/unsubscribe',
    payload: { emailAddress: email },
  })),
  FIELD.map((name) => ({ method: 'POST' as const, url: `/customfields/${name}` })),
  ID.map((id) => ({ method: 'DELETE' as const, url: `/customfields/${id}` })),
);

describe('replaying the fake against itself', () => {
  it('always matches, on the starting state inferred from the recording and on the seed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(STEP, ACCEPT, SERVER), { minLength: 1, maxLength: 25 }),
        async (steps) => {
          const fake = await createFakeMarketingServer({ seed: smallSeed() });
          for (const [step, accept, server] of steps) {
            await fake.inject({
              method: step.method,
              url: `/marketing/v1${step.url}`,
              headers: { authorization: basic(server.serverId, server.key), accept },
              ...(step.payload ? { payload: step.payload } : {}),
            });
          }
          const har = fake.requestsHar();
          await fake.close();
          for (const options of [{}, { seed: smallSeed() }]) {
            const report = await replayHar(har, options);
            expect(report.results).toHaveLength(steps.length);
            expect(report.drifted, replayReportText(report)).toBe(0);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
