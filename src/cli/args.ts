import { parseArgs } from 'node:util';
import { isLoopbackHost } from '../listen.js';

/** A command line that cannot be run as given; the message says what to fix. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliConfig {
  readonly help: boolean;
  readonly version: boolean;
  readonly port: number;
  readonly host: string;
  readonly seed: string | undefined;
  readonly https: boolean;
  readonly cert: string | undefined;
  readonly key: string | undefined;
  readonly caOut: string | undefined;
  readonly adminToken: string | undefined;
  readonly maxContacts: number | undefined;
  readonly journalSize: number | undefined;
  readonly journalBodyLimit: number | undefined;
  readonly allowedHosts: string[] | undefined;
  readonly stateFile: string | undefined;
}

export const USAGE = `Usage: fake-marketing-server [options]

Starts a fake Marketing API (HTTPS, Basic auth) with its control API under /__admin.

Options:
  --port <n>           port to listen on (default 8443; 0 picks a free one)
  --host <host>        address to listen on (default 127.0.0.1); a non-loopback
                       address needs --admin-token
  --seed <file>        seed JSON file (default: the bundled sandbox seed)
  --state-file <file>  keep the state across runs: loaded instead of the seed when it
                       exists, written on a clean exit and on POST /__admin/save
  --http               plain HTTP instead of HTTPS
  --cert <file>        PEM certificate to serve (with --key)
  --key <file>         PEM private key to serve (with --cert)
  --ca-out <file>      where to write the generated certificate, to trust it
                       (default: a file in the system's temporary folder)
  --admin-token <t>    require 'Authorization: Bearer <t>' on the control API
  --allowed-hosts <names>
                       comma-separated host names the control API answers besides
                       IP addresses, localhost and --host (e.g. a Docker alias;
                       '.internal' allows every name under it)
  --max-contacts <n>   contact cap of servers whose seed sets none (default 10000)
  --journal-size <n>   requests kept in the journal (default 1000)
  --journal-body-limit <bytes>
                       bytes of each body the journal keeps (default 65536);
                       longer bodies are kept cut off, with their length
  -h, --help           show this help
  -v, --version        show the version

Stops cleanly on Ctrl+C (SIGINT) or SIGTERM.`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  'state-file': { type: 'string' },
  http: { type: 'boolean' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'ca-out': { type: 'string' },
  'admin-token': { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'max-contacts': { type: 'string' },
  'journal-size': { type: 'string' },
  'journal-body-limit': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

function wholeNumber(
  value: string | undefined,
  flag: string,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from 0 to ${max}, got '${value}'.`);
  }
  return Number(value);
}

function hostNames(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const bad = names.find((name) => !/^\.?[\w.-]+$/.test(name));
  if (names.length === 0 || bad !== undefined) {
    throw new UsageError(
      `--allowed-hosts takes comma-separated host names such as 'sandbox,.internal', got '${value}'.`,
    );
  }
  return names;
}

/** Parses and checks the command line; throws UsageError with what to fix. */
export function parseCommandLine(argv: readonly string[]): CliConfig {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const https = !values.http;
  if ((values.cert === undefined) !== (values.key === undefined)) {
    throw new UsageError(
      '--cert and --key go together: give both, or neither for a generated certificate.',
    );
  }
  if (!https && values.cert !== undefined)
    throw new UsageError('--http serves no certificate: drop --cert/--key or --http.');
  if (values['ca-out'] !== undefined && (!https || values.cert !== undefined)) {
    throw new UsageError(
      '--ca-out writes the generated certificate; it does not go with --http or --cert.',
    );
  }
  const host = values.host ?? '127.0.0.1';
  const adminToken = values['admin-token'];
  if (adminToken !== undefined && adminToken.length === 0)
    throw new UsageError('--admin-token must not be empty.');
  if (!isLoopbackHost(host) && adminToken === undefined) {
    throw new UsageError(
      `Listening on ${host}, which is not a loopback address, would expose the control API to the network: add --admin-token <secret>.`,
    );
  }
  return {
    help: values.help ?? false,
    version: values.version ?? false,
    port: wholeNumber(values.port, '--port', 65535) ?? 8443,
    host,
    seed: values.seed,
    https,
    cert: values.cert,
    key: values.key,
    caOut: values['ca-out'],
    adminToken,
    maxContacts: wholeNumber(values['max-contacts'], '--max-contacts'),
    journalSize: wholeNumber(values['journal-size'], '--journal-size'),
    journalBodyLimit: wholeNumber(values['journal-body-limit'], '--journal-body-limit'),
    allowedHosts: hostNames(values['allowed-hosts']),
    stateFile: values['state-file'],
  };
}
