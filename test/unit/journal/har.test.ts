import { describe, expect, it } from 'vitest';
import { harFrame, toHar, toHarEntry } from '../../../src/journal/har.js';
import type { JournalEntry } from '../../../src/journal/journal.js';
import { PACKAGE_VERSION } from '../../../src/version.js';

// Every field of a HAR entry, built
// from a journal entry written here, and the frame a streaming writer uses.

function entry(parts: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id: 7,
    time: '2026-11-22T12:00:00.000Z',
    method: 'PUT',
    path: '/marketing/v1/lists/1/contacts',
    url: 'http://localhost/marketing/v1/lists/1/contacts?a=1&a=2&b=x',
    queryString: 'a=1&a=2&b=x',
    query: { a: ['1', '2'], b: 'x' },
    authenticated: true,
    status: 200,
    format: 'json',
    durationMs: 12,
    request: {
      headers: { 'content-type': 'application/json', accept: ['a/b', 'c/d'] },
      body: { emailAddress: 'a@b.com' },
      bodySize: 25,
    },
    response: {
      status: 200,
      headers: { 'content-type': ['application/json; charset=utf-8', 'x'], 'x-one': '1' },
      body: '{"contactId":4}',
      bodySize: 15,
    },
    ...parts,
  };
}

describe('toHarEntry', () => {
  it('maps every field of an exchange', () => {
    expect(toHarEntry(entry({ operation: 'addContact', serverId: 1234 }))).toEqual({
      startedDateTime: '2026-11-22T12:00:00.000Z',
      time: 12,
      request: {
        method: 'PUT',
        url: 'http://localhost/marketing/v1/lists/1/contacts?a=1&a=2&b=x',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'accept', value: 'a/b' },
          { name: 'accept', value: 'c/d' },
        ],
        queryString: [
          { name: 'a', value: '1' },
          { name: 'a', value: '2' },
          { name: 'b', value: 'x' },
        ],
        postData: { mimeType: 'application/json', text: '{"emailAddress":"a@b.com"}' },
        headersSize: -1,
        bodySize: 25,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'content-type', value: 'application/json; charset=utf-8' },
          { name: 'content-type', value: 'x' },
          { name: 'x-one', value: '1' },
        ],
        content: {
          size: 15,
          mimeType: 'application/json; charset=utf-8',
          text: '{"contactId":4}',
        },
        redirectURL: '',
        headersSize: -1,
        bodySize: 15,
      },
      cache: {},
      timings: { send: 0, wait: 12, receive: 0 },
      _id: 7,
      _operation: 'addContact',
      _serverId: 1234,
    });
  });

  it('leaves out what the exchange did not have', () => {
    const har = toHarEntry(
      entry({
        request: { headers: {} },
        response: { status: 0, headers: {} },
        fault: 'reset',
      }),
    );
    expect(har.request).not.toHaveProperty('postData');
    expect(har.request.bodySize).toBe(0);
    expect(har.response.statusText).toBe('');
    // Strict: no `text` key at all (HAR's text is optional), not one holding undefined.
    expect(har.response.content).toStrictEqual({ size: 0, mimeType: '' });
    // No answer at all: HAR says -1 for a size it cannot know.
    expect(har.response.bodySize).toBe(-1);
    expect(har._fault).toBe('reset');
    expect(har).not.toHaveProperty('_operation');
    expect(har).not.toHaveProperty('_serverId');
    expect(Object.keys(har)).not.toContain('comment');
  });

  it('an answer without a body has a body size of 0, and an unknown status no text', () => {
    const har = toHarEntry(entry({ response: { status: 299, headers: {} } }));
    expect(har.response.bodySize).toBe(0);
    expect(har.response.statusText).toBe('');
    expect(har).not.toHaveProperty('_fault');
  });

  it('says when bodies are base64, and keeps a request body without a Content-Type', () => {
    const har = toHarEntry(
      entry({
        request: { headers: {}, body: '/w==', bodyEncoding: 'base64', bodySize: 1 },
        response: {
          status: 503,
          headers: {},
          body: '/+4=',
          bodyEncoding: 'base64',
          bodySize: 2,
        },
      }),
    );
    expect(har.request.postData).toEqual({ mimeType: '', text: '/w==', _encoding: 'base64' });
    expect(har.response.content).toEqual({
      size: 2,
      mimeType: '',
      text: '/+4=',
      encoding: 'base64',
    });
    expect(har.response.statusText).toBe('Service Unavailable');
    expect(har.response.bodySize).toBe(2);
  });

  it('shows a body kept as text as that text, not JSON-quoted', () => {
    const har = toHarEntry(
      entry({ request: { headers: { 'content-type': 'text/plain' }, body: 'not json' } }),
    );
    expect(har.request.postData).toEqual({ mimeType: 'text/plain', text: 'not json' });
  });
});

describe('toHar and harFrame', () => {
  it('wraps the entries, oldest first, in a HAR 1.2 log', () => {
    const har = toHar([entry({ id: 1 }), entry({ id: 2 })]);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'fake-marketing-server', version: PACKAGE_VERSION });
    expect(har.log.entries.map((one) => one._id)).toEqual([1, 2]);
  });

  it('frames entries into the same bytes as the whole document', () => {
    const { head, tail } = harFrame();
    const entries = [entry({ id: 1 }), entry({ id: 2 })];
    const streamed = `${head}${entries.map((one) => JSON.stringify(toHarEntry(one))).join(',')}${tail}`;
    expect(streamed).toBe(JSON.stringify(toHar(entries)));
    expect(`${head}${tail}`).toBe(JSON.stringify(toHar([])));
    expect(head.endsWith('"entries":[')).toBe(true);
    expect(tail).toBe(']}}');
  });
});
