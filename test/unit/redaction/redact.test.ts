import { describe, expect, it, vi } from 'vitest';
import type { JournalRecord } from '../../../src/journal/journal.js';
import { type RecordedFacts, Redactor } from '../../../src/redaction/redact.js';
import { MIN_SECRET_LENGTH, REDACTED } from '../../../src/redaction/secret-forms.js';

const KEY = 'Secr3t-Key_0042';

/** A redactor over a list of secrets the test can change, as the store's keys change. */
function redactorOf(initial: string[], bodyLimit = 1024) {
  const state = { secrets: initial, revision: 0 };
  const redactor = new Redactor(
    { revision: () => state.revision, secrets: () => state.secrets },
    bodyLimit,
  );
  const change = (secrets: string[]) => {
    state.secrets = secrets;
    state.revision += 1;
  };
  return { redactor, change };
}

function record(parts: Partial<JournalRecord> = {}): JournalRecord & RecordedFacts {
  return {
    arrived: 0,
    durationMs: 1,
    protocol: 'http',
    method: 'GET',
    url: '/marketing/v1/lists',
    query: {},
    serverId: 1234,
    operation: 'getLists',
    format: 'json',
    status: 200,
    fault: undefined,
    requestHeaders: { host: 'localhost', accept: 'application/json' },
    responseHeaders: 'HTTP/1.1 200 OK\r\n',
    ...parts,
  };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe.each([
  ['a few keys (one regular expression)', [] as string[]],
  [
    'many keys (the index of first characters)',
    Array.from({ length: 60 }, (_, index) => `other-key-${String(index).padStart(4, '0')}`),
  ],
])('Redactor, %s', (_name, others) => {
  const make = (bodyLimit?: number) => redactorOf([KEY, ...others], bodyLimit);

  it('returns the very record when it holds no secret (recording allocates nothing)', () => {
    const { redactor } = make();
    const clean = record({ url: '/marketing/v1/lists?x=1', query: { x: '1' } });
    expect(redactor.record(clean)).toBe(clean);
    const body = Buffer.from('{"emailAddress":"a@example.com"}');
    expect(redactor.body(body)).toBe(body);
  });

  it('finds a secret at the start, in the middle, at the end, and alone', () => {
    const { redactor } = make();
    for (const [value, expected] of [
      [KEY, REDACTED],
      [`${KEY}!`, `${REDACTED}!`],
      [`x${KEY}`, `x${REDACTED}`],
      [`a ${KEY} b ${KEY}`, `a ${REDACTED} b ${REDACTED}`],
    ]) {
      const redacted = redactor.record(record({ requestHeaders: { 'x-api-key': value } }));
      expect(redacted.requestHeaders['x-api-key']).toBe(expected);
    }
    // Shorter than a secret, or a part of one: left alone.
    const part = record({ requestHeaders: { 'x-a': KEY.slice(0, -1), 'x-b': 'k' } });
    expect(redactor.record(part)).toBe(part);
  });

  it('takes the whole base64 run that holds a secret, and nothing around it', () => {
    const { redactor } = make();
    for (const prefix of ['', '1', '12', '1234:']) {
      const run = b64(`${prefix}${KEY}`);
      const redacted = redactor.record(
        record({ requestHeaders: { 'x-token': `token=${run}; path=/` } }),
      );
      expect(redacted.requestHeaders['x-token'], prefix).toBe(`token=${REDACTED}; path=/`);
    }
    const url = Buffer.from(`1234:${KEY}??`).toString('base64url');
    const redacted = redactor.record(record({ url: `/marketing/v1/lists?auth=${url}&x=1` }));
    expect(redacted.url).toBe(`/marketing/v1/lists?auth=${REDACTED}&x=1`);
  });

  it('keeps the Basic username only when it is a server id without a secret', () => {
    const { redactor } = make();
    const basic = (pair: string) =>
      redactor.record(record({ requestHeaders: { authorization: `Basic ${b64(pair)}` } }))
        .requestHeaders.authorization;
    expect(basic(`1234:${KEY}`)).toBe(`Basic 1234:${REDACTED}`);
    expect(basic(`${KEY}:1234`)).toBe(`Basic ${REDACTED}`);
    expect(basic('apikey:whatever')).toBe(`Basic ${REDACTED}`);
    expect(basic('123:x')).toBe(`Basic ${REDACTED}`);
    expect(basic('no colon')).toBe(`Basic ${REDACTED}`);
    const other = redactor.record(
      record({ requestHeaders: { 'proxy-authorization': `Digest ${KEY}`, authorization: 'x' } }),
    );
    expect(other.requestHeaders['proxy-authorization']).toBe(`Digest ${REDACTED}`);
    expect(other.requestHeaders.authorization).toBe(REDACTED);
  });

  it('hides a Proxy-Authorization credential that is no key of the fake, as it hides Authorization', () => {
    const { redactor } = make();
    // A proxy's own user and password: no secret of the fake, still a credential.
    const kept = redactor.record(
      record({ requestHeaders: { 'proxy-authorization': `Basic ${b64('proxyuser:proxypass')}` } }),
    ).requestHeaders['proxy-authorization'];
    expect(kept).toBe(`Basic ${REDACTED}`);
  });

  it('redacts header names, query names and values, and bodies either way', () => {
    const { redactor } = make();
    const redacted = redactor.record(
      record({
        requestHeaders: { [`x-${KEY.toLowerCase()}`]: ['a', KEY], 'x-other': '1' },
        query: { [KEY]: '1', list: ['a', `b${KEY}`] },
      }),
    );
    // Node lower-cases header names: the key is found in that form too.
    expect(redacted.requestHeaders).toEqual({ [`x-${REDACTED}`]: ['a', REDACTED], 'x-other': '1' });
    expect(redacted.query).toEqual({ [REDACTED]: '1', list: ['a', `b${REDACTED}`] });
    expect(String(redactor.body(Buffer.from(`{"a":"${KEY}"}`)))).toBe(`{"a":"${REDACTED}"}`);
    expect(redactor.body(`No contact has the email address '${KEY}'.`)).toBe(
      `No contact has the email address '${REDACTED}'.`,
    );
    const clean = Buffer.from('{"a":1}');
    expect(redactor.body(clean)).toBe(clean);
    expect(redactor.body(undefined)).toBeUndefined();
  });

  it('scans only what the journal keeps, and a secret cut by the limit too', () => {
    const { redactor } = make(16);
    // Past the kept part and the widest escaped spelling of a secret (11 characters a character).
    const late = Buffer.from(`${'x'.repeat(2000)}${KEY}`);
    expect(redactor.body(late)).toBe(late);
    const cut = Buffer.from(`${'x'.repeat(10)}${KEY}${'y'.repeat(100)}`);
    expect(String(redactor.body(cut))).toBe(`${'x'.repeat(10)}${REDACTED}${'y'.repeat(100)}`);
    const text = `${'x'.repeat(10)}${KEY}${'y'.repeat(100)}`;
    expect(redactor.body(text)).toBe(`${'x'.repeat(10)}${REDACTED}${'y'.repeat(100)}`);
  });

  it('keeps bytes that are not UTF-8 as they were around a secret', () => {
    const { redactor } = make();
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(KEY), Buffer.from([0x80])]);
    expect([...redactor.body(body)]).toEqual([0xff, 0xfe, ...Buffer.from(REDACTED), 0x80]);
  });
});

