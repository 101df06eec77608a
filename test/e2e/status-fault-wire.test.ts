import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { AUTH, makeFake } from '../helpers/fake.js';
import { exchange } from '../helpers/raw-socket.js';
import { listeningFake, OVER_HTTP_AND_HTTPS } from '../helpers/socket-fake.js';

/**
 * A `status` fault gives the client a real final answer, and the journal records exactly that
 * answer (without this, a 100 leaves the client with an interim answer and nothing after it; a
 * 204 or 304 sends no body while the journal records one).
 */
interface WireAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The one answer of a `Connection: close` exchange, split into status, headers and body. */
function parseAnswer(text: string): WireAnswer {
  const end = text.indexOf('\r\n\r\n');
  expect(end, `no complete head in ${JSON.stringify(text.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)![1]),
    headers,
    body: Buffer.from(text.slice(end + 4), 'latin1').toString('utf8'),
  };
}

describe.each(OVER_HTTP_AND_HTTPS)(
  'status faults over %s: the client gets what the journal says',
  (_name, https) => {
    const on = listeningFake(https);

    const request = (accept: string) =>
      [
        'GET /marketing/v1/lists HTTP/1.1',
        'Host: localhost',
        `Authorization: ${AUTH}`,
        `Accept: ${accept}`,
        'Connection: close',
        '',
        '',
      ].join('\r\n');

    it.each([
      [200, 'application/json'],
      [204, 'application/json'],
      [205, 'text/xml'],
      [304, 'application/json'],
      [404, 'text/xml'],
      [418, 'application/json'],
      [429, 'application/json'],
      [500, 'text/xml'],
      [599, 'application/json'],
    ])('status %i (%s)', async (status, accept) => {
      on.fake.faults.clear();
      on.fake.clearRequests();
      on.fake.faults.add({ kind: 'status', status, times: 1 });
      const { text, closed } = await exchange(on.target, request(accept));
      expect(closed).toBe(true);
      const wire = parseAnswer(text);
      const [entry] = on.fake.requests();
      expect(entry).toBeDefined();
      expect(entry!.fault).toBe('status');
      expect(wire.status).toBe(status);
      expect(entry!.status).toBe(wire.status);
      expect(entry!.response.status).toBe(wire.status);
      const recorded = entry!.response.body ?? '';
      expect(recorded).toBe(wire.body);
      if ([204, 205, 304].includes(status)) {
        expect(wire.body).toBe('');
        expect(wire.headers['content-type']).toBeUndefined();
      } else {
        expect(wire.body).toContain(`Injected fault: ${status}`);
        expect(wire.headers['content-length']).toBe(String(Buffer.byteLength(wire.body)));
      }
    });
  },
);

describe('status faults that would give no final answer are refused', () => {
  let fake: FakeMarketingServer;
  beforeAll(async () => {
    fake = await makeFake();
  });
  afterAll(() => fake.close());

  it.each([100, 101, 103, 199, 600])(
    'status %i: 400 naming the range, no rule added',
    async (status) => {
      fake.faults.clear();
      const response = await fake.inject({
        method: 'POST',
        url: '/__admin/faults',
        payload: { kind: 'status', status },
      });
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body).message).toBe(
        'Invalid fault rule: kind "status" needs status, a whole number from 200 to 599 (a 1xx is an interim answer: a client would get no final one).',
      );
      expect(fake.faults.list()).toEqual([]);
    },
  );
});
