import { describe, expect, it } from 'vitest';
import type { Check } from '../../../../src/verify/check-kit.js';
import { FORMAT_CHECKS } from '../../../../src/verify/checks/format.js';
import type { Answer, Call } from '../../../../src/verify/http-client.js';
import { json, mismatchOf, scriptedTools, xml } from '../../../helpers/scripted-tools.js';

const check = (id: string): Check => {
  const found = FORMAT_CHECKS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

/** Answers every call in the format it asked for: a 409 for the field it tries to create. */
const negotiating = (call: Call): Answer => {
  const status = call.method === 'POST' ? 409 : 200;
  return call.accept === 'text/xml' ? xml(status, '<ArrayOfList/>') : json(status, []);
};

const GETS = ['/lists', '/customfields', '/content'];

describe('format.json-content-type and format.xml-content-type', () => {
  it.each([
    ['format.json-content-type', 'application/json'],
    ['format.xml-content-type', 'text/xml'],
  ] as const)(
    '%s asks three collections and a refused field creation with Accept: %s',
    async (id, accept) => {
      const { tools, calls, made } = scriptedTools(negotiating);
      await expect(check(id).expect(tools)).resolves.toBe(`4 answers with Content-Type ${accept}`);
      expect(calls).toEqual([
        ...GETS.map((path) => ({ method: 'GET', path, accept })),
        { method: 'POST', path: '/customfields/EmailAddress', accept },
      ]);
      expect(made).toEqual([]);
    },
  );

  it('fails the first answer in another format, naming the type it had', async () => {
    const { tools } = scriptedTools((call) =>
      call.path === '/customfields' ? json(200, []) : negotiating(call),
    );
    const mismatch = await mismatchOf(check('format.xml-content-type').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'Content-Type text/xml',
      'Content-Type application/json; charset=utf-8',
    ]);
  });

  it('fails an error answer in another format', async () => {
    const { tools } = scriptedTools((call) =>
      call.method === 'POST' ? xml(409, '<Error/>') : negotiating(call),
    );
    const mismatch = await mismatchOf(check('format.json-content-type').expect(tools));
    expect(mismatch.got).toBe('Content-Type text/xml; charset=utf-8');
  });

  it('says "(none)" for an answer without a Content-Type', async () => {
    const { tools } = scriptedTools((call) =>
      call.method === 'POST' ? { status: 409, contentType: '', body: '' } : negotiating(call),
    );
    const mismatch = await mismatchOf(check('format.json-content-type').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'Content-Type application/json',
      'Content-Type (none)',
    ]);
  });

  it('takes a type written in another case and with parameters', async () => {
    const { tools } = scriptedTools((call) => ({
      status: call.method === 'POST' ? 409 : 200,
      contentType: 'Text/XML ; charset=utf-8',
      body: '<ArrayOfList/>',
    }));
    await expect(check('format.xml-content-type').expect(tools)).resolves.toBe(
      '4 answers with Content-Type text/xml',
    );
  });
});
