import fc from 'fast-check';
import querystring from 'fast-querystring';
import { describe, expect, it } from 'vitest';
import { replayHar, replayReportText } from '../../src/index.js';
import { secretHider } from '../../src/redaction/hide-secrets.js';
import { REDACTED, Redactor } from '../../src/redaction/redact.js';
import { browserHar } from '../helpers/browser-har.js';
import { addServerOverHttp, basic, call, useFake } from '../helpers/fake.js';

/**
 * A key holding `/` and `+` sent with only some of its characters percent-escaped (`Tk/9%2Bab...`,
 * as Python's `urllib.parse.quote` writes it, or `Tk%2f9+ab...`) was kept in clear by the journal
 * (URL, query, bodies), its HAR, record's HAR and replay's report. Whatever subset of a key's
 * characters is escaped, in whatever hex case, in a path, a query, a form or a JSON body, none of
 * them holds the key.
 */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Keys drawn from the base64 or base64url alphabet, as key generators make them. */
const keyOf = (alphabet: string) =>
  fc
    .array(fc.constantFrom(...alphabet), { minLength: 8, maxLength: 24 })
    .map((chars) => chars.join(''));
/** Base64 keys always hold both `/` and `+` here: the mix that was kept in clear. */
const KEY = fc.oneof(
  keyOf(BASE64).map((key) => `${key.slice(0, 3)}/${key.slice(3, 6)}+${key.slice(6)}`),
  keyOf(BASE64),
  keyOf(BASE64URL),
);

/** Each character escaped or not, each escape's hex digits in either case. */
const spellingOf = (key: string) =>
  fc
    .array(fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()), {
      minLength: key.length,
      maxLength: key.length,
    })
    .map((choices) =>
      [...key]
        .map((char, index) => {
          const [escaped, upperHigh, upperLow] = choices[index]!;
          if (!escaped) return char;
          const [high, low] = char.charCodeAt(0).toString(16).padStart(2, '0');
          const digit = (d: string, upper: boolean) => (upper ? d.toUpperCase() : d.toLowerCase());
          return `%${digit(high!, upperHigh)}${digit(low!, upperLow)}`;
        })
        .join(''),
    );

const CASE = KEY.chain((key) => spellingOf(key).map((spelt) => ({ key, spelt })));

/**
 * Whether a text still tells the key: as is, or once every percent escape is read (a `+` and a
 * space read alike, as a form decoder mixes them up).
 */
function reveals(text: string, key: string): boolean {
  const fold = (value: string) => value.replace(/ /g, '+');
  const decoded = text.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return text.includes(key) || fold(decoded).includes(fold(key));
}

/** Where the key goes: the URL path, the query, a form body, a JSON body. */
const places = (spelt: string) => ({
  path: `/marketing/v1/lists/${spelt}`,
  query: `/marketing/v1/lists?apikey=${spelt}&x=1`,
  form: `apikey=${spelt}&emailAddress=a%40example.com`,
  json: `{"emailAddress":"a@example.com","note":"${spelt}"}`,
});

