import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_FLAG_FILE_BYTES,
  parseCommandLine,
  readFlagFile,
  USAGE,
  UsageError,
  variableOf,
} from '../../../src/cli/args.js';

const OPTIONS = [
  'port',
  'host',
  'seed',
  'state-file',
  'http',
  'cert',
  'key',
  'ca-out',
  'tls-hostnames',
  'admin-token',
  'local-control-only',
  'allowed-hosts',
  'max-contacts',
  'journal-size',
  'journal-body-limit',
];

describe('configuration by environment', () => {
  it('every flag also reads FMS_<NAME>, and --help lists both', () => {
    for (const option of OPTIONS) {
      expect(USAGE).toContain(`--${option}`);
      expect(USAGE).toContain(`[${variableOf(option)}`);
    }
    expect(variableOf('journal-body-limit')).toBe('FMS_JOURNAL_BODY_LIMIT');
  });

  it('takes options from the environment', () => {
    const config = parseCommandLine([], {
      FMS_PORT: '9443',
      FMS_SEED: 'seed.json',
      FMS_STATE_FILE: 'state.json',
      FMS_CA_OUT: '/certs/ca.pem',
      FMS_TLS_HOSTNAMES: 'fake,fake.test',
      FMS_ADMIN_TOKEN: 'secret',
      FMS_HOST: '0.0.0.0',
      FMS_ALLOWED_HOSTS: 'fake',
      FMS_MAX_CONTACTS: '5',
      FMS_JOURNAL_SIZE: '10',
      FMS_JOURNAL_BODY_LIMIT: '1024',
    });
    expect(config).toMatchObject({
      port: 9443,
      host: '0.0.0.0',
      seed: 'seed.json',
      stateFile: 'state.json',
      caOut: '/certs/ca.pem',
      tlsHostnames: ['fake', 'fake.test'],
      adminToken: 'secret',
      allowedHosts: ['fake'],
      maxContacts: 5,
      journalSize: 10,
      journalBodyLimit: 1024,
      https: true,
    });
    expect(parseCommandLine([], { FMS_HTTP: 'true' }).https).toBe(false);
    expect(parseCommandLine([], { FMS_HTTP: '0' }).https).toBe(true);
  });

  it('a flag wins over its variable', () => {
    const config = parseCommandLine(['--port', '1234', '--http'], {
      FMS_PORT: '9443',
      FMS_HTTP: 'false',
    });
    expect(config.port).toBe(1234);
    expect(config.https).toBe(false);
  });

  it.each([
    [{ FMS_PORT: 'abc' }, "FMS_PORT must be a whole number from 0 to 65535, got 'abc'."],
    [{ FMS_HTTP: 'maybe' }, "FMS_HTTP must be true or false, got 'maybe'."],
    [{ FMS_ADMIN_TOKEN: '' }, 'FMS_ADMIN_TOKEN must not be empty.'],
    [{ FMS_ALLOWED_HOSTS: 'a b' }, 'FMS_ALLOWED_HOSTS takes comma-separated host names'],
    [
      { FMS_TLS_HOSTNAMES: 'fake', FMS_HTTP: '1' },
      'FMS_TLS_HOSTNAMES names go into the generated certificate',
    ],
    [{ FMS_HOST: '0.0.0.0' }, 'not a loopback address'],
  ])('a bad variable %j names itself', (env, message) => {
    expect(() => parseCommandLine([], env)).toThrow(UsageError);
    expect(() => parseCommandLine([], env)).toThrow(message);
  });
});

