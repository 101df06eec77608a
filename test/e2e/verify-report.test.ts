import { createServer } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  reportJunit,
  reportText,
  verifyPlan,
  verifyService,
} from '../../src/index.js';
import { DRIFTS, type Drift, type DriftProxy, startDriftProxy } from '../helpers/drift-proxy.js';
import { jsonAnswer } from '../helpers/drifts/kit.js';
import { KEY, makeFake, SERVER_ID } from '../helpers/fake.js';

let fake: FakeMarketingServer;
let proxy: DriftProxy;
let fakeUrl: string;
beforeAll(async () => {
  fake = await makeFake();
  ({ url: fakeUrl } = await fake.listen({ https: false }));
  proxy = await startDriftProxy({ upstream: fakeUrl });
});
afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const account = { serverId: SERVER_ID, key: KEY };
const drift = (id: string) => DRIFTS.find((entry) => entry.id === id)!;
const through = async (chosen: Drift | undefined, allowWrites = false, only?: string[]) => {
  fake.reset();
  proxy.use(chosen);
  return verifyService({
    baseUrl: proxy.baseUrl,
    ...account,
    allowWrites,
    ...(only ? { only } : {}),
  });
};
const fieldNames = () =>
  fake
    .server(SERVER_ID)
    .customFields()
    .map((field) => field.name);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('verify: could not run (exit 3), said once with what to fix', () => {
  it.each([
    [
      'an unreachable host',
      async () => `http://127.0.0.1:${await closedPort()}/marketing/v1`,
      KEY,
      /cannot reach 127\.0\.0\.1/,
      /check --base-url/,
    ],
    [
      'refused credentials',
      async () => `${fakeUrl}/marketing/v1`,
      `${KEY}x`,
      /answered 401: the credentials are refused/,
      /--server-id/,
    ],
    [
      'a base URL without /v1',
      async () => `${fakeUrl}/marketing`,
      KEY,
      /answered 404: that base URL is not the API/,
      /ending in the version segment/,
    ],
  ])('%s', async (_what, baseUrl, key, problem, fix) => {
    const report = await verifyService({
      baseUrl: await baseUrl(),
      serverId: SERVER_ID,
      key,
      allowWrites: true,
    });
    expect(report.exitCode).toBe(3);
    expect(report.results).toEqual([]);
    expect(report.couldNotRun?.problem).toMatch(problem);
    expect(report.couldNotRun?.fix).toMatch(fix);
    const text = reportText(report);
    expect(text.match(/COULD NOT RUN/g)).toHaveLength(1);
    expect(text).not.toContain(key === KEY ? '\u0000' : key);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(reportJunit(report));
    expect(junit.testsuites['@_errors']).toBe('1');
    expect(junit.testsuites['@_failures']).toBe('0');
    expect(junit.testsuites.testsuite.testcase.error['@_message']).toMatch(problem);
  });

  it('a web page where the API should be: not the API', async () => {
    const page: Drift = {
      ...drift('lists.json-name-missing'),
      answer: undefined,
      request: () => ({
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<html></html>',
      }),
    };
    const report = await through(page);
    expect(report.exitCode).toBe(3);
    expect(report.couldNotRun?.problem).toMatch(
      /a web page \(text\/html\): that base URL is not the API/,
    );
  });

  it('an untrusted certificate: pass --ca', async () => {
    await using secure = await makeFake();
    const { baseUrl, ca } = await secure.listen();
    const untrusted = await verifyService({ baseUrl, ...account });
    expect(untrusted.exitCode).toBe(3);
    expect(untrusted.couldNotRun?.problem).toMatch(/TLS connection to 127\.0\.0\.1:\d+ failed/);
    expect(untrusted.couldNotRun?.fix).toMatch(/--ca/);
    const trusted = await verifyService({ baseUrl, ...account, ca });
    expect(trusted.exitCode).toBe(0);
  });
});

