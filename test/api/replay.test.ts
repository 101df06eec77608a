import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  type Har,
  HarInputError,
  replayHar,
  replayReportJunit,
  replayReportText,
} from '../../src/index.js';
import { KEY, SERVER_ID, smallSeed } from '../helpers/fake.js';

const AUTH = `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;

interface Step {
  method?: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  accept?: string;
  payload?: object;
  authorization?: string;
}

/** The fake's own HAR of `steps`, sent to a fresh fake on the small seed. */
async function recordedHar(steps: Step[]): Promise<Har> {
  const fake = await createFakeMarketingServer({ seed: smallSeed() });
  try {
    for (const step of steps) {
      await fake.inject({
        method: step.method ?? 'GET',
        url: `/marketing/v1${step.url}`,
        headers: {
          authorization: step.authorization ?? AUTH,
          accept: step.accept ?? 'application/json',
        },
        ...(step.payload ? { payload: step.payload } : {}),
      });
    }
    return fake.requestsHar();
  } finally {
    await fake.close();
  }
}

/** A copy of `har` whose entry `index` answered `change(answer text)` instead. */
function withAnswer(har: Har, index: number, change: (text: string) => string): Har {
  const copy = structuredClone(har);
  const content = copy.log.entries[index]?.response.content;
  if (content) content.text = change(content.text ?? '');
  return copy;
}

describe('replayHar: input it refuses (HarInputError, exit 2 in the CLI)', () => {
  it.each([
    ['not JSON', '{"log": ', /^not JSON: /],
    ['no log', '{"entries": []}', /no "log" object/],
    [
      'another version',
      '{"log": {"version": "1.1", "entries": []}}',
      /log.version is "1.1", wanted "1.2"/,
    ],
    [
      'entries not an array',
      '{"log": {"version": "1.2", "entries": {}}}',
      /log.entries is not an array/,
    ],
  ])('%s', async (_name, text, message) => {
    await expect(replayHar(text)).rejects.toThrow(HarInputError);
    await expect(replayHar(text)).rejects.toThrow(message);
  });

  it('names the index of each malformed entry', async () => {
    const har = await recordedHar([{ url: '/lists' }, { url: '/content' }, { url: '/lists' }]);
    const broken = structuredClone(har) as unknown as {
      log: { entries: Record<string, unknown>[] };
    };
    delete broken.log.entries[1]?.response;
    (broken.log.entries[2] as { request: { url: string } }).request.url = 'lists';
    await expect(replayHar(broken)).rejects.toThrow(
      /2 entries are malformed:\nentry 1: response is missing\nentry 2: request.url is not an absolute URL \("lists"\)/,
    );
  });

  it('a HAR with no API entries, saying how many it had', async () => {
    const har = await recordedHar([{ url: '/lists' }]);
    const other = structuredClone(har);
    for (const entry of other.log.entries) entry.request.url = 'https://example.com/index.html';
    await expect(replayHar(other)).rejects.toThrow(
      'no API entries: none of the 1 entries is under /marketing/v1 or /marketing/beta.',
    );
  });
});

describe('replayHar against the fake itself', () => {
  it('matches every exchange of a session, ids paired by first appearance', async () => {
    const har = await recordedHar([
      { url: '/lists', accept: 'text/xml' },
      { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: 'n@example.com' } },
      { method: 'POST', url: '/customfields/Extra' },
      { method: 'DELETE', url: '/customfields/4' },
      { method: 'PUT', url: '/lists/2/contacts/4' },
      { method: 'PUT', url: '/lists/2/contacts/77' },
    ]);
    // The service numbered them otherwise: the replay pairs 40 with the fake's 4, 14 with 4.
    const renumbered = withAnswer(
      withAnswer(har, 1, (t) => t.replace('"contactId":4', '"contactId":40')),
      2,
      (t) => t.replace('"customFieldNameId":4', '"customFieldNameId":14'),
    );
    renumbered.log.entries[3]!.request.url = renumbered.log.entries[3]!.request.url.replace(
      '/4',
      '/14',
    );
    renumbered.log.entries[4]!.request.url = renumbered.log.entries[4]!.request.url.replace(
      '/4',
      '/40',
    );
    renumbered.log.entries[4]!.response.content.text =
      renumbered.log.entries[4]!.response.content.text!.replace('"contactId":4', '"contactId":40');
    for (const input of [har, renumbered]) {
      const report = await replayHar(input);
      expect(report.results.map((r) => [r.index, r.outcome, r.differences])).toEqual(
        report.results.map((r) => [r.index, 'match', []]),
      );
    }
  });

  it('flags an id paired with two different entities', async () => {
    const har = await recordedHar([
      { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: 'a1@example.com' } },
      { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: 'a2@example.com' } },
    ]);
    const same = withAnswer(har, 1, (t) => t.replace('"contactId":5', '"contactId":4'));
    const report = await replayHar(same);
    expect(report.results[1]?.differences).toEqual([
      'body.contactId: recorded 4, fake 2 (ids are paired by first appearance; this one was paired otherwise)',
    ]);
  });

  it('compares timestamps and thumbnail URLs by format, and says what is off', async () => {
    const har = await recordedHar([{ url: '/content' }, { url: '/content', accept: 'text/xml' }]);
    const moved = withAnswer(
      withAnswer(har, 0, (t) =>
        t.replace(/"created":"2026-01-05T10:00:00.000Z"/, '"created":"2020-07-01T00:00:00Z"'),
      ),
      1,
      (t) => t.replace(/<ThumbnailUrl>[^<]+</, '<ThumbnailUrl>https://cdn.example.com/t/1.png<'),
    );
    expect((await replayHar(moved)).drifted).toBe(0);
    const wrong = withAnswer(
      withAnswer(har, 0, (t) => t.replace(/"created":"[^"]+"/, '"created":"11/23/2026 10:00:00"')),
      1,
      (t) => t.replace(/<ThumbnailUrl>[^<]+</, '<ThumbnailUrl>thumb-1.png<'),
    );
    const report = await replayHar(wrong, { seed: smallSeed() });
    expect(report.results[0]?.differences[0]).toMatch(
      /^body\[0\]\.created: recorded "11\/23\/2026 10:00:00" \(not ISO 8601 UTC\), fake "2026-01-05T10:00:00.000Z"$/,
    );
    expect(report.results[1]?.differences[0]).toMatch(
      /^body <ArrayOfContent>\[0\]<Content>\[4\]<ThumbnailUrl>: recorded "thumb-1.png", fake "http:\/\/localhost:80\/thumbnails\/.+" \(compared as absolute http\(s\) URLs\)$/,
    );
  });

  it('compares content dates exactly when a given seed fixes them, and names why', async () => {
    const har = await recordedHar([{ url: '/content' }]);
    const moved = withAnswer(har, 0, (t) =>
      t.replace(/"created":"2026-01-05T10:00:00.000Z"/, '"created":"2020-07-01T00:00:00Z"'),
    );
    // Inferred state: the dates are the service's own, compared by format only.
    expect((await replayHar(moved)).drifted).toBe(0);
    const report = await replayHar(moved, { seed: smallSeed() });
    expect(report.results[0]?.differences).toEqual([
      'body[0].created: recorded "2020-07-01T00:00:00Z", fake "2026-01-05T10:00:00.000Z" (compared exactly: the given seed fixes content dates)',
    ]);
    // The same instant in another ISO spelling is the same date.
    const same = withAnswer(har, 0, (t) =>
      t.replace(/"created":"2026-01-05T10:00:00.000Z"/, '"created":"2026-01-05T10:00:00Z"'),
    );
    expect((await replayHar(same, { seed: smallSeed() })).drifted).toBe(0);
  });

  it('reads XML by elements and order, and reports a reordering', async () => {
    const har = await recordedHar([{ url: '/lists', accept: 'text/xml' }]);
    const swapped = withAnswer(har, 0, (t) =>
      t.replace('<Id>1</Id><Name>Newsletter</Name>', '<Name>Newsletter</Name><Id>1</Id>'),
    );
    const report = await replayHar(swapped);
    expect(report.results[0]?.differences).toEqual([
      'body <ArrayOfList>[0]<List>[0]: recorded element <Name>, fake <Id>',
      'body <ArrayOfList>[0]<List>[1]: recorded element <Id>, fake <Name>',
    ]);
  });

  it('reports a status, a Content-Type and a missing field in one line each', async () => {
    const har = await recordedHar([
      { url: '/lists' },
      { url: '/customfields' },
      { method: 'POST', url: '/contacts/unsubscribe/99' },
    ]);
    const drifted = structuredClone(har);
    drifted.log.entries[0]!.response.headers = [{ name: 'content-type', value: 'text/plain' }];
    drifted.log.entries[1]!.response.content.text =
      drifted.log.entries[1]!.response.content.text!.replace(/,?"customFieldType":"String"/, '');
    drifted.log.entries[2]!.response.status = 204;
    const report = await replayHar(drifted, { seed: smallSeed() });
    expect(report.results.map((r) => r.differences[0])).toEqual([
      'Content-Type: recorded text/plain, fake application/json',
      'body[0].customFieldType: not recorded, the fake sends "String"',
      expect.stringMatching(
        /^status: recorded 204, fake 404 \(fake's body: \{"message":"Contact 99 /,
      ),
    ]);
    const text = replayReportText(report, 'drifted.har');
    expect(text).toContain('DRIFT #2 POST /marketing/v1/contacts/unsubscribe/99');
    expect(text).toContain('0 match, 3 drift, 0 not comparable.');
    const junit = replayReportJunit(report);
    expect(junit).toContain('tests="3" failures="3" errors="0" skipped="0"');
    expect(junit).toContain(
      '<failure message="Content-Type: recorded text/plain, fake application/json">',
    );
  });

  it('replays a 401 with a wrong key, and every other request with the key it gave the tenant', async () => {
    const wrong = `Basic ${Buffer.from(`${SERVER_ID}:nope`).toString('base64')}`;
    const har = await recordedHar([{ url: '/lists', authorization: wrong }, { url: '/lists' }]);
    const report = await replayHar(har);
    expect(report.matched).toBe(2);
    // The report says why the first was sent with a wrong key; the second was sent as recorded.
    expect(report.results[0]?.notes).toEqual([
      'sent with a wrong key: the recording was answered 401, and a HAR holds no key to tell a wrong one from a right one',
    ]);
    expect(report.results[1]?.notes).toBeUndefined();
    expect(replayReportText(report, 'session.har', true)).toContain('note: sent with a wrong key');
  });

  it('names the id it sent for one the recording never paired', async () => {
    const har = await recordedHar([{ method: 'DELETE', url: '/customfields/77' }]);
    const report = await replayHar(har);
    expect(report.matched).toBe(1);
    expect(report.results[0]?.notes).toEqual([
      "sent field id 1900000000 for the recorded 77, which no answer of the recording paired with one of the fake's (an id the fake never gave)",
    ]);
  });
});

describe('replayHar: HARs from other tools', () => {
  it('reads base64 and gzip-compressed bodies, and ignores and counts entries outside the API', async () => {
    const har = await recordedHar([{ url: '/lists' }, { url: '/content', accept: 'text/xml' }]);
    const other = structuredClone(har);
    const lists = other.log.entries[0]!.response;
    lists.content.text = gzipSync(lists.content.text!).toString('base64');
    lists.content.encoding = 'base64';
    lists.headers.push({ name: 'content-encoding', value: 'gzip' });
    const content = other.log.entries[1]!.response;
    content.content.text = Buffer.from(content.content.text!).toString('base64');
    content.content.encoding = 'base64';
    const page = structuredClone(other.log.entries[0]!);
    page.request.url = 'https://app.example.com/settings';
    other.log.entries.unshift(page, structuredClone(page));
    const report = await replayHar(other);
    expect(report).toMatchObject({ entries: 4, ignored: 2, matched: 2, drifted: 0 });
    expect(report.results.map((r) => r.index)).toEqual([2, 3]);
  });
});

describe('replayHar: exchanges it cannot judge', () => {
  it('marks faults, gateway failures, cut-off bodies and unseen contact caps "not comparable" with the reason', async () => {
    const fake = await createFakeMarketingServer({ seed: smallSeed() });
    fake.faults.add({ kind: 'unavailable', times: 1 });
    for (const url of ['/lists', '/lists', '/content']) {
      await fake.inject({ url: `/marketing/v1${url}`, headers: { authorization: AUTH } });
    }
    fake.setMaxContacts(SERVER_ID, 3);
    await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: { authorization: AUTH },
      payload: { emailAddress: 'over@example.com' },
    });
    const har = fake.requestsHar();
    await fake.close();
    har.log.entries[2]!.response.content.text = '[{"id":1,"name":"W…[truncated: 9999 bytes in all]';
    const report = await replayHar(har);
    expect(report.results.map((r) => [r.outcome, r.reason])).toEqual([
      ['not comparable', 'an injected fault (unavailable) answered it'],
      ['match', undefined],
      ['not comparable', 'the recorded answer body is cut off'],
      [
        'not comparable',
        "the recording does not show the server's contact cap (give --seed with maxContacts)",
      ],
    ]);
    // With the seed, the cap is known: the 403 is compared (and the fake's cap of 10 lets it in).
    const seeded = await replayHar(har, { seed: smallSeed() });
    expect(seeded.results[3]?.differences[0]).toMatch(/^status: recorded 403, fake 200/);
  });
});