/** A secret spelt behind escapes of some or all of its characters, as a client could send it. */
const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');
const ESCAPED: [string, (secret: string) => string][] = [
  ['%XX of every character, lower-case hex', (k) => [...k].map((c) => `%${hex(c)}`).join('')],
  [
    '%XX of some characters, mixed-case hex',
    (k) =>
      [...k]
        .map((c, i) => (i % 3 === 0 ? `%${hex(c).toUpperCase()}` : i % 3 === 1 ? `%${hex(c)}` : c))
        .join(''),
  ],
  ['%2D for the dash only', (k) => k.replace(/-/g, '%2D')],
  ['%uXXXX', (k) => [...k].map((c) => `%u00${hex(c)}`).join('')],
  ['JSON \\u of the first character', (k) => `\\u00${hex(k[0]!)}${k.slice(1)}`],
  [
    'JSON \\u of every character, upper-case hex',
    (k) => [...k].map((c) => `\\u00${hex(c).toUpperCase()}`).join(''),
  ],
  ['&#decimal;', (k) => [...k].map((c) => `&#${c.charCodeAt(0)};`).join('')],
  ['&#xhex; of one character', (k) => `&#x${hex(k[0]!)};${k.slice(1)}`],
  ['&#X0hex; with zeros', (k) => [...k].map((c) => `&#X000${hex(c)};`).join('')],
];