describe('verify: an answer missing in the middle of a run is ERROR (could not run), not drift', () => {
  it('a reset connection on one path: that check is ERROR, exit 3, JUnit <error>', async () => {
    fake.reset();
    fake.faults.add({ kind: 'reset', match: { method: 'GET', path: '/content' } });
    try {
      const report = await verifyService({
        baseUrl: `${fakeUrl}/marketing/v1`,
        ...account,
        only: ['lists.json', 'content.json'],
      });
      expect(report.results.map((result) => [result.id, result.status])).toEqual([
        ['lists.json', 'pass'],
        ['content.json', 'error'],
      ]);
      expect(report.results[1]!.got).toMatch(/^cannot reach 127\.0\.0\.1:\d+: .*check --base-url/);
      expect(report.exitCode).toBe(3);
      expect(report.failed).toBe(0);
      const junit = new XMLParser({ ignoreAttributes: false }).parse(reportJunit(report));
      expect(junit.testsuites['@_errors']).toBe('1');
      expect(junit.testsuites.testsuite.testcase[1].error).toBeDefined();
    } finally {
      fake.reset();
    }
  });

  it('the service in maintenance (503): could not run, try later', async () => {
    fake.reset();
    fake.maintenance();
    try {
      const report = await verifyService({ baseUrl: `${fakeUrl}/marketing/v1`, ...account });
      expect(report.exitCode).toBe(3);
      expect(report.couldNotRun).toEqual({
        problem: `GET ${fakeUrl}/marketing/v1/lists answered 503: the service is unavailable`,
        fix: 'try again later (the description allows maintenance outages)',
      });
    } finally {
      fake.reset();
    }
  });
});

