import { describe, expect, it } from 'vitest';
import {
  BODY_SHOWN,
  expectRefused,
  expectStatus,
  jsonOf,
  Mismatch,
  mediaType,
  Skip,
  showAnswer,
  tryJson,
  xmlOf,
} from '../../../src/verify/check-kit.js';
import type { Answer } from '../../../src/verify/http-client.js';
import { thrownBy } from '../../helpers/thrown.js';

const answer = (status: number, body = '', contentType = 'application/json'): Answer => ({
  status,
  contentType,
  body,
});

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('showAnswer', () => {
  it(`shows a body of ${BODY_SHOWN} characters whole and cuts a longer one, saying its length`, () => {
    const whole = 'a'.repeat(BODY_SHOWN);
    expect(showAnswer(answer(200, whole))).toEqual({
      status: 200,
      contentType: 'application/json',
      body: whole,
    });
    expect(showAnswer(answer(500, `${whole}bc`, 'text/plain')).body).toBe(
      `${whole}... (${BODY_SHOWN + 2} characters)`,
    );
  });

  it('says (none) for an answer without a Content-Type', () => {
    expect(showAnswer(answer(204, '', '')).contentType).toBe('(none)');
  });
});

describe('Mismatch and Skip', () => {
  it('say what came back and what was wanted, under their own names', () => {
    const mismatch = new Mismatch('status 200', 'status 500');
    expect(mismatch.message).toBe('status 500 (wanted status 200)');
    expect(mismatch.name).toBe('Mismatch');
    expect(new Skip('why').name).toBe('Skip');
  });
});

describe('mediaType', () => {
  it('is the type in lower case, without parameters or spaces', () => {
    expect(mediaType(answer(200, '', ' Text/XML ; charset=utf-8'))).toBe('text/xml');
    expect(mediaType(answer(200, '', ''))).toBe('');
  });
});

describe('expectStatus', () => {
  it.each([200, 204, 299])('accepts %i as a 2xx success', (status) => {
    expect(() => expectStatus(answer(status), '2xx')).not.toThrow();
  });

  it.each([199, 300, 404])('refuses %i as no 2xx success', (status) => {
    const mismatch = thrownBy(() => expectStatus(answer(status), '2xx', 'the PUT: '), Mismatch);
    expect(mismatch.wanted).toBe('the PUT: status a 2xx success');
    expect(mismatch.got).toBe(`the PUT: status ${status}`);
    expect(mismatch.answer?.status).toBe(status);
  });

  it('accepts only the one status asked for', () => {
    expect(() => expectStatus(answer(201), 201)).not.toThrow();
    const mismatch = thrownBy(() => expectStatus(answer(200), 201), Mismatch);
    expect([mismatch.wanted, mismatch.got]).toEqual(['status 201', 'status 200']);
  });

  it('accepts any status of a list and names them all when refusing', () => {
    expect(() => expectStatus(answer(404), [400, 404])).not.toThrow();
    const mismatch = thrownBy(() => expectStatus(answer(200), [400, 404]), Mismatch);
    expect([mismatch.wanted, mismatch.got]).toEqual(['status 400 or 404', 'status 200']);
  });
});

describe('expectRefused', () => {
  it.each([400, 404, 499])('accepts %i as a refusal', (status) => {
    expect(() => expectRefused(answer(status))).not.toThrow();
  });

  it.each([200, 399, 500, 503])('refuses %i as no refusal', (status) => {
    const mismatch = thrownBy(() => expectRefused(answer(status), 'the DELETE: '), Mismatch);
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'the DELETE: a refusal (4xx)',
      `the DELETE: status ${status}`,
    ]);
    const bare = thrownBy(() => expectRefused(answer(status)), Mismatch);
    expect([bare.wanted, bare.got]).toEqual(['a refusal (4xx)', `status ${status}`]);
  });
});

describe('tryJson', () => {
  it('reads JSON nested up to 100 levels, and nothing from a body that is not JSON or nested deeper', () => {
    expect(tryJson(answer(200, '{"a":[1]}'))).toEqual({ a: [1] });
    expect(tryJson(answer(200, nested(100)))).toBeInstanceOf(Array);
    expect(tryJson(answer(200, nested(101)))).toBeUndefined();
    expect(tryJson(answer(200, '{"a":'))).toBeUndefined();
  });
});

describe('jsonOf', () => {
  it('reads JSON', () => {
    expect(jsonOf(answer(200, '[1,2]'))).toEqual([1, 2]);
  });

  it('fails a body that is not JSON, naming what was read', () => {
    const bare = thrownBy(() => jsonOf(answer(200, '<a/>')), Mismatch);
    expect([bare.wanted, bare.got]).toEqual(['a JSON body', 'a body that is not JSON']);
    const named = thrownBy(() => jsonOf(answer(200, ''), 'the list: '), Mismatch);
    expect([named.wanted, named.got]).toEqual([
      'the list: a JSON body',
      'the list: a body that is not JSON',
    ]);
  });

  it('fails JSON nested deeper than 100 levels as not JSON, saying so', () => {
    const bare = thrownBy(() => jsonOf(answer(200, nested(101))), Mismatch);
    expect([bare.wanted, bare.got]).toEqual(['a JSON body', 'JSON nested deeper than 100 levels']);
    const named = thrownBy(() => jsonOf(answer(200, nested(101)), 'the list: '), Mismatch);
    expect([named.wanted, named.got]).toEqual([
      'the list: a JSON body',
      'the list: JSON nested deeper than 100 levels',
    ]);
  });
});

describe('xmlOf', () => {
  it('reads the root element, and fails a body that is not well-formed XML', () => {
    expect(xmlOf(answer(200, '<a><b>1</b></a>')).name).toBe('a');
    const named = thrownBy(() => xmlOf(answer(200, '<a>'), 'the list: '), Mismatch);
    expect([named.wanted, named.got]).toEqual([
      'the list: a well-formed XML body',
      'the list: a body that is not XML',
    ]);
    const bare = thrownBy(() => xmlOf(answer(200, '{}')), Mismatch);
    expect([bare.wanted, bare.got]).toEqual(['a well-formed XML body', 'a body that is not XML']);
  });
});
