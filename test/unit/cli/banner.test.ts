import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../../../src/cli/args.js';
import { type BannerFacts, banner } from '../../../src/cli/banner.js';

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

describe('the startup block, line by line', () => {
  it('on loopback, every line as printed', () => {
    expect(banner(facts({ stateFile: '/data/state.json' }))).toBe(
      [
        'fake-marketing-server 0.1.0 is listening',
        '',
        '  Base URL     https://127.0.0.1:8443/marketing/v1',
        '  CA file      /tmp/ca.pem',
        '  State file   /data/state.json  (saved on exit and on POST /__admin/save)',
        '  Control API  https://127.0.0.1:8443/__admin',
        '',
        '  Server 12345  key sandbox-key-12345',
        '  Server 6789   key sandbox-key-6789',
        '',
        '  Try:',
        '  curl --cacert /tmp/ca.pem -u 12345:sandbox-key-12345 https://127.0.0.1:8443/marketing/v1/lists',
        '',
        'Press Ctrl+C to stop.',
      ].join('\n'),
    );
  });

  it('beyond loopback on one address, every line as printed', () => {
    expect(
      banner(
        facts({
          host: '192.0.2.7',
          port: 9443,
          url: 'https://127.0.0.1:9443',
          baseUrl: 'https://127.0.0.1:9443/marketing/v1',
        }),
      ),
    ).toBe(
      [
        'fake-marketing-server 0.1.0 is listening',
        '',
        '  Listening    192.0.2.7:9443',
        '  Base URL     https://127.0.0.1:9443/marketing/v1',
        '               (from this machine; from elsewhere use its address, and from the host of a',
        '               container the port Docker publishes, e.g. -p 9443:9443 gives',
        '               https://localhost:9443/marketing/v1; --public-url or',
        '               FMS_PUBLIC_URL prints the address your clients use)',
        '  CA file      /tmp/ca.pem  (also served at https://127.0.0.1:9443/__admin/ca.pem)',
        '  Control API  https://127.0.0.1:9443/__admin',
        '',
        '  Servers      12345, 6789',
        '  Keys         not printed: this address is reachable from the network and logs are',
        '               shared. They are in your seed, or GET https://127.0.0.1:9443/__admin/state',
        '',
        '  Try:',
        "  curl --cacert /tmp/ca.pem -u '12345:<key>' https://127.0.0.1:9443/marketing/v1/lists",
        '',
        'Press Ctrl+C to stop.',
      ].join('\n'),
    );
  });

  it('an IPv6 address is bracketed; only 0.0.0.0 and :: are every interface', () => {
    expect(banner(facts({ host: '2001:db8::1', adminToken: true }))).toContain(
      '  Listening    [2001:db8::1]:8443\n',
    );
    expect(banner(facts({ host: '::', adminToken: true }))).toContain(
      '  Listening    [::]:8443 (every interface)\n',
    );
  });

  it('with no servers: how to add one, and no curl to try', () => {
    const text = banner(facts({ servers: [], caFile: undefined }));
    expect(text).toBe(
      [
        'fake-marketing-server 0.1.0 is listening',
        '',
        '  Base URL     https://127.0.0.1:8443/marketing/v1',
        '  Control API  https://127.0.0.1:8443/__admin',
        '',
        '  No servers yet: add one with',
        '  curl -X POST https://127.0.0.1:8443/__admin/servers',
        '',
        'Press Ctrl+C to stop.',
      ].join('\n'),
    );
  });

  it('without a CA file (plain HTTP): no --cacert', () => {
    const text = banner(facts({ caFile: undefined, url: 'http://127.0.0.1:8080' }));
    expect(text).toContain(
      '  curl -u 12345:sandbox-key-12345 https://127.0.0.1:8443/marketing/v1/lists',
    );
    expect(text).not.toContain('CA file');
  });

  it('quotes a shell word only when it needs it', () => {
    const text = banner(
      facts({ servers: [{ serverId: 1, key: "it's" }], caFile: '/tmp/my ca.pem' }),
    );
    expect(text).toContain(
      `  curl --cacert '/tmp/my ca.pem' -u '1:it'\\''s' https://127.0.0.1:8443/marketing/v1/lists`,
    );
    const plain = banner(facts({ servers: [{ serverId: 1, key: 'a@b%c+d=e,f.g/h-i_j' }] }));
    expect(plain).toContain('-u 1:a@b%c+d=e,f.g/h-i_j https:');
  });

  it('beyond loopback without an admin token: GET the state, no token to name', () => {
    const text = banner(facts({ host: '0.0.0.0', localControlOnly: true }));
    expect(text).toContain('GET https://127.0.0.1:8443/__admin/state\n');
    expect(text).not.toContain('with the token');
  });
});
