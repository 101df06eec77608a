import { describe, expect, it } from 'vitest';
import { RECORD_FAILED } from '../../../src/http/pipeline/journal.js';
import type { Journal, JournalEntry } from '../../../src/journal/journal.js';
import { MAX_FILTER_STEPS } from '../../../src/journal/journal-budgets.js';
import {
  compileFilter,
  MAX_FILTER_DEPTH,
  MAX_FILTER_VALUES,
} from '../../../src/journal/journal-filter.js';
import { type Redactor, Redactor as RedactorClass } from '../../../src/redaction/redact.js';
import { AUTH, basic, call, SERVER_ID, useFake } from '../../helpers/fake.js';

interface Inside {
  core: { journal: Journal; redactor: Redactor };
}
const inside = (fake: object) => (fake as unknown as Inside).core;

const json = (response: { body: string }) => JSON.parse(response.body) as unknown;

describe('a key the redactor cannot URL-encode (lone surrogate) does not stop the journal', () => {
  const fake = useFake();

  it('is refused at entry (it could never be sent through Basic auth), and the journal goes on', async () => {
    const created = await fake.inject({
      method: 'POST',
      url: '/__admin/servers',
      headers: { 'content-type': 'application/json' },
      payload: '{"serverId":20004,"key":"\\ud800abcdef"}',
    });
    expect(created.statusCode).toBe(400);
    await call(fake, 'GET', 'lists?after=1');
    expect(fake.requests().map((entry) => entry.queryString)).toEqual(['after=1']);
  });

  it('the redactor never throws on such a secret, and still redacts its other forms', () => {
    // Keys are checked on entry; the redactor is defended anyway, since a throw there would
    // stop recording for every later request.
    const secret = '\ud800abcdef';
    const redactor = new RedactorClass({ revision: () => 1, secrets: () => [secret] }, 1024);
    // Header values arrive as bytes (latin1), so a lone surrogate can only reach the query and
    // the bodies, which are decoded text.
    const facts = {
      url: '/marketing/v1/lists?k=x',
      query: { k: secret },
      requestHeaders: { host: 'localhost' },
    };
    expect(redactor.record(facts).query).toEqual({ k: '<redacted>' });
    expect(redactor.body(`{"emailAddress":"${secret}"}`)).not.toContain(secret);
  });
});

describe('recording an exchange never fails silently', () => {
  const fake = useFake();

  it('a recording that throws keeps a minimal entry with a note; later requests are recorded whole', async () => {
    const { redactor } = inside(fake);
    const original = redactor.requestHeaders.bind(redactor);
    redactor.requestHeaders = () => {
      throw new Error('a bug');
    };
    let status = 0;
    try {
      const body = { emailAddress: 'ann@example.com' };
      status = (await call(fake, 'PUT', 'lists/999/contacts?secret=x', { body })).status;
      expect(status).toBe(404);
    } finally {
      redactor.requestHeaders = original;
    }
    await call(fake, 'GET', 'lists?after=1');
    const [failed, whole] = fake.requests();
    expect(failed).toMatchObject({
      method: 'PUT',
      status,
      note: RECORD_FAILED,
      operation: 'addToListByEmail',
      // The route's template: the path as sent could hold a key.
      path: expect.stringMatching(/^\/marketing\/v1\/lists\/:\w+\/contacts$/),
      queryString: '',
      serverId: SERVER_ID,
    });
    expect(failed!.request.headers).toEqual({});
    expect(whole).toMatchObject({ queryString: 'after=1', status: 200 });
    expect(whole!.note).toBeUndefined();
    const waited = await fake.waitForRequest({ operation: 'addToListByEmail' }, { timeoutMs: 0 });
    expect(waited.note).toBe(RECORD_FAILED);
  });
});

