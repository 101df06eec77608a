import { describe, expect, it, vi } from 'vitest';
import { REDACTED, Redactor } from '../../src/redaction/redact.js';

// Tests that the mutation run (docs/benchmarks.md) asked for: the
// redactor's work counted through its SecretSource, and its answers at the edges the other
// redaction tests leave out.

const KEY = 'Secr3t-Key_0042';

/** A source whose reads the test counts, and whose keys it changes (bumping the revision). */
function countedSource(initial: string[]) {
  const state = { secrets: initial, revision: 1 };
  const source = {
    revision: () => state.revision,
    secrets: vi.fn(() => state.secrets),
  };
  const change = (secrets: string[]) => {
    state.secrets = secrets;
    state.revision += 1;
  };
  return { source, change };
}

describe('the compiled secrets', () => {
  it('are read from the source once per revision, whatever is redacted meanwhile', () => {
    const { source, change } = countedSource([KEY]);
    const redactor = new Redactor(source, 1024);
    for (let round = 0; round < 3; round += 1) {
      expect(redactor.url(`/x?k=${KEY}`)).toBe(`/x?k=${REDACTED}`);
      expect(redactor.requestHeaders({ 'x-key': KEY })).toEqual({ 'x-key': REDACTED });
      expect(redactor.query({ k: KEY })).toEqual({ k: REDACTED });
      expect(redactor.body(`{"k":"${KEY}"}`)).toBe(`{"k":"${REDACTED}"}`);
    }
    expect(source.secrets).toHaveBeenCalledOnce();
    change(['Other-Key_0099']);
    expect(redactor.url(`/x?k=${KEY}&o=Other-Key_0099`)).toBe(`/x?k=${KEY}&o=${REDACTED}`);
    expect(redactor.url('/y')).toBe('/y');
    expect(source.secrets).toHaveBeenCalledTimes(2);
  });
});

const redactorOf = (secrets: string[], bodyLimit = 1024) =>
  new Redactor({ revision: () => 1, secrets: () => secrets }, bodyLimit);

describe('a clean answer remembered', () => {
  it('lets no other body through: a different answer holding a key is redacted, as text or bytes', () => {
    const redactor = redactorOf([KEY]);
    const clean = '{"name":"Newsletter"}';
    expect(redactor.body(clean)).toBe(clean);
    expect(redactor.body(`{"echo":"${KEY}"}`)).toBe(`{"echo":"${REDACTED}"}`);
    expect(redactor.body(clean)).toBe(clean);
    expect(redactor.body(Buffer.from(`{"echo":"${KEY}"}`)).toString()).toBe(
      `{"echo":"${REDACTED}"}`,
    );
  });

  it('remembers a Buffer by a copy of its bytes: one found clean, then changed in place to hold a key, is redacted', () => {
    const redactor = redactorOf([KEY]);
    const buffer = Buffer.from(`{"k":"${'x'.repeat(KEY.length)}"}`);
    expect(redactor.body(buffer)).toBe(buffer);
    buffer.write(KEY, 6);
    expect(redactor.body(buffer).toString()).toBe(`{"k":"${REDACTED}"}`);
  });
});

describe('header values the Headers type allows besides strings', () => {
  it('keeps numbers and undefined as they are, and redacts the other headers', () => {
    const redactor = redactorOf([KEY]);
    const clean = { 'content-length': 12, 'x-none': undefined, accept: ['a/b', 'c/d'] };
    expect(redactor.requestHeaders(clean)).toBe(clean);
    expect(redactor.requestHeaders({ ...clean, 'x-key': KEY })).toEqual({
      ...clean,
      'x-key': REDACTED,
    });
    const credentials = { authorization: 7, 'proxy-authorization': undefined };
    expect(redactor.requestHeaders(credentials)).toBe(credentials);
  });
});

describe('a repeated query parameter', () => {
  it('is redacted when only one of its values holds a key, and only that value', () => {
    const redactor = redactorOf([KEY]);
    expect(redactor.query({ n: '1', list: ['a', `b${KEY}`] })).toEqual({
      n: '1',
      list: ['a', `b${REDACTED}`],
    });
  });

  it('is redacted when a value holds a key that is not ASCII, JSON-escaped (decoded text)', () => {
    const wide = 'Schlüssel-Ключ_42';
    const escaped = [...wide]
      .map((c) =>
        c.charCodeAt(0) > 0x7e ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
      )
      .join('');
    const redactor = redactorOf([wide]);
    expect(redactor.query({ q: ['1', `{"key":"${escaped}"}`] })).toEqual({
      q: ['1', `{"key":"${REDACTED}"}`],
    });
  });
});

describe('a string body longer than what the journal keeps', () => {
  it('is scanned only as far as the journal keeps it (and a key more), like a Buffer', () => {
    const redactor = redactorOf([KEY], 16);
    // Past the kept part and the widest escaped spelling of a secret (11 characters a character).
    const late = `${'x'.repeat(2000)}${KEY}`;
    expect(redactor.body(late)).toBe(late);
    const cut = `${'x'.repeat(10)}${KEY}${'y'.repeat(2000)}`;
    expect(redactor.body(cut)).toBe(`${'x'.repeat(10)}${REDACTED}${'y'.repeat(2000)}`);
  });
});
