import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  type Har,
  HarInputError,
  replayHar,
  replayReportJunit,
  replayReportText,
} from '../../../src/index.js';
import { ReplayCannotRunError } from '../../../src/replay/replay.js';
import {
  basic,
  KEY,
  OTHER_KEY,
  OTHER_SERVER_ID,
  SERVER_ID,
  smallSeed,
} from '../../helpers/fake.js';

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

  it('reads a body under stacked codings (gzip four times, gzip then br): a match', async () => {
    const har = await recordedHar([{ url: '/lists' }, { url: '/customfields' }]);
    const other = structuredClone(har);
    const gzipped = other.log.entries[0]!.response;
    const four = [1, 2, 3, 4].reduce(
      (bytes) => gzipSync(bytes),
      Buffer.from(gzipped.content.text!),
    );
    gzipped.content.text = four.toString('base64');
    gzipped.content.encoding = 'base64';
    gzipped.headers.push({ name: 'content-encoding', value: 'gzip, gzip, gzip, gzip' });
    const stacked = other.log.entries[1]!.response;
    const brOfGzip = brotliCompressSync(gzipSync(stacked.content.text!));
    stacked.content.text = brOfGzip.toString('base64');
    stacked.content.encoding = 'base64';
    stacked.headers.push({ name: 'content-encoding', value: 'gzip, br' });
    const report = await replayHar(other);
    expect(report.results.map((r) => r.outcome)).toEqual(['match', 'match']);
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

describe('replayHar: what it sends', () => {
  it('an error quoting a stand-in id is compared with the recorded id in it', async () => {
    const har = await recordedHar([
      { method: 'PUT', url: '/lists/1/contacts/77' },
      { method: 'POST', url: '/contacts/unsubscribe/77' },
      { method: 'DELETE', url: '/customfields/77' },
    ]);
    expect(har.log.entries.map((entry) => entry.response.content.text)).toEqual([
      expect.stringContaining('77'),
      expect.stringContaining('77'),
      expect.stringContaining('77'),
    ]);
    const report = await replayHar(har, { seed: smallSeed() });
    expect(report.results.map((result) => [result.outcome, result.differences])).toEqual([
      ['match', []],
      ['match', []],
      ['match', []],
    ]);
    // An id that only contains the stand-in's digits is left alone.
    const longer = withAnswer(har, 1, (text) => text.replace('77', '1900000000'));
    const [, second] = (await replayHar(longer, { seed: smallSeed() })).results;
    expect(second?.differences[0]).toMatch(/recorded ".*1900000000.*", fake ".*77.*"/);
  });

  it('ids of a given seed are the same on both sides; of an inferred state, those the recording showed', async () => {
    const har = await recordedHar([
      { method: 'PUT', url: '/lists/2/contacts/1' },
      { method: 'DELETE', url: '/customfields/3' },
    ]);
    const seeded = await replayHar(har, { seed: smallSeed() });
    expect(seeded.results.map((result) => [result.outcome, result.notes])).toEqual([
      ['match', undefined],
      ['match', undefined],
    ]);
    expect(seeded.startingState).toBe('seed');
    const inferred = await replayHar(har);
    expect(inferred.startingState).toBe('inferred');
    expect(inferred.results.map((result) => result.outcome)).toEqual(['match', 'match']);
  });

  it('a request without credentials, or with a username that is no server id, is sent as recorded', async () => {
    const other = `Basic ${Buffer.from('abc:key').toString('base64')}`;
    const har = await recordedHar([
      { url: '/lists', authorization: '' },
      { url: '/lists', authorization: other },
    ]);
    expect(har.log.entries.map((entry) => entry.response.status)).toEqual([401, 401]);
    har.log.entries[0]!.request.headers = har.log.entries[0]!.request.headers.filter(
      (header) => header.name.toLowerCase() !== 'authorization',
    );
    const report = await replayHar(har, { seed: smallSeed() });
    expect(report.results.map((result) => [result.outcome, result.notes])).toEqual([
      ['match', undefined],
      [
        'match',
        [
          'sent with a wrong key: the recording was answered 401, and a HAR holds no key to tell a wrong one from a right one',
        ],
      ],
    ]);
  });

  it('the request body and its Content-Type, as recorded', async () => {
    const har = await recordedHar([
      {
        method: 'PUT',
        url: '/lists/1/contacts',
        accept: 'application/xml',
        payload: { emailAddress: 'new@example.com' },
      },
    ]);
    har.log.entries[0]!.request.headers.push({ name: 'Content-Type', value: 'application/json' });
    const report = await replayHar(har);
    expect(report.results[0]).toMatchObject({ outcome: 'match' });
    // Without its Content-Type, the fake answers otherwise.
    const bare = structuredClone(har);
    bare.log.entries[0]!.request.headers = bare.log.entries[0]!.request.headers.filter(
      (header) => header.name.toLowerCase() !== 'content-type',
    );
    expect((await replayHar(bare)).results[0]?.outcome).toBe('drift');
  });
});

describe('replayHar: answers that depend on what the recording never showed', () => {
  it('a gateway failure is not replayed; a 500 is', async () => {
    const har = await recordedHar([
      { url: '/lists' },
      { url: '/lists' },
      { url: '/lists' },
      { url: '/lists' },
    ]);
    for (const [index, status] of [502, 503, 504, 500].entries())
      har.log.entries[index]!.response.status = status;
    const report = await replayHar(har);
    expect(report.results.map((result) => result.reason ?? result.differences[0])).toEqual([
      "the service answered 502 (unavailable or a gateway's failure): it did not handle the request, and the fake emulates that only as a fault",
      expect.stringContaining('answered 503'),
      expect.stringContaining('answered 504'),
      expect.stringMatching(/^status: recorded 500, fake 200/),
    ]);
    expect(report).toMatchObject({ matched: 0, drifted: 1, notComparable: 3 });
  });

  it('a request body the recording cut off is not sent', async () => {
    const har = await recordedHar([
      { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: 'a@example.com' } },
    ]);
    har.log.entries[0]!.request.postData!.text =
      '{"emailAddress":"a@ex…[truncated: 99 bytes in all]';
    const [result] = (await replayHar(har)).results;
    expect(result).toMatchObject({
      outcome: 'not comparable',
      reason: 'the recorded request body is cut off: replaying it would send something else',
    });
  });

  it('a list never listed: an error about it is not comparable (inferred state); listed, it is', async () => {
    const har = await recordedHar([
      { method: 'PUT', url: '/lists/9/contacts', payload: { emailAddress: 'a@example.com' } },
    ]);
    expect(har.log.entries[0]!.response.status).toBe(404);
    const [result] = (await replayHar(har)).results;
    expect(result).toMatchObject({
      outcome: 'not comparable',
      reason: "the recording never lists the server's lists, so whether list 9 existed is unknown",
    });
    const listed = await recordedHar([
      { url: '/lists' },
      { method: 'PUT', url: '/lists/9/contacts', payload: { emailAddress: 'a@example.com' } },
    ]);
    expect((await replayHar(listed)).results[1]?.outcome).toBe('match');
    // A list the recording used successfully is known.
    const used = await recordedHar([
      { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: 'a@example.com' } },
      { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: 'not an address' } },
    ]);
    expect((await replayHar(used)).results.map((r) => r.outcome)).toEqual(['match', 'match']);
    // With a seed, everything is known.
    expect((await replayHar(har, { seed: smallSeed() })).results[0]?.outcome).toBe('match');
  });

  it('a field refused for the maximum: not comparable unless the recording listed the fields', async () => {
    const fields = Array.from({ length: 18 }, (_, i) => ({
      method: 'POST' as const,
      url: `/customfields/F${i}`,
    }));
    const har = await recordedHar(fields);
    expect(har.log.entries.at(-1)!.response.status).toBe(409);
    const full = structuredClone(har);
    full.log.entries = full.log.entries.slice(-1);
    const [result] = (await replayHar(full)).results;
    expect(result).toMatchObject({
      outcome: 'not comparable',
      reason: "the recording never lists the server's custom fields, so how many it had is unknown",
    });
    const listed = await recordedHar([{ url: '/customfields' }, ...fields]);
    expect((await replayHar(listed)).results.at(-1)?.outcome).toBe('match');
  });
});

