import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../../src/replay/har-input.js';
import { inferServers } from '../../../src/replay/infer-seed.js';

// The starting state replay infers from what a recording shows, per server.

const AUTH = 'Basic 1234:<redacted>';
let index = 0;

interface Step {
  method?: string;
  path: string;
  status?: number;
  answer?: unknown;
  request?: unknown;
  authorization?: string;
  noAnswer?: string;
  contentType?: string;
}

function exchange(step: Step): RecordedExchange {
  const answer =
    step.answer === undefined
      ? undefined
      : typeof step.answer === 'string'
        ? step.answer
        : JSON.stringify(step.answer);
  return {
    index: index++,
    method: step.method ?? 'GET',
    version: 'v1',
    path: step.path,
    search: '',
    headers: { authorization: step.authorization ?? AUTH },
    body: step.request === undefined ? undefined : Buffer.from(JSON.stringify(step.request)),
    bodyTruncated: false,
    response: {
      status: step.status ?? 200,
      contentType: step.contentType ?? 'application/json',
      body: answer,
      truncated: false,
    },
    noAnswerReason: step.noAnswer,
  };
}

const infer = (...steps: Step[]) => inferServers(steps.map(exchange));
const facts = (...steps: Step[]) => infer(...steps).get(1234)!;
const seed = (...steps: Step[]) => facts(...steps).seed;

describe('inferServers: lists', () => {
  it('a listing shows which lists exist, with their names; other ids are not lists', () => {
    const shown = facts({
      path: '/lists',
      answer: [
        { id: 1, name: 'A' },
        { id: '2', name: 'B' },
        { id: 0, name: 'zero' },
        { id: -1, name: 'minus' },
        { id: 1.5, name: 'half' },
        { id: 'x', name: 'x' },
        { id: 3 },
      ],
    });
    expect(shown.listsShown).toBe(true);
    expect(shown.seed.lists).toEqual([
      { id: 1, name: 'A' },
      { id: 2, name: 'B' },
    ]);
    expect([...shown.knownLists]).toEqual([1, 2]);
    expect(shown.seed.maxContacts).toBe(10_000_000);
  });

  it('a listing in XML shows them too', () => {
    const shown = seed({
      path: '/lists',
      contentType: 'application/xml',
      answer: '<Lists><List><Id>4</Id><Name>X</Name></List></Lists>',
    });
    expect(shown.lists).toEqual([{ id: 4, name: 'X' }]);
  });

  it('only a successful listing counts (2xx)', () => {
    for (const status of [199, 300, 401]) {
      const refused = facts({ path: '/lists', status, answer: [{ id: 1, name: 'A' }] });
      expect(refused.listsShown).toBe(false);
      expect(refused.seed.lists).toEqual([]);
    }
    expect(facts({ path: '/lists', status: 299, answer: [] }).listsShown).toBe(true);
  });

  it('without a listing, the lists successful requests used, named for their id', () => {
    const used = facts(
      { method: 'PUT', path: '/lists/7/contacts', request: { emailAddress: 'a@x.test' } },
      { method: 'PUT', path: '/lists/8/contacts/3' },
      { method: 'PUT', path: '/lists/9/contacts', status: 400 },
      { method: 'POST', path: '/contacts/unsubscribe/4' },
    );
    expect(used.listsShown).toBe(false);
    expect(used.seed.lists).toEqual([
      { id: 7, name: 'List 7' },
      { id: 8, name: 'List 8' },
    ]);
    // With a listing, that listing alone.
    expect(
      seed(
        { method: 'PUT', path: '/lists/7/contacts', request: { emailAddress: 'a@x.test' } },
        { path: '/lists', answer: [{ id: 1, name: 'A' }] },
      ).lists,
    ).toEqual([{ id: 1, name: 'A' }]);
  });
});

