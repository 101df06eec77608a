import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readTextFile, writeFailure } from '../files.js';
import { isHostPattern } from '../http/host-allow-list.js';
import { isLoopbackHost } from '../listen.js';

/** A command line that cannot be run as given; the message says what to fix. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * The most a file a flag names may hold: PEM certificates and keys, where a bundle of every public
 * CA is some 200 KB. A larger file (a wrong path, a sparse file) is refused before it is read.
 */
export const MAX_FLAG_FILE_BYTES = 16 * 1024 * 1024;

/** The text of a file a flag names (`--ca`, `--cert`...); one that cannot be read is a usage error. */
export function readFlagFile(file: string, flag: string): string {
  try {
    return readTextFile(file, MAX_FLAG_FILE_BYTES);
  } catch (error) {
    throw new UsageError(`cannot read ${flag} ${file}: ${(error as Error).message}`);
  }
}

/**
 * Refuses an output flag that names one of the command's other files (the same path, or the same
 * file by another path or link): writing it would replace that file, a recording, a seed or a
 * certificate, before or while the command reads it. `files`: each file and what it is, in words.
 */
export function refuseOutputOver(
  flag: string,
  output: string | undefined,
  files: readonly (readonly [file: string | undefined, what: string])[],
): void {
  if (output === undefined) return;
  for (const [file, what] of files) {
    if (file !== undefined && sameFile(output, file))
      throw new UsageError(
        `${flag} ${output} is ${what}: writing there would replace it. Give another ${flag}.`,
      );
  }
}

function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [one, other] = [statSync(a), statSync(b)];
    return one.dev === other.dev && one.ino === other.ino;
  } catch {
    // One of them does not exist yet: only the paths could be the same.
    return false;
  }
}

/** A file --out names that cannot be written is the command line's to fix (exit 2), said in words. */
export function writeOut(file: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    throw new UsageError(`cannot write --out ${file}: ${writeFailure(error, resolve(file))}.`);
  }
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
  readonly tlsHostnames: string[] | undefined;
  readonly localControlOnly: boolean;
  readonly stateFile: string | undefined;
  readonly publicUrl: string | undefined;
}

