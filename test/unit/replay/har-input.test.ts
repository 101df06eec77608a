import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  HarInputError,
  MAX_DECODED_BODY_BYTES,
  readHarExchanges,
} from '../../../src/replay/har-input.js';

// How replay reads a HAR: the API entries it keeps, decoded, and what it refuses.

interface EntryOptions {
  method?: string;
  url?: string;
  headers?: unknown[];
  postData?: unknown;
  status?: number;
  responseHeaders?: unknown[];
  content?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

function entry(options: EntryOptions = {}) {
  return {
    request: {
      method: options.method ?? 'GET',
      url: options.url ?? 'https://api.test/marketing/v1/lists',
      headers: options.headers ?? [],
      ...(options.postData === undefined ? {} : { postData: options.postData }),
    },
    response: {
      status: options.status ?? 200,
      headers: options.responseHeaders ?? [],
      content: options.content ?? { mimeType: 'application/json', text: '[]' },
    },
    ...options.extra,
  };
}
const har = (...entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });
const first = (...entries: unknown[]) => readHarExchanges(har(...entries)).exchanges[0]!;

describe('readHarExchanges: the API entries, decoded', () => {
  it('the method upper-cased, the version, the path after it, the query string', () => {
    const read = first(
      entry({ method: 'put', url: 'https://a.test/x/marketing/beta/lists/1/contacts?x=1#f' }),
    );
    expect(read).toMatchObject({
      index: 0,
      method: 'PUT',
      version: 'beta',
      path: '/lists/1/contacts',
      search: '?x=1',
    });
    expect(first(entry({ url: 'https://a.test/marketing/v1' })).path).toBe('');
  });

  it('entries outside the API are counted, not kept', () => {
    const read = readHarExchanges(
      har(
        entry({ url: 'https://a.test/index.html' }),
        entry({ url: 'https://a.test/marketing/v2/lists' }),
        entry({ url: 'https://a.test/marketing/v1x' }),
        entry(),
      ),
    );
    expect(read.entries).toBe(4);
    expect(read.ignored).toBe(3);
    expect(read.exchanges.map((exchange) => exchange.index)).toEqual([3]);
  });

  it('headers by lower-cased name, the first of repeated ones, malformed ones skipped', () => {
    const read = first(
      entry({
        headers: [
          { name: 'Accept', value: 'application/xml' },
          { name: 'accept', value: 'application/json' },
          { name: 'X-Empty' },
          { name: 5, value: 'x' },
          'junk',
          null,
        ],
      }),
    );
    expect(read.headers).toEqual({ accept: 'application/xml', 'x-empty': '' });
  });

  it('the request body as text or base64, none when empty, cut off when the journal cut it', () => {
    expect(first(entry({ postData: { text: '{"a":1}' } })).body?.toString()).toBe('{"a":1}');
    expect(
      first(entry({ postData: { text: 'eyJhIjoxfQ==', encoding: 'base64' } })).body?.toString(),
    ).toBe('{"a":1}');
    expect(
      first(entry({ postData: { text: 'eyJhIjoxfQ==', _encoding: 'base64' } })).body?.toString(),
    ).toBe('{"a":1}');
    expect(first(entry({ postData: { text: '' } })).body).toBeUndefined();
    expect(first(entry({ postData: { mimeType: 'x' } })).body).toBeUndefined();
    expect(first(entry({ postData: { text: 5 } })).body).toBeUndefined();
    expect(first(entry({ postData: { text: 'abc' } })).bodyTruncated).toBe(false);
    expect(
      first(entry({ postData: { text: 'abc…[truncated: 70000 bytes in all]' } })).bodyTruncated,
    ).toBe(true);
    expect(
      first(entry({ postData: { text: 'abc…[truncated: 70000 bytes in all] ' } })).bodyTruncated,
    ).toBe(false);
    expect(first(entry()).bodyTruncated).toBe(false);
  });

  it('the answer: status, Content-Type (or the MIME type when there is a body), body, cut off', () => {
    expect(
      first(entry({ responseHeaders: [{ name: 'Content-Type', value: 'text/xml' }] })).response,
    ).toEqual({ status: 200, contentType: 'text/xml', body: '[]', truncated: false });
    expect(first(entry()).response.contentType).toBe('application/json');
    expect(first(entry({ content: { mimeType: 'application/json' } })).response).toEqual({
      status: 200,
      contentType: '',
      body: undefined,
      truncated: false,
    });
    expect(
      first(entry({ content: { mimeType: 'application/json', text: '' } })).response.contentType,
    ).toBe('');
    expect(first(entry({ content: { mimeType: 5, text: 'x' } })).response.contentType).toBe('');
    expect(
      first(entry({ content: { text: '[1,…[truncated: 99 bytes in all]' } })).response.truncated,
    ).toBe(true);
  });

  it('why an entry holds no answer: the recorder, an injected fault, status 0', () => {
    expect(first(entry()).noAnswerReason).toBeUndefined();
    expect(first(entry({ extra: { _fault: 'reset' } })).noAnswerReason).toBe(
      'an injected fault (reset) answered it',
    );
    expect(
      first(entry({ extra: { _unreachable: 'ECONNREFUSED', _fault: 'reset' } })).noAnswerReason,
    ).toBe('the recorder could not reach the upstream: ECONNREFUSED');
    expect(first(entry({ status: 0, extra: { _fault: 'reset' } })).noAnswerReason).toBe(
      'an injected fault (reset) answered it',
    );
    expect(first(entry({ status: 0 })).noAnswerReason).toBe(
      'the recording holds no answer (status 0)',
    );
    expect(first(entry({ status: -1 })).noAnswerReason).toBe(
      'the recording holds no answer (status 0)',
    );
    expect(first(entry({ status: 1 })).noAnswerReason).toBeUndefined();
    expect(
      first(entry({ extra: { _fault: 5, _unreachable: true } })).noAnswerReason,
    ).toBeUndefined();
  });

  it('a byte-order mark before the JSON is no problem', () => {
    expect(readHarExchanges(`\uFEFF${har(entry())}`).exchanges).toHaveLength(1);
  });

  // `{"log": {..., "x": ...}}`: the top and log are 2 levels, each array 1 more.
  const nestedIn = (arrays: number) =>
    `{"log":{"version":"1.2","entries":${JSON.stringify([entry()])},"x":${'['.repeat(arrays)}${']'.repeat(arrays)}}}`;

  it('a HAR nested to 100 levels is read', () => {
    expect(readHarExchanges(nestedIn(98)).exchanges).toHaveLength(1);
  });

  it('a HAR nested deeper than 100 levels is refused before it is parsed, naming the bound', () => {
    for (const arrays of [99, 1_000_000]) {
      expect(() => readHarExchanges(nestedIn(arrays))).toThrow(HarInputError);
      expect(() => readHarExchanges(nestedIn(arrays))).toThrow(
        "not a HAR: its arrays and objects nest deeper than 100 levels, far past any HAR's.",
      );
    }
  });

  it('brackets in a body, a string, are no nesting of the HAR', () => {
    const body = '['.repeat(150) + ']'.repeat(150);
    const read = first(entry({ content: { mimeType: 'application/json', text: body } }));
    expect(read.response.body).toBe(body);
  });
});

