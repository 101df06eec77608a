import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/index.js';
import { exchange } from '../helpers/raw-socket.js';
import { harFolder, upstreamsClosedAfterEach } from '../helpers/recorder-files.js';

/**
 * A HAR the recorder wrote is continued by the next run on the same --out, whatever odd
 * credentials the exchanges held: the check that refuses a file holding a credential in clear
 * must recognise every form the recorder itself writes (redacted names, schemes, attributes).
 */
const folder = harFolder('record-continue-own-');
const upstreamOf = upstreamsClosedAfterEach();

/**
 * Request lines sent through the recorder (with a query, for some), the Set-Cookie lines its
 * upstream answers, and the credentials that must not be in the HAR in clear. The upstream echoes
 * the request's Authorization and target in its answer's body, as a 401 quoting them does.
 */
const CASES: {
  name: string;
  request: string[];
  query?: string;
  setCookie?: string[];
  secrets: string[];
}[] = [
  { name: 'a short cookie', request: ['Cookie: a=abc'], secrets: ['abc'] },
  { name: 'a cookie with no value', request: ['Cookie: a=; b'], secrets: [] },
  {
    name: 'cookies joined by commas',
    request: ['Cookie: a=Secret1, tok=Secret2'],
    secrets: ['Secret1', 'Secret2'],
  },
  {
    name: 'a cookie name holding a comma',
    request: ['Cookie: x,y=Secret3; z=Secret4'],
    secrets: ['Secret3', 'Secret4'],
  },
  { name: 'a quoted cookie', request: ['Cookie: q="Quoted Secret"'], secrets: ['Quoted Secret'] },
  {
    name: 'Bearer with a trailing word',
    request: ['Authorization: Bearer KeyOne extra words'],
    secrets: ['KeyOne'],
  },
  {
    name: 'Basic with a trailing word',
    request: [`Authorization: Basic ${Buffer.from('12345:KeyTwo').toString('base64')} trailing`],
    secrets: ['KeyTwo', Buffer.from('12345:KeyTwo').toString('base64')],
  },
  {
    name: 'Token parameters',
    request: ['Authorization: Token token=KeyThree, realm="x"'],
    secrets: ['KeyThree'],
  },
  { name: 'a scheme alone', request: ['Authorization: Bearer'], secrets: [] },
  { name: 'a short bearer', request: ['Authorization: Bearer ab'], secrets: [] },
  {
    name: 'a Proxy-Authorization',
    request: ['Proxy-Authorization: Digest username="u", response="Resp0nse"'],
    secrets: ['Resp0nse'],
  },
  {
    name: 'Basic of a key only',
    request: [`Authorization: Basic ${Buffer.from('KeyFour').toString('base64')}`],
    secrets: ['KeyFour'],
  },
  { name: 'Basic not base64', request: ['Authorization: Basic !!not-base64!!'], secrets: [] },
  {
    name: 'a set cookie',
    request: [],
    setCookie: ['sid=SetSecret1; Path=/; HttpOnly'],
    secrets: ['SetSecret1'],
  },
  {
    name: 'cookies folded into one Set-Cookie line',
    request: [],
    setCookie: ['a=SetSecret2; Path=/, b=SetSecret3; Path=/'],
    secrets: ['SetSecret2', 'SetSecret3'],
  },
  {
    name: 'a short cookie folded into a Set-Cookie line',
    request: [],
    setCookie: ['a=SetSecret5; Path=/, b=xy,z; Path=/'],
    secrets: ['SetSecret5', 'b=xy', 'z;'],
  },
  {
    name: 'a Set-Cookie with an Expires date',
    request: [],
    setCookie: ['c=SetSecret4; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, d=q'],
    secrets: ['SetSecret4', 'd=q'],
  },
  {
    name: 'a Set-Cookie name holding a comma',
    request: [],
    setCookie: ['x,y=SetSecret6; Path=/'],
    secrets: ['SetSecret6'],
  },
  {
    name: 'a nameless cookie folded after an attribute',
    request: [],
    setCookie: ['a=SetSecret7; Path=/, NamelessSess0123'],
    secrets: ['SetSecret7', 'NamelessSess0123'],
  },
  {
    name: 'a nameless cookie folded after an Expires date',
    request: [],
    setCookie: ['a=SetSecret8; Expires=Wed, 21 Oct 2026 07:28:00 GMT, "NamelessQuoted9"; Path=/'],
    secrets: ['SetSecret8', 'NamelessQuoted9'],
  },
  {
    name: 'a key with no scheme',
    request: ['Authorization: lin_api_BareKey0123456789'],
    secrets: ['lin_api_BareKey0123456789'],
  },
  {
    name: 'a parameter with no scheme',
    request: ['Authorization: key=BareParamKey01'],
    secrets: ['BareParamKey01'],
  },
  {
    name: "Basic's base64 with no scheme",
    request: [`Authorization: ${Buffer.from('12345:BareBasicKey02').toString('base64')}`],
    secrets: ['BareBasicKey02', Buffer.from('12345:BareBasicKey02').toString('base64')],
  },
  {
    name: 'two credentials in one header',
    request: ['Authorization: Bearer FirstToken0123, Bearer SecondToken0123'],
    secrets: ['FirstToken0123', 'SecondToken0123'],
  },
  {
    name: 'two Basic credentials in one header',
    request: [
      `Authorization: Basic ${Buffer.from('12345:BasicOne01').toString('base64')}, Basic ${Buffer.from('12345:BasicTwo02').toString('base64')}`,
    ],
    secrets: ['BasicOne01', 'BasicTwo02'],
  },
  {
    name: 'a Proxy-Authorization whose token is also in the query',
    request: ['Proxy-Authorization: Bearer ProxyToken0123'],
    query: '?k=ProxyToken0123',
    secrets: ['ProxyToken0123'],
  },
  {
    name: 'a Proxy-Authorization Basic password also in the query',
    request: [
      `Proxy-Authorization: Basic ${Buffer.from('proxyuser:ProxyPass0123').toString('base64')}`,
    ],
    query: '?p=ProxyPass0123',
    secrets: ['ProxyPass0123'],
  },
  { name: 'a short set cookie', request: [], setCookie: ['s=x'], secrets: ['s=x'] },
  {
    name: 'a Set-Cookie with no value',
    request: [],
    setCookie: ['gone=; Max-Age=0'],
    secrets: [],
  },
  {
    name: 'a nameless set cookie',
    request: [],
    setCookie: ['NamelessSetSecret'],
    secrets: ['NamelessSetSecret'],
  },
  // Learned words the recorder writes itself: taken out, they must not leave a line that reads
  // as holding a credential in clear.
  {
    name: 'a set cookie whose value is the word redacted',
    request: [],
    setCookie: ['flag=redacted; Path=/'],
    secrets: ['flag=redacted'],
  },
  {
    name: 'a key that is the name of a Set-Cookie attribute',
    request: ['Authorization: Bearer expires'],
    setCookie: ['sid=SetSecret9; expires=Wed, 21 Oct 2026 07:28:00 GMT'],
    secrets: ['SetSecret9', 'Bearer expires'],
  },
  {
    name: 'a nameless cookie folded after an Expires date cut short',
    request: [],
    setCookie: ['sid=SetSecret10; Expires=Wed, z=ZCookieSecret77'],
    secrets: ['SetSecret10', 'ZCookieSecret77'],
  },
  {
    name: 'a Bearer token in quotes',
    request: ['Authorization: Bearer "QuotedTok111"'],
    query: '?t=QuotedTok111',
    secrets: ['QuotedTok111'],
  },
  {
    name: 'a token parameter ended by a semicolon',
    request: ['Authorization: Token token=SemiTok2222; nonce="def"'],
    query: '?t=SemiTok2222',
    secrets: ['SemiTok2222'],
  },
  {
    name: 'a Bearer token ended by a semicolon',
    request: ['Authorization: Bearer SemiTok3333;nonce=1'],
    query: '?t=SemiTok3333',
    secrets: ['SemiTok3333'],
  },
  {
    name: 'a scheme joined to its key by a colon',
    request: ['Authorization: Bearer:JoinedTok4444'],
    query: '?t=JoinedTok4444',
    secrets: ['JoinedTok4444'],
  },
  {
    name: 'two Proxy-Authorization headers',
    request: ['Proxy-Authorization: Bearer PFirst0123', 'Proxy-Authorization: Bearer PSecond0123'],
    query: '?a=PFirst0123&b=PSecond0123',
    secrets: ['PFirst0123', 'PSecond0123'],
  },
];