describe('replayHar: a bad entry that quotes a key', () => {
  it("names the entry with the recording's keys taken out of the message and the stack", async () => {
    const har = await recordedHar([{ url: '/lists' }, { url: '/lists' }]);
    const bad = har.log.entries[1]!.request;
    // Not absolute: the message quotes it. The key is known from a header in clear (a browser's HAR).
    bad.url = `/marketing/v1/lists?key=${KEY}`;
    for (const header of har.log.entries[0]!.request.headers)
      if (header.name.toLowerCase() === 'authorization') header.value = AUTH;
    const error = await replayHar(har).then(
      () => expect.unreachable(),
      (rejected: unknown) => rejected as Error,
    );
    expect(error).toBeInstanceOf(HarInputError);
    expect(error.message).toContain('entry 1');
    expect(error.message).toContain('key=<redacted>');
    expect(error.message).not.toContain(KEY);
    expect(error.stack).toContain('key=<redacted>');
    expect(error.stack).not.toContain(KEY);
  });
});

describe('replayHar: answers that depend on state the recording never showed', () => {
  it('only a 409 to a field create that names the maximum waits on the fields being listed', async () => {
    // A 409 for a name that exists is the fake's to judge from what the recording made.
    const twice = await recordedHar([
      { method: 'POST', url: '/customfields/Twice' },
      { method: 'POST', url: '/customfields/Twice' },
    ]);
    expect(twice.log.entries[1]!.response.status).toBe(409);
    expect((await replayHar(twice)).results.map((r) => r.outcome)).toEqual(['match', 'match']);
    // "maximum number" in another status, or in another request's 409, is compared too.
    const other = withAnswer(
      await recordedHar([{ method: 'DELETE', url: '/customfields/99' }]),
      0,
      () => '{"message":"You have exceeded the maximum number of Custom Field Names allowed."}',
    );
    other.log.entries[0]!.response.status = 409;
    const [deleted] = (await replayHar(other)).results;
    expect(deleted).toMatchObject({ outcome: 'drift' });
    const created = withAnswer(
      await recordedHar([{ method: 'POST', url: '/customfields/New' }]),
      0,
      () => '{"message":"You have exceeded the maximum number of Custom Field Names allowed."}',
    );
    created.log.entries[0]!.response.status = 400;
    expect((await replayHar(created)).results[0]).toMatchObject({ outcome: 'drift' });
  });

  it('a success on a list the recording never listed is compared', async () => {
    const har = await recordedHar([
      { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: 'a@example.com' } },
    ]);
    expect(har.log.entries[0]!.response.status).toBe(200);
    expect((await replayHar(har)).results[0]?.outcome).toBe('match');
  });
});