describe('inferServers: custom fields', () => {
  it('a listing shows the fields; fields the session made are not in the starting state', () => {
    const shown = facts(
      {
        method: 'POST',
        path: '/customfields/Made',
        answer: { customFieldNameId: 9, name: 'Made' },
      },
      {
        path: '/customfields',
        answer: [
          { customFieldNameId: 1, name: 'City' },
          { customFieldNameId: 9, name: 'Made' },
          { customFieldNameId: 0, name: 'Zero' },
          { customFieldNameId: 2, name: 'a<b' },
          { customFieldNameId: 3, name: 'x'.repeat(51) },
          { customFieldNameId: 4, name: 'y'.repeat(50) },
          { customFieldNameId: 5, name: 5 },
        ],
      },
    );
    expect(shown.fieldsShown).toBe(true);
    expect(shown.seed.customFields).toEqual([
      { customFieldNameId: 1, name: 'City' },
      { customFieldNameId: 4, name: 'y'.repeat(50) },
    ]);
    expect(facts({ path: '/customfields', status: 300, answer: [] }).fieldsShown).toBe(false);
  });

  it('a 409 "already exists" shows a field by name; a name made in the session is not one', () => {
    const named = seed(
      {
        method: 'POST',
        path: '/customfields/Town',
        status: 409,
        answer: { message: "A custom field 'Town' Already Exists." },
      },
      {
        method: 'POST',
        path: '/customfields/Town',
        status: 409,
        answer: { message: 'already exists' },
      },
      {
        method: 'POST',
        path: '/customfields/Full',
        status: 409,
        answer: { message: 'maximum number of fields' },
      },
      { method: 'POST', path: '/customfields/Made', answer: { customFieldNameId: 9 } },
      {
        method: 'POST',
        path: '/customfields/made',
        status: 409,
        answer: { message: 'already exists' },
      },
    );
    expect(named.customFields).toEqual([{ name: 'Town' }]);
  });

  it('a field named first, then listed with its id, is one field', () => {
    const once = seed(
      {
        method: 'POST',
        path: '/customfields/City',
        status: 409,
        answer: { message: 'already exists' },
      },
      { path: '/customfields', answer: [{ customFieldNameId: 1, name: 'City' }] },
      {
        method: 'POST',
        path: '/customfields/CITY',
        status: 409,
        answer: { message: 'already exists' },
      },
    );
    expect(once.customFields).toEqual([{ customFieldNameId: 1, name: 'City' }]);
  });

  it('a field deleted before any listing: the field last named before it, or one of its own', () => {
    const settled = seed(
      {
        method: 'POST',
        path: '/customfields/Old',
        status: 409,
        answer: { message: 'already exists' },
      },
      { method: 'DELETE', path: '/customfields/5', status: 204 },
      { method: 'DELETE', path: '/customfields/6', status: 204 },
      { method: 'DELETE', path: '/customfields/7', status: 404 },
      {
        method: 'POST',
        path: '/customfields/Late',
        status: 409,
        answer: { message: 'already exists' },
      },
    );
    expect(settled.customFields).toEqual([
      { customFieldNameId: 5, name: 'Old' },
      { customFieldNameId: 6, name: 'replay-field-6' },
      { name: 'Late' },
    ]);
    // A field the session made, or one listed, is not deleted unseen.
    expect(
      seed(
        { method: 'POST', path: '/customfields/Made', answer: { customFieldNameId: 5 } },
        { method: 'DELETE', path: '/customfields/5', status: 204 },
      ).customFields,
    ).toEqual([]);
    expect(
      seed(
        { path: '/customfields', answer: [{ customFieldNameId: 5, name: 'Listed' }] },
        { method: 'DELETE', path: '/customfields/5', status: 204 },
      ).customFields,
    ).toEqual([{ customFieldNameId: 5, name: 'Listed' }]);
  });

  it('a successful add-by-email shows the fields it named', () => {
    const named = seed({
      method: 'PUT',
      path: '/lists/1/contacts',
      request: {
        emailAddress: 'a@x.test',
        customFields: [{ Name: 'City' }, { name: 'Zip' }, null, { Name: 3 }],
        firstName: 'A',
        lastName: 'B',
      },
      answer: { contactId: 4 },
    });
    expect(named.customFields).toEqual([
      { name: 'City' },
      { name: 'Zip' },
      { name: 'FirstName' },
      { name: 'LastName' },
    ]);
    expect(
      seed({
        method: 'PUT',
        path: '/lists/1/contacts',
        request: { emailAddress: 'a@x.test', firstName: 1, lastName: null, customFields: {} },
        answer: { contactId: 4 },
      }).customFields,
    ).toEqual([]);
  });
});

