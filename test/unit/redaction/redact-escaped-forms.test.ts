import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../../src/redaction/redact.js';
import { redactForms } from '../../../src/redaction/secret-encodings.js';
import { compileSecrets } from '../../../src/redaction/secret-set.js';
import { addServerOverHttp, basic, call, useFake } from '../../helpers/fake.js';

/**
 * A key holding `/` sent with JSON's legal `\/` escape (PHP's json_encode writes it by default),
 * and a key holding `'` sent as `&apos;` (or `&#39;`, `&#x27;`), were kept in clear by the journal,
 * the HAR, `record` and `verify`.
 */
const SLASH_KEY = 'abc/def-secret';
const QUOTE_KEY = "abc'defgh";
const BOTH_KEY = `ab/c'd"ef/gh`;

const redactorOf = (secrets: string[]) =>
  new Redactor({ revision: () => 1, secrets: () => secrets }, 64 * 1024);

/** Every way the body goes through the journal's redactor, and verify's. */
function redactedEverywhere(secret: string, text: string): string[] {
  const redactor = redactorOf([secret]);
  const verify = compileSecrets([secret], 1)!;
  return [
    String(redactor.body(text)),
    String(redactor.body(Buffer.from(text))),
    redactor.url(`/marketing/v1/lists?q=${text}`),
    String(redactor.requestHeaders({ 'x-note': text })['x-note']),
    redactForms(text, verify.text, false),
  ];
}

describe('a key with "/" sent JSON-escaped as "\\/"', () => {
  const spellings = [
    ['every slash escaped', 'abc\\/def-secret'],
    ['behind more backslashes (JSON quoted in JSON)', 'abc\\\\\\/def-secret'],
    ['mixed with \\u escapes', 'ab\\u0063\\/def-secr\\u0065t'],
  ] as const;

  for (const [name, spelt] of spellings) {
    it(`is redacted in bodies, URLs and headers, and by verify: ${name}`, () => {
      const text = `{"emailAddress":"${spelt}@example.com"}`;
      for (const redacted of redactedEverywhere(SLASH_KEY, text)) {
        expect(redacted).not.toContain(spelt);
        expect(redacted).toContain(REDACTED);
      }
      expect(JSON.parse(String(redactorOf([SLASH_KEY]).body(text)))).toEqual({
        emailAddress: `${REDACTED}@example.com`,
      });
    });
  }

  it('a key with several slashes, only some escaped', () => {
    const key = 'a/b/c/d-secret';
    const text = '{"note":"a\\/b/c\\/d-secret"}';
    for (const redacted of redactedEverywhere(key, text)) expect(redacted).not.toMatch(/d-secret/);
  });

  it('"\\/" without a key behind it leaves the body as it was', () => {
    const body = Buffer.from('{"url":"https:\\/\\/example.com\\/a"}');
    expect(redactorOf([SLASH_KEY]).body(body)).toBe(body);
  });
});

describe('a key with "\'" sent XML-escaped', () => {
  for (const apostrophe of ['&apos;', '&#39;', '&#x27;', '&#X27;']) {
    it(`is redacted as ${apostrophe}, in text and in attributes`, () => {
      const spelt = QUOTE_KEY.replace("'", apostrophe);
      for (const redacted of redactedEverywhere(QUOTE_KEY, `{"firstName":"see ${spelt}"}`)) {
        expect(redacted).not.toContain(spelt);
        expect(redacted).toContain(REDACTED);
      }
      const attribute = BOTH_KEY.replace("'", apostrophe).replace('"', '&quot;');
      const xml = `<contact note="${attribute}"/>`;
      for (const redacted of redactedEverywhere(BOTH_KEY, xml)) {
        expect(redacted).toMatch(new RegExp(`(^|q=)<contact note="${REDACTED}"/>$`));
      }
    });
  }
});

describe('through the fake: the journal and its HAR', () => {
  const fake = useFake();

  it('keep neither the "\\/" nor the "&apos;" spelling of a key', async () => {
    for (const [key, spelt] of [
      [SLASH_KEY, 'abc\\/def-secret'],
      [QUOTE_KEY, 'abc&apos;defgh'],
    ] as const) {
      const serverId = await addServerOverHttp(fake, key);
      await call(fake, 'PUT', 'lists/1/contacts', {
        auth: basic(serverId, key),
        headers: { 'content-type': 'application/json' },
        body: `{"emailAddress":"x@example.com","note":"${spelt}"}`,
      });
      const journal = (await fake.inject({ url: '/__admin/requests' })).body;
      const har = (await fake.inject({ url: '/__admin/requests.har' })).body;
      for (const text of [journal, har]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(spelt);
        expect(text).not.toContain(JSON.stringify(spelt).slice(1, -1));
        expect(text).toContain(REDACTED);
      }
    }
  });
});