describe('replayHar: the given seed', () => {
  it('a seed file, with the recorded servers it does not hold added', async () => {
    const har = await recordedHar([{ url: '/lists' }]);
    const report = await replayHar(har, { seed: { servers: [{ serverId: 9999 }] } });
    expect(report.results[0]?.differences[0]).toBe('body: recorded 2 items, fake 0');
  });

  it('refuses a seed without a servers array', async () => {
    const har = await recordedHar([{ url: '/lists' }]);
    await expect(replayHar(har, { seed: {} as never })).rejects.toThrow(
      'a seed needs a "servers" array',
    );
    for (const seed of [null, 5, {}]) {
      const failure = await replayHar(har, { seed: seed as never }).catch(
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ name: 'SeedError', path: 'servers' });
      expect((failure as Error).message).toContain('servers: a seed needs a "servers" array');
    }
  });
});

describe('replayHar: the edges of what it judges', () => {
  it('a given seed the fake refuses is a SeedError, not "could not run"', async () => {
    const har = await recordedHar([{ url: '/lists' }]);
    const bad = { servers: [{ serverId: SERVER_ID, contacts: [{ emailAddress: 'nope' }] }] };
    const failure = await replayHar(har, { seed: bad as never }).catch((error: unknown) => error);
    expect((failure as Error).name).toBe('SeedError');
    expect(new ReplayCannotRunError('x').name).toBe('ReplayCannotRunError');
  });

  it('a 403 other than the contact maximum is compared (inferred state)', async () => {
    const har = await recordedHar([{ url: '/lists' }]);
    har.log.entries[0]!.response.status = 403;
    expect((await replayHar(har)).results[0]?.differences[0]).toMatch(
      /^status: recorded 403, fake 200/,
    );
  });

  it('a request to a list without credentials is compared (no server to know anything of)', async () => {
    const har = await recordedHar([
      {
        method: 'PUT',
        url: '/lists/1/contacts',
        authorization: '',
        payload: { emailAddress: 'a@example.com' },
      },
    ]);
    har.log.entries[0]!.request.headers = har.log.entries[0]!.request.headers.filter(
      (header) => header.name.toLowerCase() !== 'authorization',
    );
    const other = await recordedHar([{ url: '/lists' }]);
    har.log.entries.push(other.log.entries[0]!);
    const report = await replayHar(har);
    expect(report.results.map((result) => result.outcome)).toEqual(['match', 'match']);
  });

  it('a server whose every exchange went unanswered still gets a starting state', async () => {
    const har = await recordedHar([
      { url: '/lists' },
      { url: '/lists', authorization: basic(OTHER_SERVER_ID, OTHER_KEY) },
    ]);
    (har.log.entries[1] as unknown as Record<string, unknown>)._fault = 'reset';
    const report = await replayHar(har);
    expect(report.results.map((result) => result.outcome)).toEqual(['match', 'not comparable']);
  });

  it('a reason that quotes a key of the recording does not show it', async () => {
    const key = 'sekrit-key-4242';
    const har = await recordedHar([{ url: '/lists' }]);
    // As a browser's HAR holds it: in clear.
    for (const header of har.log.entries[0]!.request.headers)
      if (header.name.toLowerCase() === 'authorization') header.value = basic(SERVER_ID, key);
    (har.log.entries[0] as unknown as Record<string, unknown>)._unreachable = `refused ${key}`;
    const [result] = (await replayHar(har)).results;
    expect(result?.outcome).toBe('not comparable');
    expect(result?.reason).toMatch(/^the recorder could not reach the upstream: refused /);
    expect(result?.reason).not.toContain(key);
  });
});
