import { describe, expect, it } from 'vitest';
import { type Check, Skip } from '../../../../src/verify/check-kit.js';
import { FIELD_WRITE_CHECKS } from '../../../../src/verify/checks/field-writes.js';
import type { Answer, Call } from '../../../../src/verify/http-client.js';
import { json, scriptedTools, xml } from '../../../helpers/scripted-tools.js';

const check = (id: string): Check => {
  const found = FIELD_WRITE_CHECKS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

const BASE = 'FmsVerify0123456789ab';
const EXCEEDED = 'You have exceeded the maximum number of Custom Field Names allowed.';
const empty = (status: number): Answer => ({ status, contentType: '', body: '' });
const field = (id: number, name: string) => ({
  customFieldNameId: id,
  name,
  serverId: 1234,
  customFieldType: 'String',
});
const nameOf = (call: Call) => decodeURIComponent(call.path.replace('/customfields/', ''));
const message409 = (call: Call, message: string) =>
  call.accept === 'text/xml'
    ? xml(409, `<Error><Message>${message}</Message></Error>`)
    : json(409, { message });
const sent = (calls: Call[]) =>
  calls.map((call) => `${call.method} ${call.path} ${call.accept ?? ''}`.trim());

/**
 * A service whose account holds `existing` fields; a new name is created with the next id (500 on),
 * a name already there answers the duplicate 409, a 21st field the limit's 409. `answer`
 * overrides any call it answers.
 */
function fieldService(
  existing: ReturnType<typeof field>[] = [],
  answer: (call: Call) => Answer | undefined = () => undefined,
) {
  const fields = [...existing];
  return (call: Call): Answer => {
    const given = answer(call);
    if (given) return given;
    if (call.method === 'GET' && call.path === '/customfields') return json(200, fields);
    if (call.method === 'POST') {
      const name = nameOf(call);
      if (fields.some((item) => item.name.toLowerCase() === name.toLowerCase()))
        return message409(call, `The field '${name}' can't be created because it already exists.`);
      if (fields.length >= 20) return message409(call, EXCEEDED);
      const made = field(500 + fields.length, name);
      fields.push(made);
      return json(200, made);
    }
    if (call.method === 'DELETE') {
      const id = Number(call.path.split('/').at(-1));
      const index = fields.findIndex((item) => item.customFieldNameId === id);
      if (index < 0)
        return call.accept === 'text/xml'
          ? xml(404, '<Error><Message>Not found</Message></Error>')
          : json(404, { message: 'Not found' });
      fields.splice(index, 1);
      return empty(204);
    }
    return empty(404);
  };
}

describe('writes.field-create', () => {
  it('creates the field, then finds it listed under its id and name', async () => {
    const { tools, calls } = scriptedTools(fieldService([field(1, 'Colour')]));
    await expect(check('writes.field-create').expect(tools)).resolves.toBe(
      `200 ${JSON.stringify(field(501, `${BASE}C`))}, then listed`,
    );
    expect(calls).toEqual([
      { method: 'POST', path: `/customfields/${BASE}C`, accept: 'application/json' },
      { method: 'GET', path: '/customfields', accept: 'application/json' },
    ]);
  });

  it('reads past an item of the list that is null', async () => {
    const { tools } = scriptedTools(
      fieldService([], (call) =>
        call.method === 'GET' ? json(200, [null, field(500, `${BASE}C`)]) : undefined,
      ),
    );
    await expect(check('writes.field-create').expect(tools)).resolves.toMatch(/then listed$/);
  });

  it.each([
    ['under another name', [field(500, 'Other')]],
    ['its name under another id', [field(499, `${BASE}C`)]],
    ['nothing', []],
    ['an object, not an array', { items: [field(500, `${BASE}C`)] }],
  ])('fails when the list shows %s', async (_, listed) => {
    const { tools } = scriptedTools(
      fieldService([], (call) => (call.method === 'GET' ? json(200, listed) : undefined)),
    );
    await expect(check('writes.field-create').expect(tools)).rejects.toMatchObject({
      wanted: `GET /customfields: the new field 500 ${BASE}C listed`,
      got: 'GET /customfields: not listed',
    });
  });

  it('fails when the created field is not the one asked for, naming the field', async () => {
    const { tools } = scriptedTools(
      fieldService([], (call) =>
        call.method === 'POST' ? json(200, field(500, 'Other')) : undefined,
      ),
    );
    await expect(check('writes.field-create').expect(tools)).rejects.toMatchObject({
      wanted: `field.name: "${BASE}C"`,
      got: 'field.name is "Other"',
    });
  });

  it('fails when the list is not JSON, naming the request', async () => {
    const { tools } = scriptedTools(
      fieldService([], (call) =>
        call.method === 'GET' ? { status: 200, contentType: 'text/html', body: '<p>' } : undefined,
      ),
    );
    await expect(check('writes.field-create').expect(tools)).rejects.toMatchObject({
      wanted: 'GET /customfields: a JSON body',
      got: 'GET /customfields: a body that is not JSON',
    });
  });
});

describe('writes.field-duplicate', () => {
  it('creates a field, then asks for it again in JSON and XML and gets the exact 409s', async () => {
    const { tools, calls } = scriptedTools(fieldService());
    await expect(check('writes.field-duplicate').expect(tools)).resolves.toBe(
      '409 with the exact message, in JSON and XML',
    );
    expect(sent(calls)).toEqual([
      `POST /customfields/${BASE}U application/json`,
      `POST /customfields/${BASE}U application/json`,
      `POST /customfields/${BASE}U text/xml`,
    ]);
  });

  it('skips when the field cannot be created, showing the first 120 characters of the answer', async () => {
    const body = `{"message":"${'y'.repeat(200)}"}`;
    const { tools } = scriptedTools(
      fieldService([], () => ({ status: 500, contentType: 'application/json', body })),
    );
    await expect(check('writes.field-duplicate').expect(tools)).rejects.toThrow(
      new Skip(
        `could not create the field ${BASE}U this check needs: 500 ${body.slice(0, 120)} (writes.field-create judges that answer)`,
      ),
    );
  });

  it.each([
    ['a 300, even with an id', json(300, field(500, `${BASE}U`))],
    ['a success that is not JSON', { status: 200, contentType: 'text/plain', body: 'created' }],
  ])('skips when the create answers %s', async (_, created) => {
    const { tools } = scriptedTools(
      fieldService([], (call) => (call.method === 'POST' ? created : undefined)),
    );
    await expect(check('writes.field-duplicate').expect(tools)).rejects.toThrow(
      new Skip(
        `could not create the field ${BASE}U this check needs: ${created.status} ${created.body} (writes.field-create judges that answer)`,
      ),
    );
  });

  it('skips when the created field has no integer id', async () => {
    const { tools } = scriptedTools(
      fieldService([], (call) =>
        call.method === 'POST'
          ? json(200, { ...field(0, `${BASE}U`), customFieldNameId: 'x' })
          : undefined,
      ),
    );
    await expect(check('writes.field-duplicate').expect(tools)).rejects.toBeInstanceOf(Skip);
  });

  it('fails when the XML 409 carries another message, labelled XML', async () => {
    const { tools } = scriptedTools(
      fieldService([], (call) =>
        call.accept === 'text/xml' && call.method === 'POST'
          ? message409(call, 'exists')
          : undefined,
      ),
    );
    await expect(check('writes.field-duplicate').expect(tools)).rejects.toMatchObject({
      wanted: `XML: a Message element with the text "The field '${BASE}U' can't be created because it already exists."`,
      got: 'XML: Message "exists"',
    });
  });
});

describe('writes.field-delete', () => {
  it('deletes the field, then deletes it again in JSON and XML for 404s', async () => {
    const { tools, calls } = scriptedTools(fieldService());
    await expect(check('writes.field-delete').expect(tools)).resolves.toBe(
      '204, then 404 in JSON and XML',
    );
    expect(sent(calls)).toEqual([
      `POST /customfields/${BASE}D application/json`,
      'GET /customfields application/json',
      'DELETE /customfields/500',
      'DELETE /customfields/500 application/json',
      'DELETE /customfields/500 text/xml',
    ]);
  });

  it('fails when deleting again answers in JSON for XML, labelled', async () => {
    const { tools } = scriptedTools(
      fieldService([], (call) =>
        call.method === 'DELETE' && call.accept === 'text/xml' ? json(404, {}) : undefined,
      ),
    );
    await expect(check('writes.field-delete').expect(tools)).rejects.toMatchObject({
      wanted: 'again: XML: an error answer with Content-Type text/xml, as Accept chose',
    });
  });
});

describe('writes.field-delete, by an id it cannot confirm', () => {
  it.each([
    [
      "another field's id",
      [],
      (call: Call) =>
        call.method === 'GET'
          ? json(200, [field(1, 'FirstName'), field(501, `${BASE}D`)])
          : call.method === 'POST'
            ? json(200, field(1, nameOf(call)))
            : undefined,
      'it lists id 501',
    ],
    [
      'an id the list does not hold under its name',
      [],
      (call: Call) =>
        call.method === 'GET'
          ? json(200, [field(1, 'FirstName')])
          : call.method === 'POST'
            ? json(200, field(1, nameOf(call)))
            : undefined,
      'the name is not listed',
    ],
    [
      'a list it cannot read',
      [],
      (call: Call) => (call.method === 'GET' ? json(500, {}) : undefined),
      'the list or its id cannot be read',
    ],
  ])('skips on %s, deleting nothing', async (_, existing, answer, why) => {
    const { tools, calls } = scriptedTools(fieldService(existing, answer));
    const error = await check('writes.field-delete')
      .expect(tools)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Skip);
    expect((error as Skip).message).toContain(`under the name ${BASE}D (${why})`);
    expect((error as Skip).message).toContain('verify deletes only a field it can confirm it made');
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });
});