describe.each(ESCAPED)('a secret behind escapes: %s', (_name, spell) => {
  const { redactor } = redactorOf([KEY]);
  const spelt = spell(KEY);

  it('is redacted in a header, the URL, the query, and either body', () => {
    expect(spelt).not.toContain(KEY);
    const redacted = redactor.record(
      record({
        url: `/marketing/v1/lists?a=${spelt}&b=1`,
        query: { a: spelt, b: '1' },
        requestHeaders: { host: 'localhost', 'x-note': `note ${spelt}!` },
      }),
    );
    expect(redacted.url).toBe(`/marketing/v1/lists?a=${REDACTED}&b=1`);
    expect(redacted.query).toEqual({ a: REDACTED, b: '1' });
    expect(redacted.requestHeaders['x-note']).toBe(`note ${REDACTED}!`);
    const json = `{"firstName":"${spelt}","lastName":"L\\u00e9a"}`;
    for (const body of [json, Buffer.from(json)]) {
      const kept = redactor.body(body).toString();
      expect(kept).not.toContain(spelt);
      // Still JSON, whose strings hold no secret; the rest as it was (decoded).
      expect(JSON.parse(kept)).toEqual({ firstName: REDACTED, lastName: 'Léa' });
    }
  });
});

describe('base64 cut in lines (MIME, PEM)', () => {
  const { redactor } = redactorOf([KEY]);
  const run = b64(`1234:${KEY}`);

  it('is read as one run, the line break as is or JSON-escaped', () => {
    for (const at of [16, 20]) {
      const mime = `${run.slice(0, at)}\r\n${run.slice(at)}`;
      const text = `Content-Transfer-Encoding: base64\r\n\r\n${mime}\r\n--end`;
      expect(String(redactor.body(Buffer.from(text)))).toBe(
        `Content-Transfer-Encoding: base64\r\n\r\n${REDACTED}\r\n--end`,
      );
      const json = JSON.stringify({ attachment: mime });
      expect(JSON.parse(redactor.body(json))).toEqual({ attachment: REDACTED });
    }
  });

  it('leaves lines alone when they hold no secret, and short lines are no base64 block', () => {
    const lines = `${b64('x'.repeat(30))}\n${b64('y'.repeat(30))}\nshort\n${KEY.slice(0, 3)}`;
    expect(redactor.body(lines)).toBe(lines);
    const split = `${run.slice(0, 12)}\n${run.slice(12)}`;
    expect(redactor.body(split)).toBe(split);
  });
});

describe('hostile bodies', () => {
  it('are read in linear time: runs of backslashes, escape starts, line breaks (a generous bound only a quadratic reading misses)', () => {
    const { redactor } = redactorOf([KEY], Number.MAX_SAFE_INTEGER);
    const n = 200_000;
    for (const body of [
      `\\u0041${'\\'.repeat(n)}`,
      `\\u0041${'\\'.repeat(n)}u`,
      `${'\\u0041'.repeat(n / 6)}`,
      `%41${'%u'.repeat(n / 2)}`,
      `&#65;${'&#'.repeat(n / 2)}`,
      `${'A'.repeat(16)}${'\n'.repeat(n)}`,
      `${`${'A'.repeat(16)}\\n`.repeat(n / 18)}`,
    ]) {
      const started = performance.now();
      redactor.body(body);
      redactor.body(Buffer.from(body));
      // Linear: tens of milliseconds; the quadratic reading took seconds at a third of this size.
      expect(performance.now() - started, body.slice(0, 12)).toBeLessThan(3000);
    }
  });
});

describe('escapes without a secret behind them', () => {
  const { redactor } = redactorOf([KEY]);

  it('leave the record and the body as they are (nothing decoded, nothing copied)', () => {
    const clean = record({
      url: '/marketing/v1/lists?q=%73%61%6E&r=a%2Db',
      query: { q: 'san', r: 'a-b' },
      requestHeaders: { host: 'localhost', 'x-note': '&#115;&#x61; \\u0073' },
    });
    expect(redactor.record(clean)).toBe(clean);
    const body = Buffer.from('{"a":"\\u0073ecr3t","b":"100%25"}');
    expect(redactor.body(body)).toBe(body);
  });

  it('reads a JSON escape behind any number of backslashes (JSON quoted in JSON)', () => {
    const body = `{"a":"\\\\u0053${KEY.slice(1)}","b":"\\\\u0041"}`;
    expect(JSON.parse(redactor.body(body))).toEqual({ a: REDACTED, b: 'A' });
  });

  it('decoding keeps a URL and a JSON body meaning what they meant', () => {
    const url = `/x?a=%26%3D%2B${encodeURIComponent(KEY).replace(/-/g, '%2d')}&b=%25`;
    expect(redactor.url(url)).toBe(`/x?a=%26%3D%2B${REDACTED}&b=%25`);
    const body = `{"q":"\\u0022\\u005c\\u000a","k":"\\u${hex(KEY[0]!).padStart(4, '0')}${KEY.slice(1)}"}`;
    expect(JSON.parse(redactor.body(body))).toEqual({ q: '"\\\n', k: REDACTED });
  });
});