describe('readHarExchanges: base64 and compressed answers', () => {
  const answer = '[{"id":1}]';
  const encoded = (bytes: Buffer, contentEncoding?: string) =>
    first(
      entry({
        responseHeaders:
          contentEncoding === undefined
            ? []
            : [{ name: 'Content-Encoding', value: contentEncoding }],
        content: {
          mimeType: 'application/json',
          text: bytes.toString('base64'),
          encoding: 'base64',
        },
      }),
    ).response.body;

  it('decoded as Content-Encoding says, or by the gzip magic number', () => {
    expect(encoded(Buffer.from(answer))).toBe(answer);
    expect(encoded(gzipSync(answer), ' GZIP ')).toBe(answer);
    expect(encoded(gzipSync(answer), 'x-gzip')).toBe(answer);
    expect(encoded(gzipSync(answer))).toBe(answer);
    expect(encoded(deflateSync(answer), 'Deflate')).toBe(answer);
    expect(encoded(brotliCompressSync(answer), 'br')).toBe(answer);
  });

  it('every coding Content-Encoding lists is undone, the last applied first', () => {
    expect(encoded(brotliCompressSync(gzipSync(answer)), 'gzip, br')).toBe(answer);
    expect(encoded(gzipSync(deflateSync(answer)), 'deflate,GZIP')).toBe(answer);
    const fourTimes = [1, 2, 3, 4].reduce((bytes) => gzipSync(bytes), Buffer.from(answer));
    expect(encoded(fourTimes, 'gzip, gzip, gzip, gzip')).toBe(answer);
    expect(encoded(gzipSync(answer), 'identity, gzip')).toBe(answer);
  });

  it('a stacked coding that decodes past the bound is not read, naming the codings', () => {
    const bomb = brotliCompressSync(gzipSync(Buffer.alloc(MAX_DECODED_BODY_BYTES + 1)));
    const read = first(
      entry({
        responseHeaders: [{ name: 'Content-Encoding', value: 'gzip, br' }],
        content: {
          mimeType: 'application/json',
          text: bomb.toString('base64'),
          encoding: 'base64',
        },
      }),
    ).response;
    expect(read.body).toBeUndefined();
    expect(read.unreadable).toBe(
      `the recorded answer body decodes (gzip, br) to more than ${MAX_DECODED_BODY_BYTES} bytes, the most replay reads`,
    );
  });

  it('already decoded despite its Content-Encoding: the bytes as they are', () => {
    expect(encoded(Buffer.from(answer), 'gzip')).toBe(answer);
    expect(encoded(Buffer.from(answer), 'deflate')).toBe(answer);
    expect(encoded(Buffer.from(answer), 'br')).toBe(answer);
    // The gzip magic number alone, and no gzip after it.
    expect(encoded(Buffer.from([0x1f, 0x8b, 0x41]))).toBe('\u001f\ufffdA');
    expect(encoded(Buffer.from([0x1f, 0x41]))).toBe('\u001fA');
  });

  it('base64 text without the base64 flag is the text', () => {
    expect(first(entry({ content: { text: 'W10=', encoding: 'gzip' } })).response.body).toBe(
      'W10=',
    );
  });
});