/** GET /lists through the recorder at `baseUrl` with header lines as sent; the answer's text. */
async function listsThrough(baseUrl: string, headers: string[], query = ''): Promise<string> {
  const { text } = await exchange(
    { url: baseUrl, ca: undefined },
    [
      `GET /marketing/v1/lists${query} HTTP/1.1`,
      `Host: ${new URL(baseUrl).host}`,
      ...headers,
      'Connection: close',
      '',
      '',
    ].join('\r\n'),
  );
  return text;
}

describe('record continues a HAR it wrote itself', () => {
  it.each(CASES)('after $name', async ({ name, request, query, setCookie, secrets }) => {
    const upstream = await upstreamOf((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (setCookie) res.setHeader('set-cookie', setCookie);
        // Each credential of a list on its own, as a message naming the one it refused does.
        const credentials = (req.headers.authorization ?? '').split(/,\s*/);
        res.end(JSON.stringify({ echo: [...credentials, req.url] }));
      });
    });
    const out = join(folder, `${name.replaceAll(' ', '-')}.har`);
    const first = await startRecorder({ upstream, out, https: false });
    try {
      expect(await listsThrough(first.baseUrl, request, query)).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      await first.close();
    }
    const written = readFileSync(out, 'utf8');
    for (const secret of secrets) expect(written).not.toContain(secret);
    // Then a second run on the same file: it starts, and keeps the first run's entry.
    const second = await startRecorder({ upstream, out, https: false });
    await second.close();
    const entries = (JSON.parse(readFileSync(out, 'utf8')) as { log: { entries: unknown[] } }).log
      .entries;
    expect(entries).toHaveLength(1);
    expect(readFileSync(out, 'utf8')).toBe(written);
  });
});

