import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StateError } from 'fake-marketing-server';
import { describe, expect, it } from 'vitest';
import { useFakeMarketingServer } from '../../src/testing/vitest.js';
import { AUTH, smallSeed } from '../helpers/fake.js';
import { send } from '../helpers/request.js';

const fake = useFakeMarketingServer({ seed: smallSeed(), listen: { https: false } });
let early: unknown;
try {
  fake.exportState();
} catch (error) {
  early = error;
}

describe('fake-marketing-server/vitest', () => {
  it('is not usable before beforeAll, with an error that says why', () => {
    expect(early).toBeInstanceOf(StateError);
    expect(String(early)).toContain('created in beforeAll');
  });

  it('is listening in the tests', async () => {
    const response = await send(`${fake.baseUrl}/lists`, { headers: { authorization: AUTH } });
    expect(response.status).toBe(200);
    await send(`${fake.baseUrl}/lists/1/contacts`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ emailAddress: 'added@example.com' }),
    });
    expect(fake.server(1234).contacts()).toHaveLength(4);
  });

  it('was reset after the previous test', () => {
    expect(fake.server(1234).contacts()).toHaveLength(3);
    expect(fake.requests()).toEqual([]);
  });
});

describe('matchers: expect(fake).toHaveReceivedRequest', () => {
  const addDee = () =>
    send(`${fake.baseUrl}/lists/1/contacts`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({
        EmailAddress: 'dee@example.com',
        CustomFields: [{ Name: 'City', Value: 'Oslo' }],
      }),
    });

  it('passes on a matching request, with .not and Times', async () => {
    expect(fake).not.toHaveReceivedRequest({ operation: 'addToListByEmail' });
    await addDee();
    await addDee();
    expect(fake).toHaveReceivedRequest({
      operation: 'addToListByEmail',
      body: { emailAddress: 'dee@example.com' },
    });
    expect(fake).toHaveReceivedRequest({
      body: { customFields: [{ name: 'City', value: 'Oslo' }] },
    });
    expect(fake).toHaveReceivedRequestTimes({ method: 'PUT', status: '2xx' }, 2);
    expect(fake).not.toHaveReceivedRequestTimes({ method: 'PUT' }, 1);
  });

  it('fails with the nearest recorded requests and a short body diff', async () => {
    await addDee();
    expect(() =>
      expect(fake).toHaveReceivedRequest({
        method: 'PUT',
        body: { emailAddress: 'ann@example.com' },
      }),
    ).toThrow(
      /^expected the fake to have received a request matching \{"method":"PUT","body":\{"emailAddress":"ann@example.com"\}\}, but it received 0 matching\.\nClosest of the 1 recorded:\n {2}#\d+ PUT \/marketing\/v1\/lists\/1\/contacts -> 200 \(addToListByEmail\): body\.emailAddress is "dee@example\.com" \(wanted "ann@example\.com"\)$/,
    );

    expect(() => expect(fake).toHaveReceivedRequestTimes({ method: 'PUT' }, 2)).toThrow(
      /received 1 matching\.\nMatching: #\d+ PUT \/marketing\/v1\/lists\/1\/contacts -> 200/,
    );
    expect(() => expect(fake).not.toHaveReceivedRequest({ method: 'PUT' })).toThrow(
      /but it did: #\d+/,
    );
  });

  it('says what is wrong with a bad filter or a value that is not a fake', () => {
    expect(() => expect(fake).toHaveReceivedRequest({ status: 'teapot' })).toThrow(
      /Bad filter: status/,
    );
    expect(() => expect({}).toHaveReceivedRequest({})).toThrow(
      /expected a fake-marketing-server handle/,
    );
  });
});

describe('fake-marketing-server/jest', () => {
  it('uses the runner globals, with the same lifecycle', async () => {
    const hooks: Record<string, (() => unknown)[]> = { beforeAll: [], afterEach: [], afterAll: [] };
    const globals = globalThis as Record<string, unknown>;
    const saved = {
      beforeAll: globals.beforeAll,
      afterEach: globals.afterEach,
      afterAll: globals.afterAll,
      expect: globals.expect,
    };
    for (const name of Object.keys(hooks))
      globals[name] = (fn: () => unknown) => hooks[name]!.push(fn);
    try {
      const { useFakeMarketingServer: useWithJest, fakeMatchers } = await import(
        'fake-marketing-server/jest'
      );
      const extended: unknown[] = [];
      globals.expect = { extend: (matchers: unknown) => extended.push(matchers) };
      const jestFake = useWithJest({ seed: smallSeed(), listen: false });
      expect(extended).toEqual([fakeMatchers]);
      for (const fn of hooks.beforeAll!) await fn();
      await jestFake.inject({
        method: 'POST',
        url: '/marketing/v1/contacts/unsubscribe/1',
        headers: { authorization: AUTH },
      });
      expect(jestFake.server(1234).contact(1)?.status).toBe('Unsubscribed');
      expect(
        fakeMatchers.toHaveReceivedRequest(jestFake, { operation: 'unsubscribeById' }).pass,
      ).toBe(true);
      const miss = fakeMatchers.toHaveReceivedRequestTimes(jestFake, { operation: 'getLists' }, 1);
      expect(miss.pass).toBe(false);
      expect(miss.message()).toContain('#1 POST /marketing/v1/contacts/unsubscribe/1 -> 200');
      for (const fn of hooks.afterEach!) await fn();
      expect(jestFake.server(1234).contact(1)?.status).toBe('Active');
      for (const fn of hooks.afterAll!) await fn();
      expect(() => jestFake.url).toThrow(StateError);
    } finally {
      Object.assign(globals, saved);
    }
  });

  it('says what is wrong outside a jest file', async () => {
    const { useFakeMarketingServer: useWithJest } = await import('fake-marketing-server/jest');
    const globals = globalThis as Record<string, unknown>;
    const saved = globals.beforeAll;
    globals.beforeAll = undefined;
    try {
      expect(() => useWithJest()).toThrow('inside a jest test file');
    } finally {
      globals.beforeAll = saved;
    }
  });
});

describe('fake-marketing-server/node-test', () => {
  it('runs a node:test file with the same lifecycle', async () => {
    const file = fileURLToPath(new URL('../fixtures/node-test-helper.mjs', import.meta.url));
    // The TAP reporter named: it is the default into a pipe up to Node 22 only (Node 23 made
    // `spec` the default everywhere, which prints "ℹ pass 2" instead of "# pass 2").
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(process.execPath, ['--test', '--test-reporter=tap', file], (error, out) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out }),
      ),
    );
    expect(stdout).toMatch(/# pass 2/);
    expect(code).toBe(0);
  });
});