describe('inferServers: content', () => {
  it('a listing shows content with its dates when they are ISO 8601 UTC, updated not before created', () => {
    const content = seed({
      path: '/content',
      answer: [
        { id: 1, name: 'A', created: '2026-01-01T00:00:00Z', updated: '2026-01-02T00:00:00Z' },
        { id: 2, name: 'B', created: '2026-01-02T00:00:00Z', updated: '2026-01-01T00:00:00Z' },
        { id: 3, name: 'C', created: '01/02/2026', updated: '2026-01-01T00:00:00Z' },
        { id: 4, name: 'D', created: '2026-13-45T00:00:00Z' },
        { id: 5, name: 'E', created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z' },
        { id: 0, name: 'zero' },
        { id: 6 },
      ],
    }).content;
    expect(content).toEqual([
      { id: 1, name: 'A', created: '2026-01-01T00:00:00Z', updated: '2026-01-02T00:00:00Z' },
      { id: 2, name: 'B', created: '2026-01-02T00:00:00Z' },
      { id: 3, name: 'C' },
      { id: 4, name: 'D' },
      { id: 5, name: 'E', created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z' },
    ]);
    expect(seed({ path: '/content', status: 500, answer: [{ id: 1, name: 'A' }] }).content).toEqual(
      [],
    );
  });
});

describe('inferServers: contacts', () => {
  it('an id used successfully before any answer gave it is a contact, with a placeholder address', () => {
    const contacts = seed(
      { method: 'PUT', path: '/lists/1/contacts/3' },
      { method: 'DELETE', path: '/lists/1/contacts/4' },
      { method: 'POST', path: '/contacts/unsubscribe/5' },
      { method: 'PUT', path: '/lists/1/contacts/6', status: 404 },
    ).contacts;
    expect(contacts).toEqual([
      { contactId: 3, emailAddress: 'contact3@replay.invalid' },
      { contactId: 4, emailAddress: 'contact4@replay.invalid' },
      { contactId: 5, emailAddress: 'contact5@replay.invalid' },
    ]);
  });

  it('an add-by-email that answers with an id used before gives that contact its address', () => {
    const contacts = seed(
      { method: 'PUT', path: '/lists/1/contacts/3' },
      {
        method: 'PUT',
        path: '/lists/1/contacts',
        request: { emailAddress: 'Ann@X.test' },
        answer: { contactId: 3 },
      },
    ).contacts;
    expect(contacts).toEqual([{ contactId: 3, emailAddress: 'Ann@X.test' }]);
  });

  it('an id an add-by-email gave first is the session’s, not the starting state’s', () => {
    const contacts = seed(
      {
        method: 'PUT',
        path: '/lists/1/contacts',
        request: { emailAddress: 'a@x.test' },
        answer: { contactId: 3 },
      },
      { method: 'PUT', path: '/lists/1/contacts/3' },
    ).contacts;
    expect(contacts).toEqual([]);
  });

  it('an address unsubscribed that no add showed is a contact of the starting state', () => {
    const contacts = seed(
      { method: 'POST', path: '/contacts/unsubscribe', request: { emailAddress: 'Cy@X.test' } },
      { method: 'POST', path: '/contacts/unsubscribe', request: { emailAddress: 'cy@x.test' } },
      { method: 'PUT', path: '/lists/1/contacts', request: { emailAddress: 'ben@x.test' } },
      { method: 'POST', path: '/contacts/unsubscribe', request: { emailAddress: 'BEN@x.test' } },
      {
        method: 'POST',
        path: '/contacts/unsubscribe',
        status: 404,
        request: { emailAddress: 'no@x.test' },
      },
      { method: 'POST', path: '/contacts/unsubscribe', request: { emailAddress: 5 } },
    ).contacts;
    expect(contacts).toEqual([{ emailAddress: 'Cy@X.test' }]);
  });

  it('an unsubscribed address that is also a contact by id is one contact', () => {
    const contacts = seed(
      { method: 'PUT', path: '/lists/1/contacts/3' },
      {
        method: 'PUT',
        path: '/lists/1/contacts',
        status: 400,
        request: { emailAddress: 'a@x.test' },
      },
      {
        method: 'POST',
        path: '/contacts/unsubscribe',
        request: { emailAddress: 'contact3@replay.invalid' },
      },
    ).contacts;
    expect(contacts).toEqual([{ contactId: 3, emailAddress: 'contact3@replay.invalid' }]);
  });
});

describe('inferServers: what it does not learn from', () => {
  it('exchanges without an answer, or without a server id, and each server apart', () => {
    const servers = infer(
      { path: '/lists', answer: [{ id: 1, name: 'A' }], noAnswer: 'an injected fault' },
      { path: '/lists', answer: [{ id: 2, name: 'B' }], authorization: 'Bearer x' },
      { path: '/lists', answer: [{ id: 3, name: 'C' }], authorization: 'Basic 56789:<redacted>' },
    );
    expect([...servers.keys()]).toEqual([56789]);
    expect(servers.get(56789)!.seed.lists).toEqual([{ id: 3, name: 'C' }]);
  });

  // Such a body made the whole HAR refused before: it now teaches nothing, and the rest is learned.
  it('a body no reader can walk, answer or request, teaches nothing; the others still do', () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    let nested: unknown = [];
    for (let level = 0; level < 200; level++) nested = [nested];
    const shown = seed(
      { path: '/lists', answer: deep },
      { method: 'PUT', path: '/lists/1/contacts', request: { emailAddress: 'a@b.c', x: nested } },
      { path: '/lists', answer: [{ id: 2, name: 'B' }] },
    );
    expect(shown.lists).toEqual([{ id: 2, name: 'B' }]);
  });
});
