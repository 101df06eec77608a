import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { checkHeaderFields } from '../../../../src/http/pipeline/guard.js';
import { API_BODY_LIMIT } from '../../../../src/http/route.js';
import { AUTH, useFake } from '../../../helpers/fake.js';

// The request pipeline's Host count and
// body limits, through inject (the same pipeline as a socket) and checkHeaderFields itself.

const fake = useFake();

const DUPLICATE_HOST =
  'The request has more than one Host header; HTTP/1.1 (RFC 9112) allows exactly one.';
const TOO_LARGE = `The request body is larger than ${API_BODY_LIMIT} bytes.`;

describe('two Host headers', () => {
  it.each([
    ['the control API', '/__admin/state'],
    ['the emulated API', '/marketing/v1/lists'],
  ])('are refused with 400 on %s', async (_name, url) => {
    const response = await fake.inject({
      url,
      // light-my-request sends each value of an array as a header of its own.
      headers: { host: ['localhost', 'evil.example'], authorization: AUTH } as unknown as Record<
        string,
        string
      >,
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message: DUPLICATE_HOST });
  });

  it('refuses a second Host on a write and changes nothing', async () => {
    const before = fake.exportState();
    const response = await fake.inject({
      method: 'POST',
      url: '/__admin/reset',
      headers: { host: ['localhost', 'localhost'] } as unknown as Record<string, string>,
    });
    expect(response.statusCode).toBe(400);
    expect(fake.exportState()).toEqual(before);
  });

  it('one Host is answered as usual', async () => {
    const response = await fake.inject({ url: '/__admin/state', headers: { host: 'localhost' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('checkHeaderFields', () => {
  /** What checkHeaderFields passes to done() for a raw header list. */
  function check(rawHeaders: string[]): unknown {
    let passed: unknown = 'not called';
    checkHeaderFields(
      { raw: { rawHeaders } } as unknown as FastifyRequest,
      {} as FastifyReply,
      (error?: unknown) => {
        passed = error;
      },
    );
    return passed;
  }

  it('counts Host in any case, and only Host', () => {
    expect(check(['Host', 'a', 'HOST', 'b'])).toMatchObject({ message: DUPLICATE_HOST });
    expect(check(['host', 'a', 'hOsT', 'a'])).toMatchObject({ message: DUPLICATE_HOST });
    expect(check(['Host', 'a'])).toBeUndefined();
    expect(check(['Host', 'a', 'X-Host', 'b', 'Hosts', 'c', 'ghost', 'd'])).toBeUndefined();
    // Other four-letter names are not Host.
    expect(check(['Date', 'a', 'Host', 'b', 'From', 'c'])).toBeUndefined();
    // Names and values alternate: a value spelt "Host" is no header.
    expect(check(['Host', 'a', 'X-Forwarded-Host', 'Host'])).toBeUndefined();
    expect(check([])).toBeUndefined();
  });

  it('takes 100 header fields and answers 431 for 101, before looking for a second Host', () => {
    const fields = (count: number) =>
      Array.from({ length: count }, (_, index) => [`X-${index}`, 'v']).flat();
    expect(check(['Host', 'a', ...fields(99)])).toBeUndefined();
    expect(check(['Host', 'a', ...fields(98), 'Host', 'b'])).toMatchObject({
      message: DUPLICATE_HOST,
    });
    const tooMany = check(['Host', 'a', ...fields(100)]);
    expect(tooMany).toMatchObject({
      code: 'TOO_MANY_HEADERS',
      status: 431,
      message: 'The request has more than 100 header fields, the most accepted.',
    });
    expect(check(['Host', 'a', ...fields(2100), 'Host', 'b'])).toMatchObject({ status: 431 });
  });
});

describe('the body limit', () => {
  /** A JSON body of exactly `size` bytes that adds a@b.com. */
  function bodyOf(size: number): Buffer {
    const head = '{"emailAddress":"a@b.com","firstName":"';
    const tail = '"}';
    return Buffer.from(`${head}${'x'.repeat(size - head.length - tail.length)}${tail}`);
  }
  const added = () =>
    (fake.exportState().servers[0]!.contacts ?? []).some((c) => c.emailAddress === 'a@b.com');
  const put = (payload: Buffer | Readable, headers: Record<string, string>) =>
    fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: { authorization: AUTH, 'content-type': 'application/json', ...headers },
      payload,
    });

  it('takes a declared length of exactly the limit, and refuses one byte more', async () => {
    const exact = bodyOf(API_BODY_LIMIT);
    const taken = await put(exact, { 'content-length': String(exact.length) });
    expect(taken.statusCode).toBe(200);
    expect(added()).toBe(true);

    const over = bodyOf(API_BODY_LIMIT + 1);
    const refused = await put(over, { 'content-length': String(over.length) });
    expect(refused.statusCode).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({ message: TOO_LARGE });
  });

  it('counts a chunked body as it arrives: exactly the limit passes, one byte more is cut off', async () => {
    const chunked = (body: Buffer) => {
      const half = Math.floor(body.length / 2);
      return Readable.from([body.subarray(0, half), body.subarray(half)]);
    };
    const refused = await put(chunked(bodyOf(API_BODY_LIMIT + 1)), {
      'transfer-encoding': 'chunked',
    });
    expect(refused.statusCode).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({ message: TOO_LARGE });
    expect(added()).toBe(false);
    const taken = await put(chunked(bodyOf(API_BODY_LIMIT)), { 'transfer-encoding': 'chunked' });
    expect(taken.statusCode).toBe(200);
    expect(added()).toBe(true);
  });

  it('reads a small chunked body whole', async () => {
    const body = Buffer.from('{"emailAddress":"chunked@example.com"}');
    const response = await put(Readable.from([body.subarray(0, 10), body.subarray(10)]), {
      'transfer-encoding': 'chunked',
    });
    expect(response.statusCode).toBe(200);
    expect(
      (fake.exportState().servers[0]!.contacts ?? []).some(
        (c) => c.emailAddress === 'chunked@example.com',
      ),
    ).toBe(true);
  });

  it('keeps the bytes of a JSON body that does not parse, for the journal', async () => {
    const response = await put(Buffer.from('{"emailAddress":'), {});
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).message).toMatch(/^The request body is not valid JSON: /);
    const [entry] = fake.requests();
    expect(entry!.request.body).toBe('{"emailAddress":');
  });
});
