import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFailure } from '../files.js';
import { type Recorder, RecorderOptionError, startRecorder } from '../record/recorder.js';
import { negativeNumbersJoined, readFlagFile, refuseOutputOver, UsageError } from './args.js';
import { CaFileError, writeCaFile } from './ca-file.js';

/** Errors of a file at --out that the person who chose it can fix: exit 2 with words. */
const FILE_FAILURES = new Set(['EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'EISDIR', 'EROFS', 'ELOOP']);

export const RECORD_USAGE = `Usage: fake-marketing-server record --upstream <base URL> [options]

A recording proxy: point the client's base URL at it. Each request goes to the upstream
unchanged but for Host and Via, the answer comes back unchanged, and the exchange is appended
to a HAR 1.2 file that is whole at every moment. Keys are redacted (the server id stays).

  --upstream <url>     the service to record, e.g. https://api.example.com/marketing/v1
  --out <file>         the HAR file (default traffic.har); an existing HAR is continued
  --port <n>           port to listen on (default 8444; 0 picks a free one)
  --http               plain HTTP instead of HTTPS with the generated certificate
  --ca <file>          a PEM to trust for the upstream (a private CA, a fake's certificate)
  --ca-out <file>      where to write the generated certificate clients must trust
                       (default: a file in the system's temporary folder)

Stops on Ctrl+C (SIGINT) or SIGTERM, after writing the exchanges in flight.
Then: fake-marketing-server replay traffic.har`;

const OPTIONS = {
  upstream: { type: 'string' },
  out: { type: 'string' },
  port: { type: 'string' },
  http: { type: 'boolean' },
  ca: { type: 'string' },
  'ca-out': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `record`: starts the recording proxy and prints where to point clients and where it writes;
 * resolves with the running recorder (the caller owns the process and its signals), or undefined
 * after `--help`. Throws UsageError with what to fix.
 */
export async function runRecordCommand(argv: readonly string[]): Promise<Recorder | undefined> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    ({ values } = parseArgs({ args: negativeNumbersJoined(argv), options: OPTIONS, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${RECORD_USAGE}\n`);
    return undefined;
  }
  if (values.upstream === undefined) throw new UsageError('--upstream <base URL> is required.');
  const port = values.port ?? '8444';
  if (!/^\d+$/.test(port) || Number(port) > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535, got '${port}'.`);
  if (values.http && values['ca-out'] !== undefined)
    throw new UsageError('--ca-out writes the generated certificate; it does not go with --http.');
  const out = resolve(values.out ?? 'traffic.har');
  refuseOutputOver('--ca-out', values['ca-out'], [
    [out, 'the HAR --out records to'],
    [values.ca, 'the --ca file'],
  ]);
  let recorder: Recorder;
  try {
    recorder = await startRecorder({
      upstream: values.upstream,
      out,
      https: !values.http,
      port: Number(port),
      ...(values.ca === undefined ? {} : { ca: readFlagFile(values.ca, '--ca') }),
    });
  } catch (error) {
    if (error instanceof RecorderOptionError) throw new UsageError(error.message);
    const { code, syscall } = error as NodeJS.ErrnoException;
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is in use: pick another with --port (0 for any).`);
    if (syscall === 'listen')
      throw new UsageError(`cannot listen on port ${port}: ${(error as Error).message}.`);
    // Reading the HAR at --out to continue it (writes fail as RecorderOptionError, above).
    if (code !== undefined && FILE_FAILURES.has(code)) {
      const why =
        code === 'EACCES' || code === 'EPERM'
          ? 'no permission to read it'
          : writeFailure(error, out);
      throw new UsageError(`cannot read --out ${out} to continue it: ${why}; give another --out.`);
    }
    throw error;
  }
  const lines = [
    // The origin only: a key in the upstream's query or fragment is never printed.
    `fake-marketing-server record: forwarding to ${new URL(values.upstream).origin}`,
    '',
    `  Base URL     ${recorder.baseUrl}`,
  ];
  if (recorder.ca !== undefined) {
    let caFile: string;
    try {
      caFile = writeCaFile(recorder.ca, values['ca-out']);
    } catch (error) {
      await recorder.close();
      if (error instanceof CaFileError) throw new UsageError(error.message);
      throw error;
    }
    lines.push(`  CA file      ${caFile}`);
  }
  lines.push(
    `  Writing      ${out}${recorder.entries > 0 ? ` (continuing: ${recorder.entries} exchanges already)` : ''}`,
    '',
    'Point the client under test at the base URL; its key is passed on and never written.',
    'Press Ctrl+C to stop.',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return recorder;
}