describe('a deeply nested JSON body (10,000 levels) is shown as text', () => {
  const fake = useFake();
  const depth = 10_000;
  const deep = `{"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;

  it('reads, HAR, filters and waits answer (no stack overflow, no 500)', async () => {
    const sent = await call(fake, 'PUT', 'lists/1/contacts', {
      body: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(sent.status).toBe(400);
    const read = await fake.inject({ url: '/__admin/requests' });
    expect(read.statusCode).toBe(200);
    const [entry] = json(read) as JournalEntry[];
    expect(entry!.request.body).toBe(deep);
    expect(entry!.request.bodyNote).toMatch(/nested deeper than 100 levels: shown as text/);
    expect((await fake.inject({ url: '/__admin/requests.har' })).statusCode).toBe(200);
    const filtered = await fake.inject({
      url: `/__admin/requests?body=${encodeURIComponent('{"x":[]}')}`,
    });
    expect(filtered.statusCode).toBe(200);
    expect(json(filtered)).toEqual([]);
    const waitBody = await fake.inject({
      url: `/__admin/requests/wait?timeoutMs=0&body=${encodeURIComponent('{"x":[]}')}`,
    });
    expect(waitBody.statusCode).toBe(404);
    expect((json(waitBody) as { message: string }).message).toContain(
      'a request body that is not whole JSON',
    );
    const waitMethod = await fake.inject({ url: '/__admin/requests/wait?method=PUT&timeoutMs=0' });
    expect(waitMethod.statusCode).toBe(200);
  });

  it('a body at the limit is still parsed', async () => {
    const nested = `{"x":${'['.repeat(99)}1${']'.repeat(99)}}`;
    await call(fake, 'PUT', 'lists/1/contacts', {
      body: nested,
      headers: { 'content-type': 'application/json' },
    });
    // Brackets inside strings (escaped quotes too) are not nesting.
    const text = JSON.stringify({ firstName: `"${'['.repeat(500)}\\"{{` });
    await call(fake, 'PUT', 'lists/1/contacts', {
      body: text,
      headers: { 'content-type': 'application/json' },
    });
    const [entry, inString] = fake.requests();
    expect(entry!.request.body).toEqual(JSON.parse(nested));
    expect(entry!.request.bodyNote).toBeUndefined();
    expect(inString!.request.body).toEqual(JSON.parse(text));
    expect(inString!.request.bodyNote).toBeUndefined();
  });
});

describe('body filters are bounded', () => {
  const fake = useFake();
  const entryWith = (body: unknown) => ({ request: { headers: {}, body } }) as JournalEntry;

  it('arrays of primitives match as before (type and -0 kept apart)', () => {
    const matches = (filter: unknown, body: unknown) =>
      compileFilter({ body: filter as unknown[] }).matches(entryWith(body));
    expect(matches({ x: [1, '1', null, true] }, { x: [true, null, '1', 1, 5] })).toBe(true);
    expect(matches({ x: ['2'] }, { x: [2] })).toBe(false);
    expect(matches({ x: [0] }, { x: [-0] })).toBe(false);
    expect(matches({ x: [-0] }, { x: [-0] })).toBe(true);
    expect(matches({ x: [{ a: 1 }, 3] }, { x: [3, { a: 1, b: 2 }] })).toBe(true);
  });

  it('a 5,000-item filter against a 30,000-item body finishes within a bound only a quadratic match misses', async () => {
    const { buildSync } = await import('esbuild');
    const built = buildSync({
      entryPoints: [new URL('../../../src/journal/journal-filter.ts', import.meta.url).pathname],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      write: false,
    });
    const { Worker } = await import('node:worker_threads');
    const script = `${built.outputFiles[0]!.text}
      const { parentPort } = require('node:worker_threads');
      const filter = module.exports.compileFilter({ body: { x: Array(5000).fill(2) } });
      const entry = { request: { headers: {}, body: { x: Array(30000).fill(1) } } };
      const hit = { request: { headers: {}, body: { x: [...Array(30000).fill(1), 2] } } };
      parentPort.postMessage([filter.matches(entry), filter.matches(hit), filter.differences(entry)]);`;
    const worker = new Worker(script, { eval: true });
    // The linear match takes milliseconds; the quadratic one took 14 s.
    const timeoutMs = 5000;
    const result = await new Promise<[boolean, boolean, string[]]>((resolve, reject) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        reject(new Error(`the match took over ${timeoutMs} ms`));
      }, timeoutMs);
      worker.once('message', (value: [boolean, boolean, string[]]) => {
        clearTimeout(timer);
        void worker.terminate();
        resolve(value);
      });
      worker.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    expect(result[0]).toBe(false);
    expect(result[1]).toBe(true);
    expect(result[2]).toHaveLength(5000);
  });

  it('objects against objects stop at the comparison cap, and say so', () => {
    const filter = compileFilter({ body: { x: Array.from({ length: 3000 }, () => ({ a: 1 })) } });
    const entry = entryWith({ x: Array.from({ length: 30_000 }, () => ({ a: 2 })) });
    expect(filter.matches(entry)).toBe(false);
    expect(filter.differences(entry)).toEqual([
      `the body filter needed more than ${MAX_FILTER_STEPS} comparisons on this body; give fewer array items`,
    ]);
    // Within the cap, the same kind of filter matches.
    const small = compileFilter({ body: { x: [{ a: 2 }] } });
    expect(small.matches(entry)).toBe(true);
  });

  it(`a filter of more than ${MAX_FILTER_VALUES} values, or deeper than ${MAX_FILTER_DEPTH} levels, gets 400`, async () => {
    const big = JSON.stringify({ x: Array(MAX_FILTER_VALUES).fill(1) });
    const refused = await fake.inject({ url: `/__admin/requests?body=${encodeURIComponent(big)}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(`body holds more than ${MAX_FILTER_VALUES} values`);
    const atLimit = JSON.stringify({ x: Array(MAX_FILTER_VALUES - 1).fill(1) });
    const accepted = await fake.inject({
      url: `/__admin/requests?body=${encodeURIComponent(atLimit)}`,
    });
    expect(accepted.statusCode).toBe(200);
    const deep = `${'{"a":'.repeat(MAX_FILTER_DEPTH + 1)}1${'}'.repeat(MAX_FILTER_DEPTH + 1)}`;
    const wait = await fake.inject({
      url: `/__admin/requests/wait?timeoutMs=0&body=${encodeURIComponent(deep)}`,
    });
    expect(wait.statusCode).toBe(400);
    expect(wait.body).toContain(`body nests deeper than ${MAX_FILTER_DEPTH} levels`);
  });
});

