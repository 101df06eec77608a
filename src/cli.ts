#!/usr/bin/env node
import nodeModule from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, readFlagFile, USAGE, UsageError } from './cli/args.js';
import { banner } from './cli/banner.js';
import { CaFileError, writeCaFile } from './cli/ca-file.js';
import { outliveClosedOutput } from './cli/closed-output.js';
import { EXIT_COULD_NOT_RUN, EXIT_USAGE } from './cli/exit-codes.js';
import { tlsPairProblem } from './cli/tls-files.js';
import { FakeMarketingServerError, StateSaveError } from './domain/errors.js';
import { unwritableFileProblem } from './files.js';
import { printable } from './printable.js';
import type { FakeMarketingServer } from './server.js';
import { PACKAGE_VERSION } from './version.js';

// Node 22 and later keep the code they compile on disk (in the system's temporary folder) and
// reuse it on the next run, when asked before the code is loaded: so the fake itself, fastify and
// the other dependencies are imported below, after this. Node 20 has no such cache (a no-op).
// NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE=dir moves it.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_SEED = join(PACKAGE_ROOT, 'fixtures', 'default.json');
/** A second signal within this long is the same stop request delivered twice. */
const REPEAT_WINDOW_MS = 1000;

function fail(message: string, code: number): never {
  // A message can quote what a service answered: never its terminal escapes raw.
  process.stderr.write(`fake-marketing-server: ${printable(message)}\n`);
  process.exit(code);
}

function readPem(file: string, flag: string): string {
  try {
    return readFlagFile(file, flag);
  } catch (error) {
    return fail((error as Error).message, EXIT_USAGE);
  }
}

// The subcommands are imported when run: the sandbox's start-up, kept short, loads none of their
// code (verify's checks, the recorder's proxy, replay's comparisons, HAR reading).
async function main(): Promise<void> {
  outliveClosedOutput();
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'verify' || command === 'import') {
    const { runVerifyCommand } = await import('./cli/verify-command.js');
    const failed = command === 'verify' ? EXIT_COULD_NOT_RUN : 1;
    // A request left pending with nothing else to wait for drains the event loop, and the process
    // would exit 0 with no report and no file: a run that did not finish is never a pass.
    const unfinished = () =>
      fail(
        `${command} stopped before it finished: a request was left with no answer and no error (a bug of ${command}, please report it).`,
        failed,
      );
    process.once('beforeExit', unfinished);
    try {
      process.exitCode = await runVerifyCommand(command, rest, process.env);
    } catch (error) {
      if (error instanceof UsageError || error instanceof FakeMarketingServerError) {
        fail(`${error.message}\nRun with ${command} --help for the options.`, EXIT_USAGE);
      }
      // verify promises exit 3 for anything that kept it from judging; import keeps 1.
      fail((error as Error).message, failed);
    } finally {
      process.off('beforeExit', unfinished);
    }
    return;
  }
  if (command === 'replay') {
    const { runReplayCommand } = await import('./cli/replay-command.js');
    try {
      process.exitCode = await runReplayCommand(rest);
    } catch (error) {
      if (error instanceof UsageError)
        fail(`${error.message}\nRun with replay --help for the options.`, EXIT_USAGE);
      throw error;
    }
    return;
  }
  if (command === 'record') {
    const { runRecordCommand } = await import('./cli/record-command.js');
    let recorder: Awaited<ReturnType<typeof runRecordCommand>>;
    try {
      recorder = await runRecordCommand(rest);
    } catch (error) {
      if (error instanceof UsageError)
        fail(`${error.message}\nRun with record --help for the options.`, EXIT_USAGE);
      throw error;
    }
    if (recorder) {
      // A continued file's entries are not this run's: the count says what this run wrote.
      const already = recorder.entries;
      onStopSignal(
        () => recorder.close(),
        () =>
          `Wrote ${recorder.entries - already} exchanges to ${recorder.out}${already > 0 ? ` (${recorder.entries} in the file)` : ''}\n`,
      );
    }
    return;
  }
  let config: ReturnType<typeof parseCommandLine>;
  try {
    config = parseCommandLine(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError)
      fail(`${error.message}\nRun with --help for the options.`, EXIT_USAGE);
    throw error;
  }
  if (config.help) return void process.stdout.write(`${USAGE}\n`);
  if (config.version) return void process.stdout.write(`${PACKAGE_VERSION}\n`);

  if (config.https && config.cert === undefined) {
    // The certificate is made in a worker thread: start it now, so that it is made on the other
    // core while this thread loads fastify and builds the fake; listen() takes the same one (one
    // per process and set of names). A failure is reported by listen(), which asks again.
    const { localhostCertificateOnce } = await import('./certificate.js');
    localhostCertificateOnce(config.tlsHostnames).catch(() => undefined);
  }
  const { createFakeMarketingServer } = await import('./server.js');
  const cert = config.cert === undefined ? undefined : readPem(config.cert, '--cert');
  const key = config.key === undefined ? undefined : readPem(config.key, '--key');
  const tlsProblem =
    cert === undefined || key === undefined || config.cert === undefined || config.key === undefined
      ? undefined
      : tlsPairProblem(cert, key, { cert: config.cert, key: config.key });
  if (tlsProblem !== undefined) fail(tlsProblem, EXIT_USAGE);
  const stateFile = config.stateFile === undefined ? undefined : resolve(config.stateFile);
  const unwritable = stateFile === undefined ? undefined : unwritableFileProblem(stateFile);
  if (unwritable !== undefined)
    fail(`--state-file ${stateFile} cannot be written: ${unwritable}.`, EXIT_USAGE);
  let fake: FakeMarketingServer;
  try {
    fake = await createFakeMarketingServer({
      seed: config.seed === undefined ? DEFAULT_SEED : resolve(config.seed),
      ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
      ...(config.maxContacts === undefined ? {} : { maxContacts: config.maxContacts }),
      ...(config.journalSize === undefined ? {} : { journalSize: config.journalSize }),
      ...(config.allowedHosts === undefined ? {} : { allowedHosts: config.allowedHosts }),
      ...(config.journalBodyLimit === undefined
        ? {}
        : { journalBodyLimit: config.journalBodyLimit }),
      ...(config.stateFile === undefined ? {} : { stateFile: resolve(config.stateFile) }),
    });
  } catch (error) {
    if (error instanceof FakeMarketingServerError) fail(error.message, EXIT_USAGE);
    throw error;
  }

  let address: Awaited<ReturnType<FakeMarketingServer['listen']>>;
  try {
    address = await fake.listen({
      port: config.port,
      host: config.host,
      https: config.https,
      ...(cert === undefined ? {} : { cert, key }),
      ...(config.tlsHostnames === undefined ? {} : { tlsHostnames: config.tlsHostnames }),
      localControlOnly: config.localControlOnly,
    });
  } catch (error) {
    await fake.close();
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'EADDRINUSE')
      fail(`port ${config.port} is in use: pick another with --port (0 for any).`, 1);
    if (code === 'EACCES')
      fail(`no permission to listen on port ${config.port}: pick one above 1023.`, 1);
    if (error instanceof FakeMarketingServerError) fail(message, EXIT_USAGE);
    fail(message, 1);
  }

  let caFile: string | undefined;
  if (address.ca !== undefined) {
    try {
      caFile = writeCaFile(address.ca, config.caOut);
    } catch (error) {
      await fake.close();
      if (error instanceof CaFileError) fail(error.message, EXIT_USAGE);
      throw error;
    }
  }
  const servers = fake.exportState().servers.map(({ serverId, key: serverKey }) => ({
    serverId,
    key: serverKey ?? '',
  }));
  // Before the banner: a script that stops the sandbox as soon as it reads the banner must still
  // get a clean stop.
  stopCleanlyOnSignals(fake, config.stateFile !== undefined);
  process.stdout.write(
    `${banner({
      version: PACKAGE_VERSION,
      ...address,
      host: config.host,
      port: Number(new URL(address.url).port),
      publicUrl: config.publicUrl,
      localControlOnly: config.localControlOnly,
      caFile,
      adminToken: config.adminToken !== undefined,
      servers,
      stateFile: config.stateFile === undefined ? undefined : resolve(config.stateFile),
    })}\n`,
  );
}