describe('readHarExchanges: what it refuses', () => {
  it('says what is wrong with the document', () => {
    expect(() => readHarExchanges('[]')).toThrow('not a HAR: there is no "log" object at the top.');
    expect(() => readHarExchanges('{"log": []}')).toThrow('no "log" object');
    expect(() => readHarExchanges('{"log": null}')).toThrow('no "log" object');
    expect(() => readHarExchanges('null')).toThrow('no "log" object');
    expect(() => readHarExchanges('{"log": {}}')).toThrow(
      'not HAR 1.2: log.version is missing, wanted "1.2".',
    );
    expect(() => readHarExchanges('{"log": {"version": 1.2}}')).toThrow(
      'not HAR 1.2: log.version is 1.2, wanted "1.2".',
    );
    expect(() => readHarExchanges(har())).toThrow(
      'no API entries: none of the 0 entries is under /marketing/v1 or /marketing/beta.',
    );
    expect(() => readHarExchanges(har(entry({ url: 'https://a.test/' })))).toThrow(
      'none of the 1 entries',
    );
  });

  it.each([
    [null, 'is not an object'],
    [[], 'is not an object'],
    [{ response: {} }, 'request is missing'],
    [{ ...entry(), request: { ...entry().request, method: 5 } }, 'request.method is missing'],
    [{ ...entry(), request: { ...entry().request, method: '' } }, 'request.method is missing'],
    [
      { ...entry(), request: { ...entry().request, method: `G T${'x'.repeat(50)}` } },
      `request.method is not an HTTP method ("G T${'x'.repeat(37)}")`,
    ],
    [
      { ...entry(), request: { ...entry().request, url: 5 } },
      'request.url is not an absolute URL (5)',
    ],
    [
      { ...entry(), request: { ...entry().request, headers: {} } },
      'request.headers is not an array',
    ],
    [entry({ postData: 'x' }), 'request.postData is not an object'],
    [{ request: entry().request }, 'response is missing'],
    [entry({ status: '200' as unknown as number }), 'response.status is not a number'],
    [
      { ...entry(), response: { ...entry().response, headers: null } },
      'response.headers is not an array',
    ],
    [
      { ...entry(), response: { ...entry().response, content: 'x' } },
      'response.content is missing',
    ],
    [entry({ content: { text: 5 } }), 'response.content.text is not a string'],
  ])('an entry %j: %s', (bad, problem) => {
    expect(() => readHarExchanges(har(entry(), bad))).toThrow(HarInputError);
    expect(() => readHarExchanges(har(entry(), bad))).toThrow(
      `not HAR 1.2: 1 entry is malformed:\nentry 1: ${problem}`,
    );
  });

  it('names the first 5 malformed entries and counts the rest', () => {
    const text = har(...Array.from({ length: 7 }, () => null));
    expect(() => readHarExchanges(text)).toThrow(
      `not HAR 1.2: 7 entries are malformed:\n${[0, 1, 2, 3, 4].map((i) => `entry ${i}: is not an object`).join('\n')}\n(2 more)`,
    );
    const five = har(...Array.from({ length: 5 }, () => null));
    expect(() => readHarExchanges(five)).toThrow(/entry 4: is not an object$/);
  });
});

describe('readHarExchanges: the credentials of every entry', () => {
  it('Authorization and Proxy-Authorization of every entry, API or not, however spelt', () => {
    const read = readHarExchanges(
      har(
        entry({
          url: 'https://a.test/page',
          headers: [
            { name: ' PROXY-Authorization ', value: 'Basic cHJveHk=' },
            { name: 'Authorization', value: 5 },
            { name: 'Cookie', value: 'x' },
            'junk',
          ],
        }),
        entry({
          headers: [
            { name: 'authorization', value: 'Basic a' },
            { name: 'Authorization', value: 'Basic b' },
          ],
        }),
      ),
    );
    expect(read.credentials).toEqual(['Basic cHJveHk=', 'Basic a', 'Basic b']);
    expect(() => readHarExchanges(har({ request: { headers: {} } }))).toThrow(HarInputError);
  });
});

describe('readHarExchanges: Content-Encoding as written', () => {
  it('with spaces around it', () => {
    const answer = '[{"id":1}]';
    const read = first(
      entry({
        responseHeaders: [{ name: 'Content-Encoding', value: ' br ' }],
        content: {
          mimeType: 'application/json',
          text: brotliCompressSync(answer).toString('base64'),
          encoding: 'base64',
        },
      }),
    );
    expect(read.response.body).toBe(answer);
  });

  it('HarInputError is named so', () => {
    expect(String(new HarInputError('x'))).toBe('HarInputError: x');
  });
});
