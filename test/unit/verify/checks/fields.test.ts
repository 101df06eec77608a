import { describe, expect, it } from 'vitest';
import { type Check, Skip } from '../../../../src/verify/check-kit.js';
import { FIELD_CHECKS, FIELD_RULES } from '../../../../src/verify/checks/fields.js';
import { json, mismatchOf, scriptedTools, xml } from '../../../helpers/scripted-tools.js';

const check = (id: string): Check => {
  const found = FIELD_CHECKS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

const FIELD = { customFieldNameId: 3, name: 'Colour', serverId: 1234, customFieldType: 'String' };
const xmlField = (type = 'String', serverId = 1234) =>
  `<CustomField><CustomFieldNameId>3</CustomFieldNameId><CustomFieldType>${type}</CustomFieldType><Name>Colour</Name><ServerId>${serverId}</ServerId></CustomField>`;

describe('FIELD_RULES', () => {
  it('are the four fields of a Custom field, serverId the caller’s and the type "String"', () => {
    expect(FIELD_RULES(42)).toEqual({
      customFieldNameId: 'integer',
      name: 'string',
      serverId: { equals: 42 },
      customFieldType: { equals: 'String' },
    });
  });
});

describe('customfields.json', () => {
  it('passes an array of fields of the caller’s server, asking GET /customfields in JSON', async () => {
    const { tools, calls } = scriptedTools(() => json(200, [FIELD, { ...FIELD, name: 'Size' }]));
    await expect(check('customfields.json').expect(tools)).resolves.toBe(
      '200, 2 field(s), each customFieldType "String"',
    );
    expect(calls).toEqual([{ method: 'GET', path: '/customfields', accept: 'application/json' }]);
  });

  it('fails a field of another type or another server', async () => {
    for (const [drift, field] of [
      ['customFieldType', { ...FIELD, customFieldType: 'Number' }],
      ['serverId', { ...FIELD, serverId: 99 }],
    ] as const) {
      const { tools } = scriptedTools(() => json(200, [field]));
      const mismatch = await mismatchOf(check('customfields.json').expect(tools));
      expect(mismatch.wanted).toContain(`field[0].${drift}`);
    }
  });

  it('skips an account without fields', async () => {
    const { tools } = scriptedTools(() => json(200, []));
    await expect(check('customfields.json').expect(tools)).rejects.toThrow(Skip);
  });
});

describe('customfields.xml', () => {
  it('passes ArrayOfCustomField with CustomField elements, asking GET /customfields in XML', async () => {
    const { tools, calls } = scriptedTools(() =>
      xml(200, `<ArrayOfCustomField>${xmlField()}</ArrayOfCustomField>`),
    );
    await expect(check('customfields.xml').expect(tools)).resolves.toBe(
      '200, ArrayOfCustomField with 1 CustomField element(s)',
    );
    expect(calls).toEqual([{ method: 'GET', path: '/customfields', accept: 'text/xml' }]);
  });

  it('fails another root, another type or another server', async () => {
    for (const [body, wanted] of [
      [`<ArrayOfField>${xmlField()}</ArrayOfField>`, 'root element ArrayOfCustomField'],
      [
        `<ArrayOfCustomField>${xmlField('Number')}</ArrayOfCustomField>`,
        'CustomField 1 CustomFieldType: "String"',
      ],
      [
        `<ArrayOfCustomField>${xmlField('String', 9)}</ArrayOfCustomField>`,
        'CustomField 1 ServerId: "1234"',
      ],
    ]) {
      const { tools } = scriptedTools(() => xml(200, body!));
      const mismatch = await mismatchOf(check('customfields.xml').expect(tools));
      expect(mismatch.wanted).toBe(wanted);
    }
  });
});
