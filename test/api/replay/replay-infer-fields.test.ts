import { describe, expect, it } from 'vitest';
import { createFakeMarketingServer, replayHar, replayReportText } from '../../../src/index.js';
import { basic, KEY, SERVER_ID, smallSeed } from '../../helpers/fake.js';

// An add-by-email refused with "The custom field 'X' does not exist." checked its CustomFields in
// order, then FirstName, then LastName, and stopped at X: the names before X existed. Found by the
// property test of test/property/replay.test.ts (a fast-check counterexample, kept here).

async function recorded(steps: { method: string; url: string; payload?: object }[]) {
  const fake = await createFakeMarketingServer({ seed: smallSeed() });
  const statuses: number[] = [];
  for (const step of steps) {
    const response = await fake.inject({
      method: step.method as 'GET',
      url: `/marketing/v1${step.url}`,
      headers: { authorization: basic(SERVER_ID, KEY), accept: 'application/json' },
      ...(step.payload ? { payload: step.payload } : {}),
    });
    statuses.push(response.statusCode);
  }
  const har = fake.requestsHar();
  await fake.close();
  return { har, statuses };
}

describe('the starting state inferred from a refused add-by-email', () => {
  it('holds the fields it checked before the one it could not find', async () => {
    // The small seed's field 1 is FirstName; City exists too.
    const { har, statuses } = await recorded([
      { method: 'DELETE', url: '/customfields/1' },
      {
        method: 'PUT',
        url: '/lists/1/contacts',
        payload: {
          emailAddress: 'ann@example.com',
          customFields: [{ Name: 'City', Value: 'Porto' }],
          firstName: 'Ann',
        },
      },
      { method: 'GET', url: '/lists' },
    ]);
    expect(statuses).toEqual([204, 400, 200]);
    expect(har.log.entries[1]!.response.content.text).toBe(
      '{"message":"The custom field \'FirstName\' does not exist."}',
    );
    for (const options of [{}, { seed: smallSeed() }]) {
      const report = await replayHar(har, options);
      expect(report.drifted, replayReportText(report)).toBe(0);
    }
  });

  it('learns nothing from a 400 that names no field of the request, or says something else', async () => {
    const { har } = await recorded([
      {
        method: 'PUT',
        url: '/lists/1/contacts',
        payload: { emailAddress: 'ann@example.com', customFields: [{ Name: 'Nope', Value: 'x' }] },
      },
      { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: 'not an address' } },
    ]);
    const report = await replayHar(har);
    expect(report.drifted, replayReportText(report)).toBe(0);
  });
});