export const USAGE = `Usage: fake-marketing-server [options]

Starts a fake Marketing API (HTTPS, Basic auth) with its control API under /__admin.
Every option can also come from the environment variable in brackets; a flag wins over it.

Options:
  --port <n>           [FMS_PORT] port to listen on (default 8443; 0 picks a free one)
  --host <host>        [FMS_HOST] address to listen on (default 127.0.0.1); a
                       non-loopback address needs --admin-token
  --seed <file>        [FMS_SEED] seed JSON file (default: the bundled sandbox seed)
  --state-file <file>  [FMS_STATE_FILE] keep the state across runs: loaded instead of
                       the seed when it exists, written on a clean exit and on
                       POST /__admin/save
  --http               [FMS_HTTP=true] plain HTTP instead of HTTPS
  --cert <file>        [FMS_CERT] PEM certificate to serve (with --key)
  --key <file>         [FMS_KEY] PEM private key to serve (with --cert)
  --ca-out <file>      [FMS_CA_OUT] where to write the generated certificate, to trust
                       it (default: a file in the system's temporary folder)
  --tls-hostnames <names>
                       [FMS_TLS_HOSTNAMES] comma-separated names the generated
                       certificate also names (and the control API answers), e.g.
                       a Docker Compose service name
  --public-url <url>   [FMS_PUBLIC_URL] the address clients reach it at (e.g. a
                       published port, https://localhost:8443): the startup block
                       prints it instead of the listen address
  --admin-token <t>    [FMS_ADMIN_TOKEN] require 'Authorization: Bearer <t>' on the
                       control API
  --local-control-only [FMS_LOCAL_CONTROL_ONLY=true] without an admin token, serve the
                       control API only to clients connecting over loopback
                       (localhost), so that any --host may be used (the container
                       image sets this)
  --allowed-hosts <names>
                       [FMS_ALLOWED_HOSTS] comma-separated host names the control API
                       answers besides IP addresses, localhost and --host (e.g. a
                       Docker alias; '.internal' allows every name under it)
  --max-contacts <n>   [FMS_MAX_CONTACTS] contact cap of servers whose seed sets none
                       (default 10000)
  --journal-size <n>   [FMS_JOURNAL_SIZE] requests kept in the journal (default 1000)
  --journal-body-limit <bytes>
                       [FMS_JOURNAL_BODY_LIMIT] bytes of each body the journal keeps
                       (default 65536); longer bodies are kept cut off, with their length
  -h, --help           show this help
  -v, --version        show the version

Stops cleanly on Ctrl+C (SIGINT) or SIGTERM.

Also: fake-marketing-server verify --help (conformance check against any implementation)
      fake-marketing-server import --help (a seed from a real account)
      fake-marketing-server record --help (a recording proxy writing HAR)
      fake-marketing-server replay --help (replay a HAR against the fake)`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  'state-file': { type: 'string' },
  http: { type: 'boolean' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'ca-out': { type: 'string' },
  'public-url': { type: 'string' },
  'admin-token': { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'tls-hostnames': { type: 'string' },
  'local-control-only': { type: 'boolean' },
  'max-contacts': { type: 'string' },
  'journal-size': { type: 'string' },
  'journal-body-limit': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** The flags of every command that take a number: a negative one gets the flag's own message. */
export const NUMERIC_FLAGS = [
  '--port',
  '--max-contacts',
  '--journal-size',
  '--journal-body-limit',
  '--max-har-size',
  '--server-id',
  '--max-new-contacts',
] as const;

/**
 * `--flag -1` read as `--flag=-1` for the flags that take a number: node:util's parseArgs takes a
 * value starting with `-` for a flag of its own ("argument is ambiguous"), where the flag's own
 * check says what range it takes. Arguments after `--` are left as they are.
 */
export function negativeNumbersJoined(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const next = argv[index + 1];
    if (argument === '--') return [...joined, ...argv.slice(index)];
    if ((NUMERIC_FLAGS as readonly string[]).includes(argument) && next && /^-[\d.]/.test(next)) {
      joined.push(`${argument}=${next}`);
      index += 1;
    } else joined.push(argument);
  }
  return joined;
}

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

function hostNames(value: string | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const bad = names.find((name) => !isHostPattern(name));
  if (names.length === 0 || bad !== undefined) {
    throw new UsageError(
      `${flag} takes comma-separated host names such as 'sandbox,.internal', got '${value}'.`,
    );
  }
  return names;
}

/** An http(s) address with no query or fragment, without its trailing slash. */
function publicUrl(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) {
    throw new UsageError(
      `${flag} takes the http(s) address clients use, such as 'https://localhost:8443', got '${value}'.`,
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
type Option = Exclude<keyof typeof OPTIONS, 'help' | 'version'>;

/** `--state-file` reads FMS_STATE_FILE. */
export function variableOf(option: string): string {
  return `FMS_${option.toUpperCase().replace(/-/g, '_')}`;
}

const TRUE = new Set(['1', 'true', 'yes']);
const FALSE = new Set(['', '0', 'false', 'no']);

/**
 * Each option missing from the command line is taken from its environment variable, so a
 * container or a CI job can configure the sandbox without a command line. Returns the values and,
 * for messages, the name each came under.
 */
function withEnvironment(values: Values, env: Readonly<Record<string, string | undefined>>) {
  const merged: Record<string, string | boolean | undefined> = { ...values };
  const names: Record<string, string> = {};
  for (const option of Object.keys(OPTIONS) as (keyof typeof OPTIONS)[]) {
    if (option === 'help' || option === 'version') continue;
    names[option] = `--${option}`;
    const variable = variableOf(option);
    const text = env[variable];
    if (merged[option] !== undefined || text === undefined) continue;
    names[option] = variable;
    if (OPTIONS[option].type === 'string') {
      merged[option] = text;
    } else if (TRUE.has(text.toLowerCase()) || FALSE.has(text.toLowerCase())) {
      merged[option] = TRUE.has(text.toLowerCase());
    } else {
      throw new UsageError(`${variable} must be true or false, got '${text}'.`);
    }
  }
  return {
    values: merged as Values,
    name: (option: Option) => names[option] ?? `--${option}`,
  };
}

/**
 * Parses and checks the command line, with the FMS_ environment variables for options it does not
 * give; throws UsageError with what to fix.
 */
export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CliConfig {
  let parsed: Values;
  try {
    ({ values: parsed } = parseArgs({
      args: negativeNumbersJoined(argv),
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, name } = withEnvironment(parsed, env);
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
  if (values['tls-hostnames'] !== undefined && (!https || values.cert !== undefined)) {
    throw new UsageError(
      `${name('tls-hostnames')} names go into the generated certificate; it does not go with --http or --cert.`,
    );
  }
  refuseOutputOver(name('ca-out'), values['ca-out'], [
    [values.seed, `the ${name('seed')} file`],
    [values['state-file'], `the ${name('state-file')}`],
  ]);
  const host = values.host ?? '127.0.0.1';
  const adminToken = values['admin-token'];
  if (adminToken !== undefined && adminToken.length === 0)
    throw new UsageError(`${name('admin-token')} must not be empty.`);
  const localControlOnly = values['local-control-only'] ?? false;
  if (!isLoopbackHost(host) && adminToken === undefined && !localControlOnly) {
    throw new UsageError(
      `Listening on ${host}, which is not a loopback address, would expose the control API to the network: add --admin-token <secret> (or --local-control-only).`,
    );
  }
  return {
    help: values.help ?? false,
    version: values.version ?? false,
    port: wholeNumber(values.port, name('port'), 65535) ?? 8443,
    host,
    seed: values.seed,
    https,
    cert: values.cert,
    key: values.key,
    caOut: values['ca-out'],
    adminToken,
    maxContacts: wholeNumber(values['max-contacts'], name('max-contacts')),
    journalSize: wholeNumber(values['journal-size'], name('journal-size')),
    journalBodyLimit: wholeNumber(values['journal-body-limit'], name('journal-body-limit')),
    allowedHosts: hostNames(values['allowed-hosts'], name('allowed-hosts')),
    tlsHostnames: hostNames(values['tls-hostnames'], name('tls-hostnames')),
    localControlOnly,
    stateFile: values['state-file'],
    publicUrl: publicUrl(values['public-url'], name('public-url')),
  };
}
