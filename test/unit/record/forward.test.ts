import { describe, expect, it } from 'vitest';
import { parseUpstream } from '../../../src/record/forward.js';

/**
 * Refusing a mis-typed credentialed `--upstream` repeated the key. A message about `--upstream`
 * shows what it can of the address (its origin, or for text that is no URL the host part) and never
 * credentials, a path, a query or a fragment.
 */
const KEY = 'sandbox-key-12345';

function messageOf(upstream: string): string {
  try {
    parseUpstream(upstream);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${upstream} was accepted`);
}

describe('parseUpstream: what its refusals show', () => {
  it.each([
    [`http:/12345:${KEY}@127.0.0.1:19290`, 'http://127.0.0.1:19290'],
    [`http:\\\\12345:${KEY}@127.0.0.1:19290`, 'http://127.0.0.1:19290'],
    [`HTTPS://${KEY}@Api.Example.com:443/marketing/v1?k=${KEY}#${KEY}`, 'https://api.example.com'],
  ])('credentials (%s): the origin only', (upstream, origin) => {
    const message = messageOf(upstream);
    expect(message).toContain('--upstream must not hold credentials');
    expect(message).toContain(`e.g. '${origin}'`);
    expect(message).not.toContain(KEY);
  });

  it.each([
    ['api.example.com', 'api.example.com'],
    [`api.example.com/${KEY}/marketing/v1`, 'api.example.com'],
    [`http://12345:${KEY}@[bad/marketing`, 'http://[bad'],
    [`12345:${KEY}@exa mple.com?k=${KEY}`, 'exa mple.com'],
    [`http://exa mple.com/marketing/v1#${KEY}`, 'http://exa mple.com'],
  ])('text that is no URL (%s): its host part only', (upstream, shown) => {
    const message = messageOf(upstream);
    expect(message).toBe(
      `--upstream must be a URL such as https://api.example.com, got '${shown}'.`,
    );
    expect(message).not.toContain(KEY);
  });

  it.each([
    ['ftp://example.com', 'ftp:'],
    [`ftp://12345:${KEY}@example.com/x?k=${KEY}`, 'ftp:'],
    [`mailto:${KEY}@example.com`, 'mailto:'],
  ])('another scheme (%s): the scheme only', (upstream, scheme) => {
    const message = messageOf(upstream);
    expect(message).toBe(`--upstream must be an http or https URL, got a '${scheme}' URL.`);
  });
});