describe('writes.field-name-50', () => {
  it('creates a name padded to 50 characters', async () => {
    const { tools, calls } = scriptedTools(fieldService());
    await expect(check('writes.field-name-50').expect(tools)).resolves.toBe('200: created');
    expect(nameOf(calls[0]!)).toBe(BASE.padEnd(50, 'x'));
    expect(nameOf(calls[0]!)).toHaveLength(50);
  });
});

describe('writes.field-name-1', () => {
  it('lists the fields, then creates the first letter no field is named', async () => {
    const { tools, calls } = scriptedTools(fieldService());
    await expect(check('writes.field-name-1').expect(tools)).resolves.toBe('200: "Q" created');
    expect(calls).toEqual([
      { method: 'GET', path: '/customfields', accept: 'application/json' },
      { method: 'POST', path: '/customfields/Q', accept: 'application/json' },
    ]);
  });

  it('reads past a listed field that is null', async () => {
    const { tools } = scriptedTools(
      fieldService([], (call) =>
        call.method === 'GET' ? json(200, [null, field(1, 'Q')]) : undefined,
      ),
    );
    await expect(check('writes.field-name-1').expect(tools)).resolves.toBe('200: "Z" created');
  });

  it('passes over letters taken, in either case', async () => {
    const { tools } = scriptedTools(fieldService([field(1, 'Q'), field(2, 'z'), field(3, 'x1')]));
    await expect(check('writes.field-name-1').expect(tools)).resolves.toBe('200: "X" created');
  });

  it('skips when every letter it tries is taken', async () => {
    const letters = 'QZXJKVWYFGPBUHMNLCDRSTAEOI';
    const { tools, calls } = scriptedTools(
      fieldService([...letters].map((letter, index) => field(index + 1, letter))),
    );
    await expect(check('writes.field-name-1').expect(tools)).rejects.toThrow(
      new Skip(`every one-character name this check tries (${letters}) is a field already`),
    );
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['a status other than 200', json(500, [])],
    ['a body that is no array', json(200, { fields: [] })],
    ['a body that is not JSON', { status: 200, contentType: 'text/plain', body: 'fields' }],
  ])('skips when GET /customfields answers %s', async (_, listed) => {
    const { tools, calls } = scriptedTools(
      fieldService([], (call) => (call.method === 'GET' ? listed : undefined)),
    );
    await expect(check('writes.field-name-1').expect(tools)).rejects.toThrow(
      new Skip(
        `cannot find a free one-character name: GET /customfields answered ${listed.status} (customfields.json judges it)`,
      ),
    );
    expect(calls).toHaveLength(1);
  });

  it('fails when the one-letter name is refused, naming it', async () => {
    const { tools } = scriptedTools(
      fieldService([], (call) => (call.method === 'POST' ? json(400, {}) : undefined)),
    );
    await expect(check('writes.field-name-1').expect(tools)).rejects.toMatchObject({
      wanted: 'the name "Q": status a 2xx success',
      got: 'the name "Q": status 400',
    });
  });
});

