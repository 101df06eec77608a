import { describe, expect, it } from 'vitest';
import { parseCommandLine, USAGE, UsageError, variableOf } from '../../src/cli/args.js';

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
