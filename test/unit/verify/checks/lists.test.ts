import { describe, expect, it } from 'vitest';
import type { Check } from '../../../../src/verify/check-kit.js';
import { LIST_CHECKS } from '../../../../src/verify/checks/lists.js';
import { json, mismatchOf, scriptedTools, xml } from '../../../helpers/scripted-tools.js';

const check = (id: string): Check => {
  const found = LIST_CHECKS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

const xmlList = (id: string, serverId = 1234) =>
  `<List><Id>${id}</Id><Name>Main</Name><ServerId>${serverId}</ServerId></List>`;

describe('lists.json', () => {
  it('passes lists of the caller’s server, asking GET /lists in JSON', async () => {
    const { tools, calls } = scriptedTools(() =>
      json(200, [
        { id: 1, serverId: 1234, name: 'Main' },
        { id: 2, serverId: 1234, name: 'Other' },
      ]),
    );
    await expect(check('lists.json').expect(tools)).resolves.toBe(
      '200, 2 list(s) with id, serverId 1234, name',
    );
    expect(calls).toEqual([{ method: 'GET', path: '/lists', accept: 'application/json' }]);
  });

  it('fails a list of another server or with an id that is not an integer', async () => {
    for (const [list, field] of [
      [{ id: 1, serverId: 99, name: 'Main' }, 'serverId'],
      [{ id: '1', serverId: 1234, name: 'Main' }, 'id'],
      [{ id: 1, serverId: 1234, name: 5 }, 'name'],
    ] as const) {
      const { tools } = scriptedTools(() => json(200, [list]));
      const mismatch = await mismatchOf(check('lists.json').expect(tools));
      expect(mismatch.wanted).toContain(`list[0].${field}`);
    }
  });
});

describe('lists.xml', () => {
  it('passes ArrayOfList with List elements of Id, Name, ServerId, asking GET /lists in XML', async () => {
    const { tools, calls } = scriptedTools(() =>
      xml(200, `<ArrayOfList>${xmlList('1')}${xmlList('2')}</ArrayOfList>`),
    );
    await expect(check('lists.xml').expect(tools)).resolves.toBe(
      '200, ArrayOfList with 2 List element(s) of Id, Name, ServerId',
    );
    expect(calls).toEqual([{ method: 'GET', path: '/lists', accept: 'text/xml' }]);
  });

  it('fails another root, another item name, a wrong Id or another server', async () => {
    for (const [body, wanted] of [
      [`<Lists>${xmlList('1')}</Lists>`, 'root element ArrayOfList'],
      ['<ArrayOfList><Item><Id>1</Id></Item></ArrayOfList>', 'items named List'],
      [`<ArrayOfList>${xmlList('one')}</ArrayOfList>`, 'List 1 Id: an integer'],
      [`<ArrayOfList>${xmlList('1', 9)}</ArrayOfList>`, 'List 1 ServerId: "1234"'],
    ]) {
      const { tools } = scriptedTools(() => xml(200, body!));
      const mismatch = await mismatchOf(check('lists.xml').expect(tools));
      expect(mismatch.wanted).toBe(wanted);
    }
  });
});