/**
 * Ctrl+C or SIGTERM: answer requests in flight, release held ones, write the state file (when
 * there is one), free the port, exit 0.
 */
function stopCleanlyOnSignals(fake: FakeMarketingServer, saveState: boolean): void {
  onStopSignal(
    () => fake.close(),
    () => {
      if (!saveState) return '';
      try {
        return `State saved to ${fake.saveState()}\n`;
      } catch (error) {
        if (!(error instanceof StateSaveError)) throw error;
        // Exit 1, as for the sandbox's other failures (docs/sandbox.md): a script must not take
        // a lost session for a clean stop.
        return fail(
          `stopped, but could not write the state file ${error.file}: ${error.reason}. This session's changes are lost.`,
          1,
        );
      }
    },
  );
}

/**
 * On Ctrl+C or SIGTERM: `stop()` (finish what is in flight), print what `after()` says, exit 0.
 * Shared by the sandbox and the recorder.
 */
function onStopSignal(stop: () => Promise<void>, after: () => string): void {
  let stoppingSince: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      // One Ctrl+C or `kill -- -PGID` can arrive twice: from the terminal or the kernel, and again
      // forwarded by a wrapper such as npm. Only a later signal means "stop now".
      if (Date.now() - stoppingSince < REPEAT_WINDOW_MS) return;
      process.stderr.write(`fake-marketing-server: ${signal} again, exiting now.\n`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    process.stdout.write(`\n${signal}: stopping (answering requests in flight)...\n`);
    stop()
      .then(() => process.stdout.write(after()))
      .then(
        () => process.exit(0),
        (error: unknown) => fail(`could not stop cleanly: ${(error as Error).message}`, 1),
      );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

main().catch((error: unknown) => fail((error as Error).stack ?? String(error), 1));