describe('record keeps the URLs and types that replay reads', () => {
  it('learns no public Digest parameter nor a cookie holding a path, and keeps every URL whole', async () => {
    const upstream = await upstreamOf((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end('[]');
      });
    });
    const out = join(folder, 'urls-kept.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    const digest =
      'Authorization: Digest username="12345", realm="application", nonce="dcd98b7102dd", uri="/marketing/v1/lists", algorithm=SHA-256, qop=auth, nc=00000001, cnonce="0a4f113b", response="6629fae49393a053"';
    try {
      for (const header of [
        digest,
        'Cookie: returnTo=/marketing/v1/lists',
        'Authorization: Digest username="u", opaque="/marketing", response="r0123456"',
        // Values a session may hold that are words of the API's path or its host.
        `Cookie: app=marketing; last=/lists; u=v1/lists; ip=${new URL(upstream).hostname}`,
        `Cookie: at=${new URL(upstream).host}`,
        'Authorization: Bearer /marketing/v1/lists',
        'Accept: application/json',
      ]) {
        expect(await listsThrough(recorder.baseUrl, [header])).toMatch(/^HTTP\/1\.1 200/);
      }
    } finally {
      await recorder.close();
    }
    const har = JSON.parse(readFileSync(out, 'utf8')) as {
      log: {
        entries: {
          request: { url: string; headers: { name: string; value: string }[] };
          response: { headers: { name: string; value: string }[] };
        }[];
      };
    };
    const urls = har.log.entries.map((entry) => entry.request.url);
    const types = har.log.entries.map(
      (entry) => entry.response.headers.find((h) => h.name === 'content-type')?.value,
    );
    // The Host the upstream saw: the recorder forwards to it.
    const seen = new URL(upstream).host;
    const whole = `http://${seen}/marketing/v1/lists`;
    // Whatever was learned, the upstream's host and the API's words stay: replay reads each URL.
    expect(urls).toEqual(Array(7).fill(whole));
    expect(types).toEqual(Array(7).fill('application/json'));
    expect(JSON.stringify(har)).not.toContain('6629fae49393a053');
  });
});