describe('verify: the report', () => {
  it('shows what came back and what was wanted; JUnit marks drift as <failure>', async () => {
    const report = await through(drift('errors.reserved-message-json'));
    expect(report.exitCode).toBe(1);
    const [result] = report.results.filter((r) => r.status === 'fail');
    expect(result).toMatchObject({
      id: 'errors.reserved-name',
      wanted: 'EmailAddress: message "That name is system reserved, please choose another."',
      got: 'EmailAddress: message "That name is reserved by the system, please choose another."',
      answer: {
        status: 409,
        contentType: 'application/json; charset=utf-8',
        body: '{"message":"That name is reserved by the system, please choose another."}',
      },
    });
    const text = reportText(report);
    expect(text).toContain('      answer:   409, Content-Type application/json; charset=utf-8');
    expect(text).toContain('      wanted:   EmailAddress: message "That name is system reserved');
    const junit = new XMLParser({ ignoreAttributes: false }).parse(reportJunit(report));
    expect(junit.testsuites['@_failures']).toBe('1');
    expect(junit.testsuites['@_errors']).toBe('0');
    const failing = junit.testsuites.testsuite.testcase.filter(
      (test: { failure?: unknown }) => test.failure,
    );
    expect(failing.map((test: Record<string, string>) => test['@_name'])).toEqual([
      'errors.reserved-name',
    ]);
  });

  it('cuts a long body to a few hundred characters', async () => {
    const long: Drift = {
      ...drift('lists.json-name-missing'),
      answer: (answer, request) =>
        request.apiPath === '/lists' && /json/.test(request.headers.accept ?? '')
          ? jsonAnswer(500, { message: 'x'.repeat(5000) })
          : answer,
    };
    const report = await through(long, false, ['lists.json']);
    const shown = report.results[0]!.answer!.body;
    expect(shown.length).toBeLessThan(400);
    expect(shown).toMatch(/\.\.\. \(5014 characters\)$/);
  });

  it('notes an additive difference instead of failing', async () => {
    const extra: Drift = {
      ...drift('lists.json-name-missing'),
      answer: (answer, request) =>
        request.apiPath === '/lists' && answer.headers['content-type']?.includes('json')
          ? { ...answer, body: answer.body.replace(/"name"/g, '"subscribers":3,"name"') }
          : answer,
    };
    const report = await through(extra, false, ['lists.json']);
    expect(report.results[0]).toMatchObject({
      status: 'pass',
      notes: [
        'list: the field subscribers, which the description does not list, in 2 of 2 item(s) (accepted)',
      ],
    });
  });

  it('an id past 2^53 - 1 fails the shape checks, and no check puts it in a path', async () => {
    const huge = '123456789012345678901234567890';
    const hugeIds: Drift = {
      ...drift('lists.json-name-missing'),
      answer: (answer, request) =>
        request.apiPath === '/lists' && request.method === 'GET'
          ? {
              ...answer,
              body: answer.body
                .replace(/"id":\d+/, `"id":${huge}`)
                .replace(/<Id>\d+</, `<Id>${huge}<`),
            }
          : answer,
    };
    const report = await through(hugeIds, false, [
      'lists.json',
      'lists.xml',
      'errors.missing-address',
      'errors.malformed-address',
    ]);
    expect(report.results.map((result) => [result.id, result.status])).toEqual([
      ['lists.json', 'fail'],
      ['lists.xml', 'fail'],
      ['errors.missing-address', 'skipped'],
      ['errors.malformed-address', 'skipped'],
    ]);
    expect(report.results[0]).toMatchObject({
      wanted: 'list[0].id: an integer id of at most 9007199254740991, which a client reads exactly',
      got: 'list[0].id is 1.2345678901234568e+29',
    });
    expect(report.results[1]!.got).toBe(`List 1 Id is "${huge}"`);
    expect(report.results[2]!.got).toMatch(/^the first list of GET \/lists has no usable id/);
    expect(report.results[2]!.requests).toEqual(['GET /lists (Accept: application/json)']);
  });

  it('cuts a note that quotes a long field name to a few hundred characters', async () => {
    const long = 'y'.repeat(100_000);
    const extra: Drift = {
      ...drift('lists.json-name-missing'),
      answer: (answer, request) =>
        request.apiPath === '/lists' && answer.headers['content-type']?.includes('json')
          ? { ...answer, body: answer.body.replace(/"name"/g, `"${long}":3,"name"`) }
          : answer,
    };
    const report = await through(extra, false, ['lists.json']);
    const [note] = report.results[0]!.notes;
    expect(report.results[0]!.notes).toHaveLength(1);
    expect(note!.length).toBeLessThan(400);
    expect(note).toMatch(/^list: the field yyy.*\.\.\. \(\d+ characters\)$/);
  });

  it('an account with nothing to check: every check that needs it skips saying why, none passes', async () => {
    await using empty = await createFakeMarketingServer({
      seed: { servers: [{ serverId: SERVER_ID, key: KEY }] },
    });
    const { baseUrl } = await empty.listen({ https: false });
    const report = await verifyService({ baseUrl, ...account });
    const skipped = report.results.filter((result) => result.status === 'skipped');
    expect(skipped.map((result) => result.id)).toEqual([
      'lists.json',
      'lists.xml',
      'customfields.json',
      'customfields.xml',
      'content.json',
      'content.xml',
      'content.timestamps',
      'stable.ids-and-dates',
      'errors.missing-address',
      'errors.malformed-address',
      'errors.unknown-contact',
      'errors.unknown-custom-field',
    ]);
    expect(skipped[0]!.got).toBe(
      'the account has nothing to check: GET /lists answered no item (add one to the account)',
    );
    expect(skipped[7]!.got).toBe(
      'the account has nothing to compare: GET /lists, /customfields and /content answered no item',
    );
    expect(reportText(report)).toContain('12 skipped');
    expect(report.passed).toBe(report.results.length - 12);
  });

  it('an account with lists only: the stable values are compared where there are some', async () => {
    await using listsOnly = await createFakeMarketingServer({
      seed: { servers: [{ serverId: SERVER_ID, key: KEY, lists: [{ id: 4, name: 'One' }] }] },
    });
    const { baseUrl } = await listsOnly.listen({ https: false });
    const report = await verifyService({ baseUrl, ...account, only: ['stable.ids-and-dates'] });
    expect(report.results[0]).toMatchObject({
      status: 'pass',
      got: '1 lists, 0 customfields, 0 content: the same on a second read',
    });
  });

  it('a collection that cannot be read: the stable values skip, naming the check that judges it', async () => {
    const rule = fake.faults.add({ kind: 'status', status: 500, match: { path: '/content' } });
    try {
      const report = await verifyService({
        baseUrl: `${fakeUrl}/marketing/v1`,
        ...account,
        only: ['stable.ids-and-dates'],
      });
      expect(report.results[0]).toMatchObject({
        status: 'skipped',
        got: 'cannot read GET /content: it answered 500 (the content.json check judges that answer)',
      });
    } finally {
      rule.remove();
    }
  });

  it('--only runs just those checks; unknown ids and writing ids without allowWrites are refused', async () => {
    const report = await through(undefined, false, ['content.xml', 'lists.json']);
    expect(report.results.map((result) => result.id)).toEqual(['lists.json', 'content.xml']);
    await expect(through(undefined, false, ['lists.jsn'])).rejects.toThrow(
      'unknown check id(s): lists.jsn',
    );
    await expect(through(undefined, false, ['writes.field-create'])).rejects.toThrow(
      'writes.field-create write(s) to the account: add --allow-writes',
    );
    expect(verifyPlan(true, ['writes.field-create']).map((check) => check.id)).toEqual([
      'writes.field-create',
    ]);
  });
});