describe('answers given before the body step keep the request body', () => {
  const fake = useFake();
  const payload = '{"emailAddress":"ann@example.com"}';

  it('401 (wrong key) and 415 (refused content type) are recorded with the body', async () => {
    const wrong = await call(fake, 'PUT', 'lists/1/contacts', {
      auth: basic(SERVER_ID, 'wrong-key-0000'),
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(wrong.status).toBe(401);
    const refused = await call(fake, 'PUT', 'lists/1/contacts', {
      auth: AUTH,
      body: payload,
      headers: { 'content-type': 'text/plain' },
    });
    expect(refused.status).toBe(415);
    const [unauthorized, unsupported] = fake.requests();
    expect(unauthorized).toMatchObject({
      status: 401,
      request: { body: { emailAddress: 'ann@example.com' }, bodySize: payload.length },
    });
    expect(unsupported).toMatchObject({
      status: 415,
      request: { body: { emailAddress: 'ann@example.com' }, bodySize: payload.length },
    });
  });
});

describe('an entry keeps no parsed query: it is parsed from the URL on read', () => {
  const fake = useFake();

  it('2,500 parameters: none held as a property, all shown on read', async () => {
    const query = Array.from({ length: 2500 }, (_, index) => `p${index}=v${index}`).join('&');
    await call(fake, 'GET', `lists?${query}&p0=again`);
    const { ring } = inside(fake).journal as unknown as { ring: { queries: unknown[] } };
    expect(ring.queries).toEqual([undefined]);
    const [entry] = fake.requests();
    expect(Object.keys(entry!.query)).toHaveLength(2500);
    expect(entry!.query.p0).toEqual(['v0', 'again']);
    expect(entry!.query.p2499).toBe('v2499');
  });

  it('a query that holds a key is kept, redacted', async () => {
    await call(fake, 'GET', 'lists?a=key%2D1234&b=1');
    const { ring } = inside(fake).journal as unknown as { ring: { queries: unknown[] } };
    expect(ring.queries).toEqual([{ a: '<redacted>', b: '1' }]);
    expect(fake.requests()[0]!.query).toEqual({ a: '<redacted>', b: '1' });
  });
});
