import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/domain/store.js';
import { smallSeed } from '../../helpers/fake.js';

const schema = JSON.parse(
  readFileSync(new URL('../../../seed.schema.json', import.meta.url), 'utf8'),
);
const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/default.json', import.meta.url), 'utf8'),
);
const ajv = new Ajv2020({ allErrors: true, strict: true });
(addFormats as unknown as (target: Ajv2020) => void)(ajv);
const validate = ajv.compile(schema);

// The shipped JSON Schema is what editors check fixture files with: it must agree with the
// loader on everything a schema can express.
describe('seed.schema.json', () => {
  it.each([
    ['the default fixture', fixture],
    ['the small test seed', smallSeed()],
    [
      'ids at the bound, and counters one past it',
      {
        servers: [
          {
            serverId: 1234,
            lists: [{ id: 2 ** 31 - 1, name: 'L' }],
            nextIds: { list: 2 ** 31, contact: 2 ** 31 },
          },
        ],
      },
    ],
    [
      'an export of the default fixture',
      (() => {
        const store = new Store({ defaultMaxContacts: 10_000, now: () => 0 });
        store.seed(fixture);
        return store.exportState();
      })(),
    ],
  ])('accepts %s', (_, seed) => {
    expect(validate(seed), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    [{}],
    [{ servers: [{ serverId: 12 }] }],
    [{ servers: [{ serverId: 1234, extra: true }] }],
    [{ servers: [{ serverId: 1234, customFields: [{ name: 'ID' }] }] }],
    [{ servers: [{ serverId: 1234, customFields: [{ name: '<b>' }] }] }],
    [{ servers: [{ serverId: 1234, customFields: [{ name: 'x'.repeat(51) }] }] }],
    [{ servers: [{ serverId: 1234, contacts: [{ emailAddress: 'nope' }] }] }],
    [{ servers: [{ serverId: 1234, contacts: [{ emailAddress: 'a@b.co', status: 'Gone' }] }] }],
    [{ servers: [{ serverId: 1234, content: [{ name: 'x', created: 'yesterday' }] }] }],
    [{ servers: [{ serverId: 1234, lists: [{ id: 2 ** 31, name: 'L' }] }] }],
    [{ servers: [{ serverId: 1234, contacts: [{ contactId: 2 ** 31, emailAddress: 'a@b.co' }] }] }],
    [{ servers: [{ serverId: 1234, nextIds: { contact: 2 ** 31 + 1 } }] }],
  ])('rejects %j, as the loader does', (seed) => {
    expect(validate(seed)).toBe(false);
    const store = new Store({ defaultMaxContacts: 10_000, now: () => 0 });
    expect(() => store.seed(seed)).toThrow();
  });
});
