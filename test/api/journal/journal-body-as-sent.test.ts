import { describe, expect, it } from 'vitest';
import { createFakeMarketingServer, replayHar } from '../../../src/index.js';
import { AUTH, smallSeed } from '../../helpers/fake.js';

/**
 * A body the API refuses as not valid JSON by its own rules (a name given twice) is shown by the
 * journal as sent. Shown as the JSON object `JSON.parse` makes of it (the first value dropped), a
 * body filter matched a value the client never sent alone, and replaying the fake's own HAR
 * drifted (recorded 400, replayed 200).
 */
const REFUSED = [
  ['a name given twice', '{"emailAddress":"a@example.com","emailAddress":"b@example.com"}'],
  [
    'a name given twice, spelt with an escape',
    '{"emailAddress":"a@example.com","email\\u0041ddress":"b@example.com","emailAddress":"c@example.com"}',
  ],
  ['nested', '{"emailAddress":"b@example.com","customFields":[{"Name":"A","Name":"B"}]}'],
] as const;

async function sent(bodies: readonly string[]) {
  const fake = await createFakeMarketingServer({ seed: smallSeed() });
  const statuses: number[] = [];
  for (const payload of bodies) {
    const response = await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      payload,
    });
    statuses.push(response.statusCode);
  }
  return { fake, statuses };
}

describe('the journal shows a body the API refused as JSON as the text the client sent', () => {
  for (const [name, payload] of REFUSED) {
    it(`${name}: the entry, the body filter and the HAR`, async () => {
      const { fake, statuses } = await sent([payload]);
      try {
        expect(statuses).toEqual([400]);
        const [entry] = fake.requests();
        expect(entry!.request.body).toBe(payload);
        expect(entry!.response.body).toContain('given twice');
        expect(fake.requests({ body: { emailAddress: 'b@example.com' } })).toEqual([]);
        expect(fake.requestsHar().log.entries[0]!.request.postData!.text).toBe(payload);
      } finally {
        await fake.close();
      }
    });
  }

  it('a body the API read (byte order mark included) is still shown parsed', async () => {
    const { fake, statuses } = await sent([
      '{"emailAddress":"b@example.com"}',
      '\ufeff{"emailAddress":"c@example.com"}',
    ]);
    try {
      expect(statuses).toEqual([200, 200]);
      expect(fake.requests().map((entry) => entry.request.body)).toEqual([
        { emailAddress: 'b@example.com' },
        { emailAddress: 'c@example.com' },
      ]);
    } finally {
      await fake.close();
    }
  });

  it("replaying the fake's own HAR of such requests finds no drift", async () => {
    const { fake } = await sent([
      ...REFUSED.map(([, payload]) => payload),
      '{"emailAddress":"d@example.com"}',
    ]);
    let har: ReturnType<typeof fake.requestsHar>;
    try {
      har = fake.requestsHar();
    } finally {
      await fake.close();
    }
    const report = await replayHar(har);
    expect(
      report.results.map((result) => [result.index, result.outcome, result.differences]),
    ).toEqual(har.log.entries.map((_, index) => [index, 'match', []]));
  });
});