describe('the command line', () => {
  it('defaults: HTTPS on 127.0.0.1:8443, nothing else set', () => {
    expect(parseCommandLine([])).toEqual({
      help: false,
      version: false,
      port: 8443,
      host: '127.0.0.1',
      seed: undefined,
      https: true,
      cert: undefined,
      key: undefined,
      caOut: undefined,
      adminToken: undefined,
      maxContacts: undefined,
      journalSize: undefined,
      journalBodyLimit: undefined,
      allowedHosts: undefined,
      tlsHostnames: undefined,
      localControlOnly: false,
      stateFile: undefined,
      publicUrl: undefined,
    });
  });

  it('takes every flag', () => {
    const config = parseCommandLine([
      '-h',
      '-v',
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--local-control-only',
      '--seed',
      's.json',
      '--state-file',
      'state.json',
      '--cert',
      'c.pem',
      '--key',
      'k.pem',
      '--admin-token',
      't',
      '--allowed-hosts',
      ' a , ,.internal ',
      '--max-contacts',
      '0',
      '--journal-size',
      '9007199254740991',
      '--journal-body-limit',
      '7',
    ]);
    expect(config).toMatchObject({
      help: true,
      version: true,
      port: 0,
      host: '0.0.0.0',
      localControlOnly: true,
      seed: 's.json',
      stateFile: 'state.json',
      https: true,
      cert: 'c.pem',
      key: 'k.pem',
      adminToken: 't',
      allowedHosts: ['a', '.internal'],
      maxContacts: 0,
      journalSize: Number.MAX_SAFE_INTEGER,
      journalBodyLimit: 7,
    });
  });

  it('a port is 0 to 65535', () => {
    expect(parseCommandLine(['--port', '65535']).port).toBe(65535);
    expect(() => parseCommandLine(['--port', '65536'])).toThrow(
      "--port must be a whole number from 0 to 65535, got '65536'.",
    );
    for (const bad of ['1.5', ' 1', '1 ', '0x10', '', 'a1', '1a']) {
      expect(() => parseCommandLine(['--port', bad])).toThrow(`got '${bad}'`);
    }
  });

  // node:util's parseArgs read `-1` after a flag as a flag of its own: "argument is ambiguous".
  it.each([
    ['--port', 65535],
    ['--max-contacts', Number.MAX_SAFE_INTEGER],
    ['--journal-size', Number.MAX_SAFE_INTEGER],
    ['--journal-body-limit', Number.MAX_SAFE_INTEGER],
  ])('%s with a negative number gets its range, in either form', (flag, max) => {
    for (const argv of [[flag, '-1'], [`${flag}=-1`]]) {
      expect(() => parseCommandLine(argv)).toThrow(
        `${flag} must be a whole number from 0 to ${max}, got '-1'.`,
      );
    }
    expect(() => parseCommandLine([flag, '-0.5'])).toThrow("got '-0.5'");
  });

  it('a negative number after a flag that takes no number is still refused as before', () => {
    expect(() => parseCommandLine(['--seed', '-1'])).toThrow('argument is ambiguous');
  });

  it('a count is a whole number up to the largest safe integer', () => {
    expect(() => parseCommandLine(['--max-contacts', '9007199254740992'])).toThrow(
      "--max-contacts must be a whole number from 0 to 9007199254740991, got '9007199254740992'.",
    );
    expect(() => parseCommandLine(['--journal-size', 'x'])).toThrow('--journal-size must be');
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['extra'], "Unexpected argument 'extra'"],
    [['--cert', 'c.pem'], '--cert and --key go together: give both, or neither'],
    [['--key', 'k.pem'], '--cert and --key go together'],
    [
      ['--http', '--cert', 'c.pem', '--key', 'k.pem'],
      '--http serves no certificate: drop --cert/--key or --http.',
    ],
    [
      ['--http', '--ca-out', 'x.pem'],
      '--ca-out writes the generated certificate; it does not go with --http or --cert.',
    ],
    [['--cert', 'c.pem', '--key', 'k.pem', '--ca-out', 'x.pem'], '--ca-out writes'],
    [
      ['--cert', 'c.pem', '--key', 'k.pem', '--tls-hostnames', 'fake'],
      '--tls-hostnames names go into the generated certificate; it does not go with --http or --cert.',
    ],
    [['--admin-token', ''], '--admin-token must not be empty.'],
    [
      ['--host', '192.0.2.1'],
      'Listening on 192.0.2.1, which is not a loopback address, would expose the control API to the network: add --admin-token <secret> (or --local-control-only).',
    ],
    [
      ['--allowed-hosts', ' , '],
      "--allowed-hosts takes comma-separated host names such as 'sandbox,.internal', got ' , '.",
    ],
    [['--tls-hostnames', 'ok,a b'], '--tls-hostnames takes comma-separated host names'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });

  it('a non-loopback host is taken with an admin token or local control only', () => {
    expect(parseCommandLine(['--host', '0.0.0.0', '--admin-token', 't']).host).toBe('0.0.0.0');
    expect(parseCommandLine(['--host', '0.0.0.0', '--local-control-only']).host).toBe('0.0.0.0');
    expect(parseCommandLine(['--host', 'localhost']).host).toBe('localhost');
  });

  it('--ca-out and --tls-hostnames go with the generated certificate', () => {
    expect(parseCommandLine(['--ca-out', 'x.pem', '--tls-hostnames', 'fake']).caOut).toBe('x.pem');
    expect(parseCommandLine(['--http']).https).toBe(false);
  });

  it('--public-url keeps its path and drops its trailing slashes', () => {
    expect(parseCommandLine(['--public-url', 'http://proxy.test/a/b//']).publicUrl).toBe(
      'http://proxy.test/a/b',
    );
    expect(parseCommandLine(['--public-url', 'https://x.test:8443']).publicUrl).toBe(
      'https://x.test:8443',
    );
    expect(() => parseCommandLine(['--public-url', 'https://x.test/#top'])).toThrow(
      "--public-url takes the http(s) address clients use, such as 'https://localhost:8443', got 'https://x.test/#top'.",
    );
    expect(() => parseCommandLine(['--public-url', 'https://u@x.test'])).toThrow('--public-url');
    expect(() => parseCommandLine(['--public-url', 'xhttps://x.test'])).toThrow('--public-url');
    expect(() => parseCommandLine(['--public-url', 'https:x.test'])).not.toThrow();
  });
});

