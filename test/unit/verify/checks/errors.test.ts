import { describe, expect, it } from 'vitest';
import { type Check, Mismatch } from '../../../../src/verify/check-kit.js';
import { AUTH_CHECKS, ERROR_CHECKS } from '../../../../src/verify/checks/errors.js';
import type { Answer, Call } from '../../../../src/verify/http-client.js';
import { json, mismatchOf, scriptedTools, xml } from '../../../helpers/scripted-tools.js';

const ADDRESS = 'fms-verify-0123456789ab@example.com';
const LISTS = json(200, [{ id: 7, name: 'Main', serverId: 1234 }]);

const check = (id: string): Check => {
  const found = [...AUTH_CHECKS, ...ERROR_CHECKS].find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

/** A service that lists list 7 and answers every other call with `status`, in the format asked. */
const refusing =
  (status: number, xmlStatus = status) =>
  (call: Call): Answer => {
    if (call.method === 'GET' && call.path === '/lists' && call.key === undefined) return LISTS;
    return call.accept === 'text/xml'
      ? xml(xmlStatus, '<Error><Message>refused</Message></Error>')
      : json(status, { message: 'refused' });
  };

describe('auth.wrong-key', () => {
  it('asks GET /lists with the key and "-wrong" after it, in JSON then XML, and wants 401', async () => {
    const { tools, calls } = scriptedTools(refusing(401));
    await expect(check('auth.wrong-key').expect(tools)).resolves.toBe(
      '401 for a wrong key, in JSON and XML',
    );
    expect(calls).toEqual([
      { method: 'GET', path: '/lists', key: 'scripted-key-wrong', accept: 'application/json' },
      { method: 'GET', path: '/lists', key: 'scripted-key-wrong', accept: 'text/xml' },
    ]);
  });

  it('fails an XML answer that is not 401, saying it is the XML one', async () => {
    const { tools } = scriptedTools(refusing(401, 403));
    const mismatch = await mismatchOf(check('auth.wrong-key').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['XML: status 401', 'XML: status 403']);
  });
});

// Each refusal: the exact requests it sends (a list id found first where it needs one), and the
// status it wants for both formats.
const REFUSALS: [string, number | '4xx', Omit<Call, 'accept'>, boolean][] = [
  ['errors.missing-address', 400, { method: 'PUT', path: '/lists/7/contacts', body: {} }, true],
  [
    'errors.malformed-address',
    400,
    { method: 'PUT', path: '/lists/7/contacts', body: { emailAddress: 'not an address' } },
    true,
  ],
  [
    'errors.unknown-list',
    404,
    { method: 'PUT', path: '/lists/999999999/contacts/999999999' },
    false,
  ],
  [
    'errors.unknown-list-by-email',
    404,
    { method: 'PUT', path: '/lists/999999999/contacts', body: { emailAddress: ADDRESS } },
    false,
  ],
  ['errors.unknown-contact', 404, { method: 'PUT', path: '/lists/7/contacts/999999999' }, true],
  [
    'errors.unknown-custom-field',
    '4xx',
    {
      method: 'PUT',
      path: '/lists/7/contacts',
      body: {
        emailAddress: ADDRESS,
        customFields: [{ Name: 'FmsVerifyNoSuch0123456789ab', Value: 'x' }],
      },
    },
    true,
  ],
  [
    'errors.unsubscribe-unknown',
    404,
    { method: 'POST', path: '/contacts/unsubscribe', body: { emailAddress: `unknown-${ADDRESS}` } },
    false,
  ],
  [
    'errors.unsubscribe-unknown-id',
    404,
    { method: 'POST', path: '/contacts/unsubscribe/999999999' },
    false,
  ],
  ['errors.unknown-field', 404, { method: 'DELETE', path: '/customfields/999999999' }, false],
];

describe('the refusals of section 7', () => {
  it('are the nine checks in this order', () => {
    expect(ERROR_CHECKS.map((entry) => entry.id)).toEqual(REFUSALS.map(([id]) => id));
  });

  it.each(REFUSALS)(
    '%s sends its request in JSON then XML and passes on %s',
    async (id, status, request, needsList) => {
      const { tools, calls, made } = scriptedTools(refusing(status === '4xx' ? 422 : status));
      await expect(check(id).expect(tools)).resolves.toBe(
        `${status === '4xx' ? 'refused' : status}, as described, in JSON and XML`,
      );
      expect(calls).toEqual([
        ...(needsList ? [{ method: 'GET', path: '/lists', accept: 'application/json' }] : []),
        { ...request, accept: 'application/json' },
        { ...request, accept: 'text/xml' },
      ]);
      expect(made).toEqual([]);
    },
  );

  it.each(REFUSALS)('%s fails a 2xx in JSON, before asking in XML', async (id, status, request) => {
    const { tools, calls } = scriptedTools(refusing(200));
    const mismatch = await mismatchOf(check(id).expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      status === '4xx' ? 'a refusal (4xx)' : `status ${status}`,
      'status 200',
    ]);
    expect(calls.at(-1)).toEqual({ ...request, accept: 'application/json' });
  });

  it('fails an XML answer with another status, saying it is the XML one', async () => {
    const { tools } = scriptedTools(refusing(404, 400));
    const mismatch = await mismatchOf(check('errors.unknown-field').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['XML: status 404', 'XML: status 400']);
  });

  it('takes any 4xx where the description gives no status, but no 5xx', async () => {
    for (const status of [400, 409, 499]) {
      const { tools } = scriptedTools(refusing(status));
      await expect(check('errors.unknown-custom-field').expect(tools)).resolves.toBe(
        'refused, as described, in JSON and XML',
      );
    }
    const { tools } = scriptedTools(refusing(500));
    const mismatch = await mismatchOf(check('errors.unknown-custom-field').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['a refusal (4xx)', 'status 500']);
  });

  it('fails a refusal in the other format than Accept chose', async () => {
    const { tools } = scriptedTools((call) =>
      call.method === 'GET' ? LISTS : json(400, { message: 'refused' }),
    );
    const mismatch = await mismatchOf(check('errors.missing-address').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'XML: an error answer with Content-Type text/xml, as Accept chose',
      'XML: Content-Type application/json; charset=utf-8',
    ]);
  });
});

describe('a refused contact request that a drifted service accepts', () => {
  it('is reported as a contact it may have made, with the request that made it', async () => {
    const { tools, made } = scriptedTools(refusing(200));
    await mismatchOf(check('errors.malformed-address').expect(tools));
    expect(made).toEqual([
      {
        what: 'the contact not an address, if PUT /lists/7/contacts made it: it was accepted though the description says it fails',
      },
    ]);
  });

  it.each([200, 201, 299])('counts a %s as accepted', async (status) => {
    const { tools, made } = scriptedTools(refusing(status));
    await mismatchOf(check('errors.unknown-list-by-email').expect(tools));
    expect(made.map((entry) => entry.what)).toEqual([
      `the contact ${ADDRESS}, if PUT /lists/999999999/contacts made it: it was accepted though the description says it fails`,
    ]);
  });

  it.each([199, 300, 400])('does not count a %s as accepted', async (status) => {
    const { tools, made } = scriptedTools(refusing(status));
    await expect(check('errors.unknown-list-by-email').expect(tools)).rejects.toThrow(Mismatch);
    expect(made).toEqual([]);
  });

  it('reports nothing made when the accepted request names no address', async () => {
    for (const id of ['errors.missing-address', 'errors.unknown-list', 'errors.unknown-field']) {
      const { tools, made } = scriptedTools(refusing(200));
      await mismatchOf(check(id).expect(tools));
      expect(made).toEqual([]);
    }
  });
});