describe('verify: writes clean up in every case, and the report lists exactly what is left', () => {
  it('a create answer that is not the expected JSON: the field is still found and deleted', async () => {
    const notJson: Drift = {
      ...drift('writes.field-create-type-missing'),
      answer: (answer, request) =>
        request.method === 'POST' &&
        answer.status === 200 &&
        request.apiPath.startsWith('/customfields/')
          ? { status: 200, headers: { 'content-type': 'text/plain' }, body: 'Created' }
          : answer,
    };
    const before = fieldNames();
    const report = await through(notJson, true, ['writes.field-create', 'writes.field-duplicate']);
    // The create answer is judged once (fail); the check that only needs a field skips, saying why.
    expect(report.results.map((result) => result.status)).toEqual(['fail', 'skipped']);
    expect(report.results[1]!.got).toMatch(
      /^could not create the field FmsVerify[0-9a-f]{12}U this check needs: 200 Created/,
    );
    expect(fieldNames()).toEqual(before);
    expect(report.leftBehind).toEqual([]);
  });

  it('a delete that answers 200 instead of 204 deletes: nothing is listed as left', async () => {
    const report = await through(drift('writes.field-delete-200'), true, [
      'writes.field-create',
      'writes.field-duplicate',
      'writes.field-limit',
    ]);
    expect(report.results.map((result) => result.status)).toEqual(['pass', 'pass', 'pass']);
    expect(report.leftBehind).toEqual([]);
    expect(fieldNames()).toEqual(['FirstName', 'LastName', 'City']);
  });

  it('a delete that fails: each field it made is listed, exactly', async () => {
    const refuse: Drift = {
      ...drift('writes.field-delete-200'),
      request: (request) =>
        request.method === 'DELETE' && request.apiPath.startsWith('/customfields/')
          ? jsonAnswer(500, { message: 'no' })
          : request,
      answer: undefined,
    };
    const report = await through(refuse, true, ['writes.field-create', 'writes.field-duplicate']);
    const left = report.leftBehind;
    expect(left).toHaveLength(2);
    const made = fieldNames().filter((name) => name.startsWith('FmsVerify'));
    expect(made).toHaveLength(2);
    for (const name of made)
      expect(left.some((what) => what.startsWith(`the custom field ${name} (id `))).toBe(true);
  });
});
