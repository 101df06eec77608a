import { describe, expect, it } from 'vitest';
import { FaultRuleError, InvalidOptionError } from '../../../src/domain/errors.js';
import { MAX_GLOB_LENGTH } from '../../../src/match/glob.js';
import { call, useFake } from '../../helpers/fake.js';

const fake = useFake();

const admin = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  call(fake, method, `/__admin${path}`, { body, auth: null });

const LONG_PATH = `/marketing/v1/${'a'.repeat(3000)}`;
const TOO_LONG_GLOB = `/${'*'.repeat(MAX_GLOB_LENGTH)}`;
const TOO_LONG_MESSAGE = `path is ${MAX_GLOB_LENGTH + 1} characters long; a glob may have at most ${MAX_GLOB_LENGTH}.`;

describe('path globs over the control API', () => {
  it('a many-star glob over a long recorded path answers, in every place a glob is read', async () => {
    await call(fake, 'GET', LONG_PATH);
    await call(fake, 'GET', 'lists');
    const glob = encodeURIComponent('/a*a*a*a*b');
    const matching = encodeURIComponent('/a*a*a*a*a');
    expect((await admin('GET', `/requests?path=${glob}`)).json()).toEqual([]);
    const found = (await admin('GET', `/requests?path=${matching}`)).json() as { path: string }[];
    expect(found.map((entry) => entry.path)).toEqual([LONG_PATH]);
    const har = (await admin('GET', `/requests.har?path=${matching}`)).json() as {
      log: { entries: unknown[] };
    };
    expect(har.log.entries).toHaveLength(1);
    const waited = await admin('GET', `/requests/wait?path=${glob}&timeoutMs=0`);
    expect(waited.status).toBe(404);
    expect((await admin('GET', `/requests/wait?path=${matching}&timeoutMs=0`)).status).toBe(200);
  });

  it('a fault rule with a many-star glob matches a long path and only it', async () => {
    fake.faults.add({ kind: 'status', status: 418, match: { path: '/a*a*a*a*a' } });
    expect((await call(fake, 'GET', LONG_PATH)).status).toBe(418);
    expect((await call(fake, 'GET', `/marketing/v1/${'a'.repeat(3000)}b`)).status).toBe(404);
  });

  it.each([['/requests'], ['/requests.har'], ['/requests/wait']])(
    'GET %s with a glob over the limit is a 400 that says so',
    async (route) => {
      const response = await admin('GET', `${route}?path=${encodeURIComponent(TOO_LONG_GLOB)}`);
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ message: `Bad filter: ${TOO_LONG_MESSAGE}` });
    },
  );

  it('a glob of exactly the limit is accepted', async () => {
    const glob = `/${'*'.repeat(MAX_GLOB_LENGTH - 1)}`;
    expect((await admin('GET', `/requests?path=${encodeURIComponent(glob)}`)).status).toBe(200);
    expect((await admin('POST', '/faults', { kind: 'reset', match: { path: glob } })).status).toBe(
      201,
    );
  });

  it('a fault rule with a glob over the limit is a 400 and changes nothing', async () => {
    fake.faults.add({ kind: 'delay', delayMs: 1 });
    const before = fake.faults.list();
    const response = await admin('POST', '/faults', {
      kind: 'reset',
      match: { path: TOO_LONG_GLOB },
    });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({ message: `Invalid fault rule: match.${TOO_LONG_MESSAGE}` });
    expect(fake.faults.list()).toEqual(before);
    expect((await call(fake, 'GET', 'lists')).status).toBe(200);
  });

  it('a glob that expands to too many alternatives is refused', async () => {
    const glob = encodeURIComponent('/{a,b}'.repeat(6));
    const response = await admin('GET', `/requests?path=${glob}`);
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      message: 'Bad filter: path expands to more than 32 alternatives with {...}.',
    });
  });
});

describe('path globs from TypeScript', () => {
  it('requests(), waitForRequest() and faults.add() throw the documented errors', async () => {
    expect(() => fake.requests({ path: TOO_LONG_GLOB })).toThrow(InvalidOptionError);
    expect(() => fake.requestsHar({ path: TOO_LONG_GLOB })).toThrow(TOO_LONG_MESSAGE);
    expect(() => fake.waitForRequest({ path: TOO_LONG_GLOB })).toThrow(InvalidOptionError);
    expect(() => fake.faults.add({ kind: 'reset', match: { path: TOO_LONG_GLOB } })).toThrow(
      FaultRuleError,
    );
    expect(fake.faults.list()).toEqual([]);
  });
});
