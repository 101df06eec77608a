import { describe, expect, it, vi } from 'vitest';
import type { Headers } from '../../../src/journal/journal.js';
import { REDACTED, Redactor } from '../../../src/redaction/redact.js';

// A client sends the same headers and asks the same URL again and again: the redactor answers
// them again from what it found last time, under the same secrets only.

const KEY = 'Secr3t-Key_0042';
const OTHER = 'Other-Key_7777';

function redactorOf(initial: string[]) {
  const state = { secrets: initial, revision: 0 };
  const redactor = new Redactor(
    { revision: () => state.revision, secrets: () => state.secrets },
    1024,
  );
  const change = (secrets: string[]) => {
    state.secrets = secrets;
    state.revision += 1;
  };
  return { redactor, change };
}

/** Node's two views of one request's headers: `rawHeaders` and the object built from it. */
function sent(...pairs: [string, string][]): { headers: Headers; raw: string[] } {
  const headers: Headers = {};
  for (const [name, value] of pairs) headers[name.toLowerCase()] = value;
  return { headers, raw: pairs.flat() };
}

const basic = (user: string, key: string) =>
  `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

describe('request headers sent again', () => {
  it('gives the same redacted copy for the same raw headers, without the key', () => {
    const { redactor } = redactorOf([KEY]);
    const first = sent(['Host', 'localhost'], ['Authorization', basic('1234', KEY)]);
    const again = sent(['Host', 'localhost'], ['Authorization', basic('1234', KEY)]);
    const one = redactor.requestHeaders(first.headers, first.raw);
    const two = redactor.requestHeaders(again.headers, again.raw);
    expect(one).toEqual({ host: 'localhost', authorization: `Basic 1234:${REDACTED}` });
    expect(two).toBe(one);
  });

  it('scans headers that differ in any name, value, order or number', () => {
    const { redactor } = redactorOf([KEY]);
    const base = sent(['Host', 'localhost'], ['X-Note', 'plain']);
    const first = redactor.requestHeaders(base.headers, base.raw);
    expect(first).toBe(base.headers);
    for (const other of [
      sent(['Host', 'localhost'], ['X-Note', KEY]),
      sent(['Host', 'localhost'], ['X-Other', KEY]),
      sent(['X-Note', KEY], ['Host', 'localhost']),
      sent(['Host', 'localhost'], ['X-Note', 'plain'], ['X-More', KEY]),
    ]) {
      // Each differs from the one before it, and each holds the key.
      expect(JSON.stringify(redactor.requestHeaders(other.headers, other.raw))).not.toContain(KEY);
    }
    const shorter = sent(['Host', 'localhost']);
    expect(redactor.requestHeaders(shorter.headers, shorter.raw)).toBe(shorter.headers);
  });

  it('scans again once the secrets change, so a key made since is redacted', () => {
    const { redactor, change } = redactorOf([KEY]);
    const first = sent(['Host', 'localhost'], ['X-Api-Key', OTHER]);
    expect(redactor.requestHeaders(first.headers, first.raw)).toBe(first.headers);
    change([KEY, OTHER]);
    const again = sent(['Host', 'localhost'], ['X-Api-Key', OTHER]);
    expect(redactor.requestHeaders(again.headers, again.raw)).toEqual({
      host: 'localhost',
      'x-api-key': REDACTED,
    });
  });

  it('remembers nothing without the raw headers', () => {
    const { redactor } = redactorOf([KEY]);
    const first = sent(['X-Note', 'plain']);
    expect(redactor.requestHeaders(first.headers)).toBe(first.headers);
    // The same raw list as nothing remembered: scanned, and the key found.
    const keyed = sent(['X-Note', KEY]);
    expect(redactor.requestHeaders(keyed.headers, [])).toEqual({ 'x-note': REDACTED });
  });
});

describe('a URL asked again', () => {
  it('gives the string given the first time', () => {
    const { redactor } = redactorOf([KEY]);
    const url = `/marketing/v1/lists?key=${KEY}`;
    const first = redactor.url(url);
    expect(first).toBe(`/marketing/v1/lists?key=${REDACTED}`);
    // An equal string built anew (as Node builds each request's URL).
    const again = redactor.url(['/marketing/v1/lists', `key=${KEY}`].join('?'));
    expect(again).toBe(first);
    expect(redactor.url('/marketing/v1/lists')).toBe('/marketing/v1/lists');
  });

  it('scans again once the secrets change', () => {
    const { redactor, change } = redactorOf([KEY]);
    const url = `/marketing/v1/lists?key=${OTHER}`;
    expect(redactor.url(url)).toBe(url);
    change([OTHER]);
    expect(redactor.url(url)).toBe(`/marketing/v1/lists?key=${REDACTED}`);
    change([]);
    expect(redactor.url(url)).toBe(url);
  });
});

describe('a body sent again', () => {
  it('scans a clean body again once the secrets change, as text or bytes', () => {
    const { redactor, change } = redactorOf([KEY]);
    const text = `{"emailAddress":"a@example.com","note":"${OTHER}"}`;
    const bytes = Buffer.from(text);
    expect(redactor.body(text)).toBe(text);
    expect(redactor.body(bytes)).toBe(bytes);
    change([KEY, OTHER]);
    const expected = `{"emailAddress":"a@example.com","note":"${REDACTED}"}`;
    expect(redactor.body(text)).toBe(expected);
    expect(String(redactor.body(Buffer.from(text)))).toBe(expected);
  });

  it('remembers the last clean body of each kind: a request Buffer and an answer string alternate', () => {
    const { redactor } = redactorOf([KEY]);
    const request = Buffer.from('{"emailAddress":"a@example.com"}');
    const answer = '{"id":1,"emailAddress":"a@example.com"}';
    // What is remembered shows only in the work saved: the scans are counted.
    const scans = vi.spyOn(redactor as unknown as { bodyWith: () => unknown }, 'bodyWith');
    for (let round = 0; round < 3; round++) {
      expect(redactor.body(Buffer.from(request))).toEqual(request);
      expect(redactor.body(answer)).toBe(answer);
    }
    expect(scans).toHaveBeenCalledTimes(2);
    // Equal bytes in another Buffer are the same body; other bytes are scanned.
    const copy = Buffer.from(request);
    expect(redactor.body(copy)).toBe(copy);
    const holding = Buffer.from(`{"emailAddress":"${KEY}"}`);
    expect(String(redactor.body(holding))).toBe(`{"emailAddress":"${REDACTED}"}`);
  });

  it('never remembers a body that held a secret: the same bytes sent again are redacted again', () => {
    const { redactor } = redactorOf([KEY]);
    const text = `{"emailAddress":"a@example.com","note":"${KEY}"}`;
    const expected = `{"emailAddress":"a@example.com","note":"${REDACTED}"}`;
    for (let round = 0; round < 3; round++) {
      expect(String(redactor.body(Buffer.from(text)))).toBe(expected);
      expect(redactor.body(text)).toBe(expected);
    }
  });

  it('remembers a clean Buffer of up to 4 KiB only (each is copied to be remembered)', () => {
    const { redactor } = redactorOf([KEY]);
    const scans = vi.spyOn(redactor as unknown as { bodyWith: () => unknown }, 'bodyWith');
    const limit = Buffer.alloc(4096, 'a');
    redactor.body(limit);
    redactor.body(Buffer.from(limit));
    expect(scans).toHaveBeenCalledTimes(1);
    const over = Buffer.alloc(4097, 'a');
    redactor.body(over);
    redactor.body(Buffer.from(over));
    expect(scans).toHaveBeenCalledTimes(3);
  });
});