describe('writes.field-limit', () => {
  const existing = Array.from({ length: 17 }, (_, index) => field(index + 1, `F${index}`));

  it('fills the account up to 20 fields, then gets the limit 409 in JSON and XML', async () => {
    const { tools, calls } = scriptedTools(fieldService(existing));
    await expect(check('writes.field-limit').expect(tools)).resolves.toBe(
      'fields up to 20 created; field 21: 409 with the exact message, in JSON and XML',
    );
    expect(sent(calls)).toEqual([
      'GET /customfields application/json',
      `POST /customfields/${BASE}L17 application/json`,
      `POST /customfields/${BASE}L18 application/json`,
      `POST /customfields/${BASE}L19 application/json`,
      `POST /customfields/${BASE}L20 application/json`,
      `POST /customfields/${BASE}L20 text/xml`,
    ]);
  });

  it('fails when the 409 past the limit has another message', async () => {
    const { tools } = scriptedTools(
      fieldService(existing, (call) =>
        call.path.endsWith('L20') ? message409(call, 'Too many fields') : undefined,
      ),
    );
    await expect(check('writes.field-limit').expect(tools)).rejects.toMatchObject({
      wanted: `message ${JSON.stringify(EXCEEDED)}`,
      got: 'message "Too many fields"',
    });
  });

  it.each([199, 300, 409])('fails when a field below the limit is answered %i', async (status) => {
    const { tools } = scriptedTools(
      fieldService(existing, (call) =>
        call.path.endsWith('L18') ? { ...json(status, {}) } : undefined,
      ),
    );
    await expect(check('writes.field-limit').expect(tools)).rejects.toMatchObject({
      wanted: 'field 19 of 20 created (the limit is 20 custom fields per server)',
      got: `field 19 refused: status ${status}`,
    });
  });

  it('skips when the fields cannot be counted', async () => {
    const { tools } = scriptedTools(
      fieldService(existing, (call) => (call.method === 'GET' ? json(503, {}) : undefined)),
    );
    await expect(check('writes.field-limit').expect(tools)).rejects.toThrow(
      new Skip(
        'cannot count the fields: GET /customfields answered 503 (customfields.json judges it)',
      ),
    );
  });
});