describe('Redactor and changing secrets', () => {
  it('learns a new key when the revision changes, and forgets a removed one', () => {
    const { redactor, change } = redactorOf([]);
    const later = 'added-later-key';
    const sent = record({ requestHeaders: { 'x-api-key': later } });
    expect(redactor.record(sent)).toBe(sent);
    change([later]);
    expect(redactor.record(sent).requestHeaders['x-api-key']).toBe(REDACTED);
    change([]);
    expect(redactor.record(sent)).toBe(sent);
  });

  it('shows a cached Basic username again only while it is no secret', () => {
    const { redactor, change } = redactorOf([]);
    const header = { authorization: `Basic ${b64('123456:k')}` };
    const withDigits = () =>
      redactor.record(record({ requestHeaders: header })).requestHeaders.authorization;
    // Six digits is no server id: never shown.
    expect(withDigits()).toBe(`Basic ${REDACTED}`);
    const id = { authorization: `Basic ${b64('98765:k')}` };
    const shown = () =>
      redactor.record(record({ requestHeaders: id })).requestHeaders.authorization;
    expect(shown()).toBe(`Basic 98765:${REDACTED}`);
    change(['98765']);
    // Too short to be searched for: the rule is MIN_SECRET_LENGTH, whatever the place.
    expect('98765'.length).toBeLessThan(MIN_SECRET_LENGTH);
    expect(shown()).toBe(`Basic 98765:${REDACTED}`);
  });

  it('redacts URLs for logs', () => {
    const { redactor } = redactorOf(['admin-token-1']);
    expect(redactor.url('/__admin/ui?token=admin-token-1')).toBe(`/__admin/ui?token=${REDACTED}`);
    expect(redactor.url('/__admin/state')).toBe('/__admin/state');
    expect(redactorOf([]).redactor.url('/x?token=admin-token-1')).toBe('/x?token=admin-token-1');
  });
});

describe('a body whose secrets shorten the kept part', () => {
  it('scans again, so a secret past the first window never slides into the kept bytes', () => {
    const limit = 200;
    const { redactor } = redactorOf([KEY], limit);
    // Fourteen keys fill the first window (limit + one key's length); replacing them pulls the
    // fifteenth, which sat past that window, 70 bytes forward into the first `limit` bytes.
    const body = `${KEY.repeat(14)}${'.'.repeat(5)}${KEY}${'.'.repeat(300)}`;
    for (const form of [body, Buffer.from(body)]) {
      const kept = redactor.body(form).toString().slice(0, limit);
      expect(kept).not.toContain(KEY);
      expect(kept).toContain(REDACTED);
    }
  });
});

describe('repeated headers', () => {
  it('are redacted when every value holds a key, and kept as the very array when none does', () => {
    const { redactor } = redactorOf([KEY]);
    const all = redactor.record(record({ requestHeaders: { 'x-key': [KEY, `a${KEY}`] } }));
    expect(all.requestHeaders['x-key']).toEqual([REDACTED, `a${REDACTED}`]);
    const clean = record({ requestHeaders: { accept: ['a/b', 'c/d'], 'x-key': KEY } });
    const redacted = redactor.record(clean);
    expect(redacted.requestHeaders.accept).toBe(clean.requestHeaders.accept);
  });
});

describe('a body whose secrets shorten the kept part past the whole scan window', () => {
  it('scans again until the kept bytes hold no piece of a secret', () => {
    // The first scan reaches the limit plus the widest escaped spelling of the longest form (11
    // characters a character): with long secrets, each replacement shortens the body by about a
    // secret's length, and sixteen of them pull a secret that straddled the window's end into
    // the first `limit` bytes.
    const limit = 200;
    const long = `Secr3t-${'abcdefghij'.repeat(19)}-end`;
    const { redactor } = redactorOf([long], limit);
    const body = `${long.repeat(20)}${'.'.repeat(100)}`;
    for (const form of [body, Buffer.from(body)]) {
      expect(redactor.body(form).toString().slice(0, limit)).toBe(REDACTED.repeat(20));
    }
  });
});

