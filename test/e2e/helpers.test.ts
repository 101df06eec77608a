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

describe('fake-marketing-server/jest', () => {
  it('uses the runner globals, with the same lifecycle', async () => {
    const hooks: Record<string, (() => unknown)[]> = { beforeAll: [], afterEach: [], afterAll: [] };
    const globals = globalThis as Record<string, unknown>;
    const saved = {
      beforeAll: globals.beforeAll,
      afterEach: globals.afterEach,
      afterAll: globals.afterAll,
    };
    for (const name of Object.keys(hooks))
      globals[name] = (fn: () => unknown) => hooks[name]!.push(fn);
    try {
      const { useFakeMarketingServer: useWithJest } = await import('fake-marketing-server/jest');
      const jestFake = useWithJest({ seed: smallSeed(), listen: false });
      for (const fn of hooks.beforeAll!) await fn();
      await jestFake.inject({
        method: 'POST',
        url: '/marketing/v1/contacts/unsubscribe/1',
        headers: { authorization: AUTH },
      });
      expect(jestFake.server(1234).contact(1)?.status).toBe('Unsubscribed');
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
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(process.execPath, ['--test', file], (error, out) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out }),
      ),
    );
    expect(stdout).toMatch(/# pass 2/);
    expect(code).toBe(0);
  });
});