describe('a key with some of its characters percent-escaped', () => {
  it("redacts the known spellings: Python's quote, and %2f or %2b in lower case", () => {
    const key = 'Tk/9+ab_cDe-77Q';
    const redactor = new Redactor({ revision: () => 1, secrets: () => [key] }, 64 * 1024);
    for (const spelt of ['Tk/9%2Bab_cDe-77Q', 'Tk%2f9+ab_cDe-77Q', 'Tk/9%2bab_cDe-77Q']) {
      const url = `/marketing/v1/lists?apikey=${spelt}`;
      expect(redactor.url(url)).toBe(`/marketing/v1/lists?apikey=${REDACTED}`);
      expect(redactor.body(`{"firstName":"${spelt}"}`)).toBe(`{"firstName":"${REDACTED}"}`);
      const query = redactor.query(querystring.parse(`apikey=${spelt}`));
      expect(query).toEqual({ apikey: REDACTED });
    }
  });

  it('the redactor (URL, query, headers, bodies) and the reports never keep it', () => {
    fc.assert(
      fc.property(CASE, ({ key, spelt }) => {
        const redactor = new Redactor({ revision: () => 1, secrets: () => [key] }, 64 * 1024);
        const hide = secretHider([key]);
        for (const text of Object.values(places(spelt))) {
          const outputs = [
            redactor.url(text),
            String(redactor.body(text)),
            String(redactor.body(Buffer.from(text, 'latin1'))),
            String(redactor.requestHeaders({ 'x-note': text })['x-note']),
            hide(text),
          ];
          const mark = text.indexOf('?');
          const query = mark === -1 ? text : text.slice(mark + 1);
          outputs.push(JSON.stringify(redactor.query(querystring.parse(query))));
          for (const output of outputs) {
            expect(reveals(output, key), `${output} (key ${key})`).toBe(false);
            expect(output).toContain(REDACTED);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('among many keys (the index of first characters), too', () => {
    const others = Array.from({ length: 60 }, (_, index) => `other-key-${index}`);
    fc.assert(
      fc.property(CASE, ({ key, spelt }) => {
        const redactor = new Redactor(
          { revision: () => 1, secrets: () => [...others, key] },
          64 * 1024,
        );
        for (const text of Object.values(places(spelt))) {
          expect(reveals(redactor.url(text), key)).toBe(false);
          expect(reveals(String(redactor.body(text)), key)).toBe(false);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('leaves a text without the key as it was', () => {
    fc.assert(
      fc.property(CASE, keyOf(BASE64), ({ spelt }, other) => {
        fc.pre(!reveals(spelt, other) && other.length >= 8);
        const redactor = new Redactor({ revision: () => 1, secrets: () => [other] }, 64 * 1024);
        for (const text of Object.values(places(spelt))) {
          expect(redactor.url(text)).toBe(text);
          expect(redactor.body(text)).toBe(text);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the loose reading keeps everything but the key', () => {
  const redactorOf = (secrets: string[]) =>
    new Redactor({ revision: () => 1, secrets: () => secrets }, 64 * 1024);

  it('takes out only the key: the rest keeps its meaning (escapes in canonical form)', () => {
    const redactor = redactorOf(['Tk/9+ab_cDe-77Q']);
    const url = '/l?next=%2fx%2B&apikey=Tk/9%2Bab_cDe-77Q&q=a+b%20c';
    expect(redactor.url(url)).toBe(`/l?next=%2Fx%2B&apikey=${REDACTED}&q=a+b%20c`);
    expect(redactor.body('{"a":"x y","b":"Tk%2F9+ab_cDe-77Q z"}')).toBe(
      `{"a":"x y","b":"${REDACTED} z"}`,
    );
    // A form decoder read the `+` as a space: the decoded query value spells it that way.
    expect(redactor.query({ apikey: 'Tk/9 ab_cDe-77Q', other: 'x y' })).toEqual({
      apikey: REDACTED,
      other: 'x y',
    });
  });

  it('reads UTF-8 escapes as characters in text and as bytes on the wire', () => {
    const key = 'clé/sécrète+1';
    const spelt = 'cl%C3%A9/s%c3%a9cr%C3%A8te%2B1';
    const redactor = redactorOf([key]);
    expect(redactor.body(`{"note":"${spelt}"}`)).toBe(`{"note":"${REDACTED}"}`);
    expect(String(redactor.body(Buffer.from(`{"note":"${spelt}"}`)))).toBe(
      `{"note":"${REDACTED}"}`,
    );
    expect(secretHider([key])(`x ${spelt} y`)).toBe(`x ${REDACTED} y`);
    // Escapes that spell no character stay as written around the key.
    expect(secretHider([key])(`%C3%28 ${spelt} %E2%82`)).toBe(`%C3( ${REDACTED} %E2%82`);
  });

  it('a key with a space, the space as `+` and a slash escaped', () => {
    const redactor = redactorOf(['my key/is+long']);
    expect(redactor.url('/l?k=my+key%2Fis%2Blong')).toBe(`/l?k=${REDACTED}`);
    expect(redactor.query({ k: 'my key/is long' })).toEqual({ k: REDACTED });
  });

  it('a key whose URL-safe runs are all short is still found', () => {
    const key = 'ab/cd+ef/gh+ij';
    expect(redactorOf([key]).url('/l?k=ab/cd%2Bef/gh%2bij')).toBe(`/l?k=${REDACTED}`);
  });

  it('a key without "+" never reads a space as "+"', () => {
    const redactor = redactorOf(['Tk/9-ab_cDe-77Q']);
    const query = { k: 'Tk/9 ab_cDe-77Q' };
    expect(redactor.query(query)).toBe(query);
  });
});

describe('through the fake and replay', () => {
  const fake = useFake({ perFile: true });

  it('the journal, its HAR and replay report never hold the key', async () => {
    await fc.assert(
      fc.asyncProperty(CASE, async ({ key, spelt }) => {
        await fake.inject({ method: 'DELETE', url: '/__admin/requests' });
        const serverId = await addServerOverHttp(fake, key);
        const auth = basic(serverId, key);
        const at = places(spelt);
        await call(fake, 'GET', at.path, { auth });
        await call(fake, 'GET', at.query, { auth });
        await call(fake, 'PUT', 'lists/1/contacts', {
          auth,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: at.form,
        });
        await call(fake, 'PUT', 'lists/1/contacts', {
          auth,
          headers: { 'content-type': 'application/json' },
          body: at.json,
        });
        const journal = (await fake.inject({ url: '/__admin/requests' })).body;
        const har = (await fake.inject({ url: '/__admin/requests.har' })).body;
        const report = replayReportText(
          await replayHar(
            browserHar(
              Object.values(at).map((where) => ({
                method: 'POST',
                path: where.startsWith('/marketing/v1') ? where.slice(13) : '/nothere',
                authorization: auth,
                requestBody: where,
                status: 502,
                responseBody: `gateway: ${where}`,
              })),
            ),
          ),
          'browser.har',
          true,
        );
        for (const text of [journal, har, report]) {
          expect(reveals(text, key), `key ${key} sent as ${spelt}`).toBe(false);
          expect(text).toContain(REDACTED);
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('the admin token', () => {
  const token = 'Tk/9+adminTOKEN_77xyz';
  const fake = useFake({ perFile: true, adminToken: token });

  it('is never kept when sent with some characters escaped in ?token=', async () => {
    const bearer = { authorization: `Bearer ${token}` };
    for (const spelt of ['Tk/9%2BadminTOKEN_77xyz', 'Tk%2f9+adminTOKEN_77xyz']) {
      await call(fake, 'GET', `lists?token=${spelt}`);
      await fake.inject({ url: `/__admin/ui?token=${spelt}` });
    }
    const journal = (await fake.inject({ url: '/__admin/requests', headers: bearer })).body;
    const har = (await fake.inject({ url: '/__admin/requests.har', headers: bearer })).body;
    for (const text of [journal, har]) {
      expect(reveals(text, token)).toBe(false);
      expect(text).toContain(REDACTED);
    }
  });
});
