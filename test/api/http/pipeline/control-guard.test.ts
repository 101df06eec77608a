import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, KEY, SERVER_ID, useFake } from '../../../helpers/fake.js';

const fake = useFake();

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

const admin = (method: Method, path: string, headers: Record<string, string> = {}) =>
  call(fake, method, `/__admin${path}`, { headers, auth: null });

/** A path glob that used to take seconds per entry: a refused call must never reach the filter. */
const SLOW_GLOB = `/${'a*'.repeat(12)}b`;

describe('the control API refuses requests a browser sent from another site, reads included', () => {
  const foreign: [string, Record<string, string>][] = [
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: CROSS-SITE', { 'sec-fetch-site': 'CROSS-SITE' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['Sec-Fetch-Site: Same-Site', { 'sec-fetch-site': 'Same-Site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['another port of the same host', { origin: 'http://localhost:3000' }],
    ['Origin: null (a sandboxed frame, a file)', { origin: 'null' }],
  ];
  const calls: [Method, string][] = [
    ['GET', '/state'],
    ['GET', '/requests?status=teapot'],
    ['GET', `/requests?path=${encodeURIComponent(SLOW_GLOB)}`],
    ['GET', `/requests.har?path=${encodeURIComponent(SLOW_GLOB)}`],
    ['GET', `/requests/wait?timeoutMs=60000&path=${encodeURIComponent(SLOW_GLOB)}`],
    ['GET', '/ui'],
    ['GET', `/servers/${SERVER_ID}/content`],
    ['GET', '/no-such-route'],
    ['HEAD', '/state'],
    ['POST', '/reset'],
    ['PUT', `/servers/${SERVER_ID}/max-contacts`],
    ['DELETE', '/requests'],
    // A tenant's routes too: a foreign page must not make, read or remove one.
    ['POST', '/tenants'],
    ['GET', `/tenants/${SERVER_ID}/requests`],
    ['GET', `/tenants/${SERVER_ID}/state`],
    ['POST', `/tenants/${SERVER_ID}/maintenance`],
    ['DELETE', `/tenants/${SERVER_ID}`],
  ];

  it.each(foreign)('%s: 403 on every method and route, before any work', async (_name, headers) => {
    await call(fake, 'GET', 'lists');
    const before = fake.exportState();
    for (const [method, path] of calls) {
      const response = await admin(method, path, headers);
      expect(response.status, `${method} ${path}`).toBe(403);
      if (method !== 'HEAD') {
        // Not "Bad filter" (400), not a held wait: the route never ran.
        expect(response.json().message, `${method} ${path}`).toContain(
          'is refused, reads included',
        );
        expect(response.body).not.toContain(KEY);
      }
    }
    expect(fake.exportState()).toEqual(before);
    expect(fake.requests()).toHaveLength(1);
  });

  it('takes reads and writes from its own origin, from a typed address, and from non-browsers', async () => {
    const own: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80' },
      { 'sec-fetch-site': 'SAME-ORIGIN' },
      { 'sec-fetch-site': 'none' },
    ];
    for (const headers of own) {
      expect((await admin('GET', '/state', headers)).status).toBe(200);
      expect((await admin('GET', '/requests', headers)).status).toBe(200);
      expect((await admin('POST', '/reset', headers)).status).toBe(204);
    }
  });

  it('sends Cross-Origin-Resource-Policy: same-origin on every control answer, refusals included', async () => {
    const answers = [
      await admin('GET', '/state'),
      await admin('GET', '/ui'),
      await admin('GET', '/no-such-route'),
      await admin('GET', '/requests?status=teapot'),
      await admin('POST', '/reset', { 'sec-fetch-site': 'cross-site' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 400, 403]);
    for (const answer of answers) {
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });
});

describe('the inspector page cannot be framed and leaks nothing through its address', () => {
  it('sends X-Frame-Options, Referrer-Policy and a policy that allows its own script and style only', async () => {
    const page = await admin('GET', '/ui');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const policy = String(page.headers['content-security-policy']);
    const directives = new Map(
      policy.split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(policy).not.toContain('unsafe-inline');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const styles = [...page.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(directives.get('script-src')).toEqual([hash(scripts[0]!)]);
    expect(directives.get('style-src')).toEqual([hash(styles[0]!)]);
    // No inline handlers or style attributes, which the policy would block.
    expect(page.body).not.toMatch(/\son[a-z]+=|\sstyle=/);
  });

  it('reads through the control API only: nothing of the emulated API in the page', async () => {
    const page = await admin('GET', '/ui');
    expect(page.body).not.toContain('/marketing/');
    expect(page.body).not.toContain('.key');
    expect(page.body).toContain('history.replaceState');
  });
});

describe('GET /__admin/servers/:serverId/content', () => {
  it('answers what GET /content answers, journals nothing, and 404s an unknown server', async () => {
    const control = await admin('GET', `/servers/${SERVER_ID}/content`);
    expect(control.status).toBe(200);
    expect(fake.requests()).toEqual([]);
    const api = await call(fake, 'GET', 'content');
    const strip = (items: { thumbnailUrl: string }[]) =>
      items.map(({ thumbnailUrl, ...rest }) => ({
        ...rest,
        thumbnail: /\/thumbnails\//.test(thumbnailUrl),
      }));
    expect(strip(control.json())).toEqual(strip(api.json()));
    expect(strip(control.json())).toHaveLength(2);
    const thumbnail = await fake.inject({ url: new URL(control.json()[0].thumbnailUrl).pathname });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/png');
    expect(fake.requests()).toHaveLength(1);
    expect((await admin('GET', '/servers/4321/content')).status).toBe(404);
    expect((await admin('GET', '/servers/abc/content')).status).toBe(404);
  });
});

describe('the control API takes one host (and a port) in Host, nothing else', () => {
  const state = (host: string) => fake.inject({ url: '/__admin/state', headers: { host } });

  it.each([
    ['a second host after a comma', '127.0.0.1:8080, evil.example'],
    ['a second host after a comma, no port', 'localhost,evil.example'],
    ['a space and a name', '127.0.0.1 evil.example'],
    ['an IP address with a trailing dot (no address in its own form)', '127.0.0.1.'],
    ['an IP address with a trailing dot and a port', '127.0.0.1.:8080'],
    ['user info', 'evil.example@127.0.0.1'],
    ['a path', '127.0.0.1/evil.example'],
    ['a bracketed name that is no IPv6 address', '[evil.example]:80'],
    ['two ports', '127.0.0.1:80:80'],
  ])('refuses %s: 403, the route never runs', async (_name, host) => {
    const before = fake.exportState();
    const refused = await state(host);
    expect(refused.statusCode, host).toBe(403);
    expect(JSON.parse(refused.body).message).toContain('is not allowed on the control API');
    expect(refused.body).not.toContain(KEY);
    const reset = await fake.inject({ method: 'POST', url: '/__admin/reset', headers: { host } });
    expect(reset.statusCode, host).toBe(403);
    expect(fake.exportState()).toEqual(before);
  });

  it.each([
    '127.0.0.1',
    '127.0.0.1:8080',
    '[::1]:8080',
    '[::1]',
    'localhost',
    'LOCALHOST:80',
    'localhost.',
    'sandbox.localhost:3000',
  ])('takes %s', async (host) => {
    expect((await state(host)).statusCode).toBe(200);
  });
});
