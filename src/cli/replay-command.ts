import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SeedError } from '../domain/errors.js';
import { readTextFile, writeReportFile } from '../files.js';
import { printable } from '../printable.js';
import { HarInputError } from '../replay/har-input.js';
import { ReplayCannotRunError, replayHar } from '../replay/replay.js';
import { replayReportJunit, replayReportText } from '../replay/report.js';
import { negativeNumbersJoined, refuseOutputOver, UsageError, writeOut } from './args.js';
import {
  EXIT_COULD_NOT_RUN,
  EXIT_DRIFT,
  EXIT_PASS,
  EXIT_USAGE,
  type ExitCode,
} from './exit-codes.js';

export const REPLAY_USAGE = `Usage: fake-marketing-server replay <traffic.har> [options]

Replays the API requests of a HAR recording (fake-marketing-server record, the fake's own
/__admin/requests.har, a browser's or Playwright's HAR) in order against a fresh in-process
fake, and compares each answer with the recorded one: status, Content-Type and body.
Ids the service assigns are paired by first appearance; timestamps and thumbnail URLs are
compared by format. Entries outside /marketing/v1 and /marketing/beta are ignored.

  --seed <file>        the starting state (default: inferred from the recording)
  --reporter <r>       text (default) or junit
  --out <file>         also write the report there
  --all                text report: list matching exchanges too
  --max-har-size <MiB> the largest HAR file read (default 100; replay needs about
                       ten times the file's size in memory)

Exit codes: 0 no drift, 1 drift, 2 usage (bad flags, a HAR that cannot be used),
3 could not run (the fake could not start on the starting state).`;

/** The largest HAR file replay reads unless --max-har-size says otherwise, in MiB. */
export const DEFAULT_MAX_HAR_MIB = 100;
const MiB = 1024 * 1024;

const OPTIONS = {
  seed: { type: 'string' },
  reporter: { type: 'string' },
  out: { type: 'string' },
  all: { type: 'boolean' },
  'max-har-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `replay`: returns the exit code; the report goes to stdout, problems to stderr. */
export async function runReplayCommand(argv: readonly string[]): Promise<ExitCode> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({
      args: negativeNumbersJoined(argv),
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${REPLAY_USAGE}\n`);
    return EXIT_PASS;
  }
  if (positionals.length !== 1)
    throw new UsageError('replay takes one HAR file: fake-marketing-server replay traffic.har');
  const [file] = positionals as [string];
  refuseOutputOver('--out', values.out, [
    [file, 'the HAR replayed'],
    [values.seed, 'the --seed file'],
  ]);
  const reporter = values.reporter ?? 'text';
  if (reporter !== 'text' && reporter !== 'junit')
    throw new UsageError('--reporter is text or junit.');
  const maxMiB = values['max-har-size'] ?? String(DEFAULT_MAX_HAR_MIB);
  if (!/^\d{1,6}$/.test(maxMiB) || Number(maxMiB) === 0)
    throw new UsageError(`--max-har-size is a whole number of MiB from 1, got '${maxMiB}'.`);
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > Number(maxMiB) * MiB)
      throw new UsageError(
        `${file} is ${(size / MiB).toFixed(1)} MiB, past the ${maxMiB} MiB replay reads (${values['max-har-size'] === undefined ? 'the default' : '--max-har-size'}): replay needs about ten times a HAR's size in memory. Raise the bound with --max-har-size <MiB> if the machine has it.`,
      );
    text = readTextFile(file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const report = await replayHar(text, values.seed === undefined ? {} : { seed: values.seed });
    const rendered =
      reporter === 'junit'
        ? replayReportJunit(report, file)
        : replayReportText(report, file, values.all);
    const out = values.out;
    if (out !== undefined) writeOut(out, () => writeReportFile(out, rendered));
    process.stdout.write(
      `${reporter === 'junit' && values.out !== undefined ? replayReportText(report, file) : rendered}\n`,
    );
    return report.drifted > 0 ? EXIT_DRIFT : EXIT_PASS;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof HarInputError) {
      // The message quotes the HAR (an entry's URL): its bidi controls must not reorder the line.
      process.stderr.write(`fake-marketing-server replay: ${file}: ${printable(error.message)}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof SeedError) {
      process.stderr.write(
        `fake-marketing-server replay: --seed ${values.seed}: ${error.message}\n`,
      );
      return EXIT_USAGE;
    }
    const why = error instanceof ReplayCannotRunError ? error.message : (error as Error).stack;
    process.stderr.write(`fake-marketing-server replay: could not run: ${printable(why ?? '')}\n`);
    return EXIT_COULD_NOT_RUN;
  }
}