describe('an answer sent again', () => {
  it('is not scanned again under the same secrets, and is scanned again when they change', () => {
    const { redactor, change } = redactorOf([KEY]);
    const answer = JSON.stringify({ name: 'Newsletter', note: 'Other-Key_0099 comes later' });
    expect(redactor.body(answer)).toBe(answer);
    expect(redactor.body(answer)).toBe(answer);
    // The same text, as a copy the fake built again: clean under the same secrets.
    expect(redactor.body(`${answer}`)).toBe(answer);
    // A key added since holds in the answer remembered as clean: it is found.
    change([KEY, 'Other-Key_0099']);
    expect(redactor.body(answer)).toBe(
      JSON.stringify({ name: 'Newsletter', note: `${REDACTED} comes later` }),
    );
  });

  it('remembers a clean answer only: one holding a key is redacted every time', () => {
    const { redactor } = redactorOf([KEY]);
    const leaking = `{"echo":"${KEY}"}`;
    for (let round = 0; round < 3; round += 1) {
      expect(redactor.body(leaking)).toBe(`{"echo":"${REDACTED}"}`);
    }
  });

  it('forgets a clean answer once another one is sent', () => {
    const { redactor, change } = redactorOf([KEY]);
    const first = '{"a":"Other-Key_0099"}';
    const second = '{"b":2}';
    expect(redactor.body(first)).toBe(first);
    expect(redactor.body(second)).toBe(second);
    change([KEY, 'Other-Key_0099']);
    expect(redactor.body(first)).toBe(`{"a":"${REDACTED}"}`);
  });
});

describe('a key that is not ASCII, behind escapes', () => {
  // Headers and the URL arrive as bytes read as latin1 (a percent escape is one byte); query
  // values and the fake's own answers are decoded text (an escape is one character).
  const WIDE = 'Schlüssel-Ключ_42';
  const { redactor } = redactorOf([WIDE]);
  const jsonEscaped = [...WIDE]
    .map((c) =>
      c.charCodeAt(0) > 0x7e ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
    )
    .join('');

  it('is redacted in a header and the URL, percent-encoded as UTF-8 bytes', () => {
    const encoded = encodeURIComponent(WIDE);
    expect(redactor.url(`/marketing/v1/lists/${encoded}?x=1`)).toBe(
      `/marketing/v1/lists/${REDACTED}?x=1`,
    );
    const headers = redactor.requestHeaders({ 'x-api-key': `k=${encoded}` });
    expect(headers['x-api-key']).toBe(`k=${REDACTED}`);
  });

  it('is redacted in a header and the URL, JSON-escaped (\\u of each wide character)', () => {
    const headers = redactor.requestHeaders({ 'x-note': `{"key":"${jsonEscaped}"}` });
    expect(headers['x-note']).toBe(`{"key":"${REDACTED}"}`);
    expect(redactor.url(`/marketing/v1/lists?q=${jsonEscaped}`)).toBe(
      `/marketing/v1/lists?q=${REDACTED}`,
    );
  });

  it('is redacted in a header sent as raw UTF-8 bytes (read as latin1)', () => {
    const raw = Buffer.from(WIDE, 'utf8').toString('latin1');
    expect(redactor.requestHeaders({ 'x-api-key': raw })['x-api-key']).toBe(REDACTED);
  });

  it('is redacted in a query value, as text and JSON-escaped', () => {
    expect(redactor.query({ k: WIDE, n: '1' })).toEqual({ k: REDACTED, n: '1' });
    const query = redactor.query({ q: `{"key":"${jsonEscaped}"}` });
    expect(JSON.stringify(query)).not.toContain('u041a');
    expect(query.q).toBe(`{"key":"${REDACTED}"}`);
  });

  it('is redacted in a query name, as text and JSON-escaped', () => {
    expect(Object.keys(redactor.query({ [WIDE]: '1' }))).toEqual([REDACTED]);
    expect(redactor.query({ n: '1', [`k${jsonEscaped}`]: '2' })).toEqual({
      n: '1',
      [`k${REDACTED}`]: '2',
    });
  });
});