describe('boolean variables', () => {
  it.each([
    ['1', false],
    ['true', false],
    ['TRUE', false],
    ['yes', false],
    ['Yes', false],
    ['', true],
    ['0', true],
    ['false', true],
    ['FALSE', true],
    ['no', true],
    ['NO', true],
  ])('FMS_HTTP=%j: https %s', (text, https) => {
    expect(parseCommandLine([], { FMS_HTTP: text }).https).toBe(https);
  });

  it('FMS_LOCAL_CONTROL_ONLY takes a non-loopback FMS_HOST', () => {
    const config = parseCommandLine([], { FMS_HOST: '0.0.0.0', FMS_LOCAL_CONTROL_ONLY: 'yes' });
    expect(config.localControlOnly).toBe(true);
  });

  it('FMS_HELP and FMS_VERSION are not read', () => {
    expect(parseCommandLine([], { FMS_HELP: '1', FMS_VERSION: '1' })).toMatchObject({
      help: false,
      version: false,
    });
  });

  it('an unknown variable is ignored, a flag given as false keeps its variable out', () => {
    expect(() => parseCommandLine([], { FMS_NOPE: 'x' })).not.toThrow();
    expect(() => parseCommandLine([], { FMS_HTTP: 'on' })).toThrow(
      "FMS_HTTP must be true or false, got 'on'.",
    );
  });

  it('a message names the flag when the flag gave the value', () => {
    expect(() => parseCommandLine(['--journal-body-limit', 'x'])).toThrow(
      "--journal-body-limit must be a whole number from 0 to 9007199254740991, got 'x'.",
    );
    expect(() => parseCommandLine([], { FMS_JOURNAL_BODY_LIMIT: 'x' })).toThrow(
      "FMS_JOURNAL_BODY_LIMIT must be a whole number from 0 to 9007199254740991, got 'x'.",
    );
    expect(() => parseCommandLine([], { FMS_ADMIN_TOKEN: '', FMS_HOST: 'x' })).toThrow(
      'FMS_ADMIN_TOKEN must not be empty.',
    );
  });
});

describe('readFlagFile', () => {
  it('reads the file a flag names, or says which flag and file cannot be read', () => {
    expect(readFlagFile('package.json', '--ca')).toContain('"name"');
    expect(() => readFlagFile('/nonexistent/ca.pem', '--ca')).toThrow(UsageError);
    expect(() => readFlagFile('/nonexistent/ca.pem', '--ca')).toThrow(
      /^cannot read --ca \/nonexistent\/ca\.pem: .*ENOENT/,
    );
  });

  it('refuses a file past 16 MiB before reading it (a sparse file costs no disk, reading it all memory)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fms-args-'));
    try {
      const sparse = join(folder, 'ca.pem');
      writeFileSync(sparse, '');
      truncateSync(sparse, MAX_FLAG_FILE_BYTES + 1);
      expect(() => readFlagFile(sparse, '--cert')).toThrow(
        new UsageError(
          `cannot read --cert ${sparse}: it is ${MAX_FLAG_FILE_BYTES + 1} bytes, more than the ${MAX_FLAG_FILE_BYTES} it may be`,
        ),
      );
      truncateSync(sparse, MAX_FLAG_FILE_BYTES);
      expect(readFlagFile(sparse, '--cert')).toHaveLength(MAX_FLAG_FILE_BYTES);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('UsageError', () => {
  it('is named so in a stack trace', () => {
    expect(new UsageError('x').name).toBe('UsageError');
    expect(String(new UsageError('x'))).toBe('UsageError: x');
  });
});

describe("--ca-out over the sandbox's other files", () => {
  it('is refused when it names the --seed file or the --state-file, by any path', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fms-ca-out-'));
    try {
      const seed = join(folder, 'seed.json');
      writeFileSync(seed, '{"servers":[]}');
      expect(() =>
        parseCommandLine(['--seed', seed, '--ca-out', join(folder, '.', 'seed.json')], {}),
      ).toThrow(
        new UsageError(
          `--ca-out ${join(folder, '.', 'seed.json')} is the --seed file: writing there would replace it. Give another --ca-out.`,
        ),
      );
      const state = join(folder, 'state.json');
      expect(() => parseCommandLine([], { FMS_STATE_FILE: state, FMS_CA_OUT: state })).toThrow(
        new UsageError(
          `FMS_CA_OUT ${state} is the FMS_STATE_FILE: writing there would replace it. Give another FMS_CA_OUT.`,
        ),
      );
      expect(parseCommandLine(['--seed', seed, '--ca-out', join(folder, 'ca.pem')], {}).caOut).toBe(
        join(folder, 'ca.pem'),
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
