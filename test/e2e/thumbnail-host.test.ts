import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { AUTH, makeFake } from '../helpers/fake.js';
import { send } from '../helpers/request.js';

/**
 * `thumbnailUrl` always points at the fake: a Host header is used only when it is one host and
 * an optional port; anything else (a hostile client's `localhost:P@evil.example`, `a"b<c>&d`)
 * falls back to the address the connection came in on.
 */
describe.each([
  ['HTTP', false],
  ['HTTPS', true],
] as const)('thumbnailUrl over %s, whatever the Host', (_name, https) => {
  let fake: FakeMarketingServer;
  let url: string;
  let ca: string | undefined;
  let port: string;
  beforeAll(async () => {
    fake = await makeFake();
    ({ url, ca } = await fake.listen({ https }));
    port = new URL(url).port;
  });
  afterAll(() => fake.close());

  const scheme = https ? 'https:' : 'http:';
  const request = (target: string, host: string | undefined, authorization?: string) =>
    send(target, {
      ca,
      servername: 'localhost',
      headers: {
        ...(host === undefined ? {} : { host }),
        ...(authorization ? { authorization } : {}),
      },
    });

  async function thumbnailUrls(host: string): Promise<string[]> {
    const response = await request(`${url}/marketing/v1/content`, host, AUTH);
    expect(response.status, host).toBe(200);
    const items = JSON.parse(response.body) as { thumbnailUrl: string }[];
    expect(items.length).toBeGreaterThan(0);
    return items.map((item) => item.thumbnailUrl);
  }

  // PORT stands for the fake's port, known once it listens.
  it.each([
    'localhost:PORT@evil.example',
    'a"b<c>&d',
    'user:pass@localhost:PORT',
    'evil.example/path',
    'evil.example?x=1',
    'evil.example#x',
    'localhost:99999',
    'localhost:0',
    'localhost:',
    'localhost:80:80',
    '[::1',
    '[not-v6]:80',
    'evil example',
    '',
    // A name that ends in a number is an IPv4 address to a URL parser, and these are none: a URL
    // built on them does not parse.
    '256.1.1.1',
    '1.2.3.4.5',
    '999.1.1.1:PORT',
    'a.1',
    'a.0x1f:PORT',
    '127.1',
    '0x7f.0.0.1',
    '127.0.0.1.',
    '12345',
  ])(
    'Host %j, not host[:port], gives a URL on the address the fake listens on, which serves the PNG',
    async (template) => {
      const host = template.replaceAll('PORT', port);
      for (const thumbnail of await thumbnailUrls(host)) {
        expect(URL.canParse(thumbnail), `${host} -> ${thumbnail}`).toBe(true);
        const parsed = new URL(thumbnail);
        expect(parsed.protocol).toBe(scheme);
        expect(parsed.host, `${host} -> ${thumbnail}`).toBe(`127.0.0.1:${port}`);
        expect(parsed.username).toBe('');
        expect(parsed.href).toBe(thumbnail);
        const image = await request(thumbnail, undefined);
        expect(image.status).toBe(200);
        expect(image.headers['content-type']).toBe('image/png');
      }
    },
  );

  it('a Host that is host[:port] is kept: the client reached the fake under that name', async () => {
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'api.example',
      `${'a'.repeat(70)}.example`,
      '1a.example',
      'x.1a',
    ]) {
      for (const thumbnail of await thumbnailUrls(host)) {
        expect(new URL(thumbnail).host).toBe(host);
        expect(thumbnail.startsWith(`${scheme}//${host}/thumbnails/`)).toBe(true);
      }
    }
  });

  it('the control API content route builds its URLs the same way', async () => {
    const response = await request(`${url}/__admin/servers/1234/content`, `localhost:${port}`);
    expect(response.status).toBe(200);
    const [item] = JSON.parse(response.body) as { thumbnailUrl: string }[];
    expect(new URL(item!.thumbnailUrl).host).toBe(`localhost:${port}`);
  });
});