// The redactor's work, counted through its SecretSource, and its answers at the edges.

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

const fixedRedactor = (secrets: string[], bodyLimit = 1024) =>
  new Redactor({ revision: () => 1, secrets: () => secrets }, bodyLimit);

describe('a clean answer remembered', () => {
  it('lets no other body through: a different answer holding a key is redacted, as text or bytes', () => {
    const redactor = fixedRedactor([KEY]);
    const clean = '{"name":"Newsletter"}';
    expect(redactor.body(clean)).toBe(clean);
    expect(redactor.body(`{"echo":"${KEY}"}`)).toBe(`{"echo":"${REDACTED}"}`);
    expect(redactor.body(clean)).toBe(clean);
    expect(redactor.body(Buffer.from(`{"echo":"${KEY}"}`)).toString()).toBe(
      `{"echo":"${REDACTED}"}`,
    );
  });

  it('remembers a Buffer by a copy of its bytes: one found clean, then changed in place to hold a key, is redacted', () => {
    const redactor = fixedRedactor([KEY]);
    const buffer = Buffer.from(`{"k":"${'x'.repeat(KEY.length)}"}`);
    expect(redactor.body(buffer)).toBe(buffer);
    buffer.write(KEY, 6);
    expect(redactor.body(buffer).toString()).toBe(`{"k":"${REDACTED}"}`);
  });
});

describe('header values the Headers type allows besides strings', () => {
  it('keeps numbers and undefined as they are, and redacts the other headers', () => {
    const redactor = fixedRedactor([KEY]);
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
    const redactor = fixedRedactor([KEY]);
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
    const redactor = fixedRedactor([wide]);
    expect(redactor.query({ q: ['1', `{"key":"${escaped}"}`] })).toEqual({
      q: ['1', `{"key":"${REDACTED}"}`],
    });
  });
});

describe('a string body longer than what the journal keeps', () => {
  it('is scanned only as far as the journal keeps it (and a key more), like a Buffer', () => {
    const redactor = fixedRedactor([KEY], 16);
    // Past the kept part and the widest escaped spelling of a secret (11 characters a character).
    const late = `${'x'.repeat(2000)}${KEY}`;
    expect(redactor.body(late)).toBe(late);
    const cut = `${'x'.repeat(10)}${KEY}${'y'.repeat(2000)}`;
    expect(redactor.body(cut)).toBe(`${'x'.repeat(10)}${REDACTED}${'y'.repeat(2000)}`);
  });
});

describe('Redactor: a secret anywhere in the query, alone', () => {
  const KEY = 'Secr3t-Key_0042';
  const redactor = new Redactor({ revision: () => 1, secrets: () => [KEY] }, 1024);
  const facts = (query: Record<string, string | string[]>) => ({
    url: '/marketing/v1/lists',
    query,
    requestHeaders: { host: 'localhost' },
  });

  it.each([
    ['as the only name', { [KEY]: '1' }, { [REDACTED]: '1' }],
    ['as the only value', { k: KEY }, { k: REDACTED }],
    ['in the second parameter only', { a: 'x', b: KEY }, { a: 'x', b: REDACTED }],
    ['in one item of a repeated parameter', { l: ['a', `b${KEY}`] }, { l: ['a', `b${REDACTED}`] }],
    [
      'in the last item of a repeated parameter',
      { l: ['a', 'b', KEY] },
      { l: ['a', 'b', REDACTED] },
    ],
  ])('is redacted %s', (_name, query, expected) => {
    expect(redactor.record(facts(query)).query).toEqual(expected);
  });

  it('keeps the very query, and the very record, when no parameter holds a secret', () => {
    const clean = facts({ a: 'x', l: ['1', '2'] });
    expect(redactor.record(clean)).toBe(clean);
  });

  it('keeps the order of headers when one of them is redacted', () => {
    const recorded = redactor.record({
      ...facts({}),
      requestHeaders: { 'x-first': KEY, 'x-second': 'b', host: 'localhost' },
    });
    expect(Object.keys(recorded.requestHeaders)).toEqual(['x-first', 'x-second', 'host']);
    expect(recorded.requestHeaders['x-first']).toBe(REDACTED);
  });

  it('an Authorization of the Basic scheme alone keeps the scheme', () => {
    const recorded = redactor.record({ ...facts({}), requestHeaders: { authorization: 'Basic' } });
    expect(recorded.requestHeaders.authorization).toBe(`Basic ${REDACTED}`);
  });
});
