import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../../src/cli/args.js';
import { type BannerFacts, banner } from '../../src/cli/banner.js';

const servers = [
  { serverId: 12345, key: 'sandbox-key-12345' },
  { serverId: 6789, key: 'sandbox-key-6789' },
];
const facts = (over: Partial<BannerFacts>): BannerFacts => ({
  version: '0.1.0',
  url: 'https://127.0.0.1:8443',
  baseUrl: 'https://127.0.0.1:8443/marketing/v1',
  host: '127.0.0.1',
  port: 8443,
  caFile: '/tmp/ca.pem',
  adminToken: false,
  servers,
  ...over,
});

describe('the startup block', () => {
  it('on loopback: the loopback address and every key, with a curl that works as printed', () => {
    const text = banner(facts({}));
    expect(text).toContain('  Base URL     https://127.0.0.1:8443/marketing/v1');
    expect(text).toContain('  Server 12345  key sandbox-key-12345');
    expect(text).toContain('  Server 6789   key sandbox-key-6789');
    expect(text).toContain(
      'curl --cacert /tmp/ca.pem -u 12345:sandbox-key-12345 https://127.0.0.1:8443/marketing/v1/lists',
    );
    expect(text).not.toContain('Listening');
  });

  it('beyond loopback: the listen address, how to reach it from elsewhere, and no key', () => {
    const text = banner(facts({ host: '0.0.0.0', localControlOnly: true }));
    expect(text).toContain('  Listening    0.0.0.0:8443 (every interface)');
    expect(text).toContain('-p 8443:8443 gives');
    expect(text).toContain('https://localhost:8443/marketing/v1');
    expect(text).toContain('FMS_PUBLIC_URL');
    expect(text).toContain('(also served at https://127.0.0.1:8443/__admin/ca.pem)');
    expect(text).toContain('  (only over loopback: set an admin token to use it from elsewhere)');
    expect(text).toContain('  Servers      12345, 6789');
    expect(text).toContain('GET https://127.0.0.1:8443/__admin/state');
    expect(text).toContain("-u '12345:<key>'");
    expect(text).not.toContain('sandbox-key');
  });

  it('beyond loopback with a public URL: that address everywhere, no guessing', () => {
    const text = banner(
      facts({ host: '::', publicUrl: 'https://fake.test:9443', adminToken: true }),
    );
    expect(text).toContain('  Listening    [::]:8443 (every interface)');
    expect(text).toContain('  Base URL     https://fake.test:9443/marketing/v1');
    expect(text).toContain(
      '  Control API  https://fake.test:9443/__admin  (Authorization: Bearer <admin token>)',
    );
    expect(text).toContain('GET https://fake.test:9443/__admin/state with the token');
    expect(text).not.toContain('-p 8443');
    expect(text).not.toContain('sandbox-key');
  });

  it('a public URL on loopback replaces the printed address and keeps the keys', () => {
    const text = banner(facts({ publicUrl: 'https://localhost:8443' }));
    expect(text).toContain('  Base URL     https://localhost:8443/marketing/v1');
    expect(text).toContain('key sandbox-key-12345');
  });
});

describe('--public-url / FMS_PUBLIC_URL', () => {
  it('takes an http(s) address, without a trailing slash', () => {
    expect(parseCommandLine(['--public-url', 'https://localhost:8443/']).publicUrl).toBe(
      'https://localhost:8443',
    );
    expect(parseCommandLine([], { FMS_PUBLIC_URL: 'http://proxy.test/fake' }).publicUrl).toBe(
      'http://proxy.test/fake',
    );
    expect(parseCommandLine([]).publicUrl).toBeUndefined();
  });

  it.each(['localhost:8443', 'ftp://x.test', 'https://x.test/?a=1', 'https://u:p@x.test', ''])(
    'refuses %j, naming the option',
    (value) => {
      expect(() => parseCommandLine(['--public-url', value])).toThrow(UsageError);
      expect(() => parseCommandLine([], { FMS_PUBLIC_URL: value })).toThrow(/FMS_PUBLIC_URL/);
    },
  );
});
