import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InvalidOptionError } from '../domain/errors.js';
import { PRIVATE_FILE_MODE, writeFileAtomically, writeReportFile } from '../files.js';
import { importSeed } from '../verify/import.js';
import { reportJunit, reportText } from '../verify/report.js';
import { checkTarget, verifyPlan, verifyService } from '../verify/verify.js';
import {
  negativeNumbersJoined,
  readFlagFile,
  refuseOutputOver,
  UsageError,
  writeOut,
} from './args.js';
import { EXIT_PASS } from './exit-codes.js';
import { verifyRecorded } from './verify-har.js';

const VERIFY_USAGE = `Usage:
  fake-marketing-server verify --base-url URL --server-id N [--key K] [options]
  fake-marketing-server verify --list
  fake-marketing-server import --base-url URL --server-id N [--key K] --out seed.json [--keep-key]

verify runs a conformance suite written from the service description against any
implementation (the real service, this fake, another); import reads lists, custom fields
and content into a seed.

  --base-url <url>     e.g. https://api.example.com/marketing/v1
  --server-id <n>      the server id (the Basic username)
  --key <key>          its key; better in FMS_VERIFY_KEY, out of the shell's history
  --ca <file>          a PEM to trust besides the system's (a fake's certificate)
  --allow-writes       verify: also check the writing rules, with a throwaway contact and
                       fields it makes (the contact stays: the API cannot delete contacts;
                       fields are deleted, and the report lists exactly what is left)
  --max-new-contacts <n>
                       verify: writes.contact-cap may create up to n throwaway contacts
                       looking for the account's contact maximum (they stay); default 0:
                       that check is skipped (the description does not give the maximum)
  --only <id>[,<id>]   verify: run only these checks (ids below, or verify --list)
  --list               verify: print every check id with its requirement, send nothing
  --dry-run            verify: print the plan with its requests, send nothing
  --reporter <r>       verify: text (default) or junit (drift is <failure>, could not run <error>)
  --out <file>         verify: write the report there; import: the seed file (required)
  --har <file>         verify: record its own traffic there (HAR 1.2, keys redacted), as
                       fake-marketing-server record does; replay it with replay <file>
  --keep-key           import: write the key into the seed (default: left out)

Exit codes (verify): 0 every check passed (skips are listed, with why), 1 drift,
2 usage, 3 could not run (unreachable, TLS, refused credentials, not the API).`;

const OPTIONS = {
  'base-url': { type: 'string' },
  'server-id': { type: 'string' },
  key: { type: 'string' },
  ca: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'max-new-contacts': { type: 'string' },
  'dry-run': { type: 'boolean' },
  list: { type: 'boolean' },
  only: { type: 'string' },
  reporter: { type: 'string' },
  out: { type: 'string' },
  'keep-key': { type: 'boolean' },
  har: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The usage, then every check: `verify --help`. */
function usage(): string {
  const checks = verifyPlan(true).map(
    (check) =>
      `  ${`${check.id}${check.writes ? ' (writes)' : ''}`.padEnd(40)}section ${check.section.split(';')[0]}`,
  );
  return `${VERIFY_USAGE}\n\nChecks (verify --list for what each requires):\n${checks.join('\n')}`;
}

function target(values: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv) {
  const baseUrl = values['base-url'];
  const serverId = values['server-id'];
  const key = (values.key as string | undefined) ?? env.FMS_VERIFY_KEY;
  if (typeof baseUrl !== 'string') throw new UsageError('--base-url is required.');
  if (typeof serverId !== 'string')
    throw new UsageError('--server-id is required: the server id, a number.');
  // The value is not repeated: a key given there by mistake is never printed.
  if (!/^\d{1,9}$/.test(serverId))
    throw new UsageError(
      `--server-id must be the server id, a whole number of 1 to 9 digits (the Basic username); the value given (${serverId.length} characters, not shown) is not one.`,
    );
  if (!key) throw new UsageError('--key (or FMS_VERIFY_KEY) is required.');
  try {
    checkTarget({ baseUrl, serverId: Number(serverId), key }, '--base-url');
  } catch (error) {
    if (error instanceof InvalidOptionError) throw new UsageError(error.message);
    throw error;
  }
  const ca = typeof values.ca === 'string' ? readFlagFile(values.ca, '--ca') : undefined;
  return { baseUrl, serverId: Number(serverId), key, ...(ca ? { ca } : {}) };
}

/** The plan of the chosen checks; an unknown id or a writing one without --allow-writes is usage. */
function plan(allowWrites: boolean, only: readonly string[] | undefined) {
  try {
    return verifyPlan(allowWrites, only);
  } catch (error) {
    if (error instanceof InvalidOptionError) throw new UsageError(error.message);
    throw error;
  }
}

/** `verify` and `import`: returns the exit code; output goes to stdout, problems to stderr. */
export async function runVerifyCommand(
  command: 'verify' | 'import',
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: negativeNumbersJoined(argv), options: OPTIONS, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${usage()}\n`);
    return EXIT_PASS;
  }
  const allowWrites = values['allow-writes'] === true;
  const only =
    typeof values.only === 'string'
      ? values.only
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== '')
      : undefined;
  if (only?.length === 0)
    throw new UsageError('--only needs check ids (verify --list shows them).');
  if (command === 'verify' && values.list) {
    for (const check of plan(true, only)) {
      process.stdout.write(
        `${check.id}${check.writes ? ' (writes)' : ''}\n  section ${check.section}\n  requires: ${check.requirement}\n`,
      );
    }
    return EXIT_PASS;
  }
  // Checked before --dry-run too: a dry run shows what the same flags would do, or says they are wrong.
  const reporter = values.reporter ?? 'text';
  if (command === 'verify' && reporter !== 'text' && reporter !== 'junit')
    throw new UsageError('--reporter is text or junit.');
  const maxNewContacts = values['max-new-contacts'];
  if (maxNewContacts !== undefined && !/^\d{1,6}$/.test(String(maxNewContacts)))
    throw new UsageError('--max-new-contacts is a whole number of contacts, 0 or more.');
  if (command === 'verify' && values['dry-run']) {
    const checks = plan(allowWrites, only);
    for (const check of checks) {
      process.stdout.write(
        `${check.id}${check.writes ? ' (writes)' : ''}\n  requires: ${check.requirement}\n`,
      );
      for (const request of check.requests) process.stdout.write(`  sends:    ${request}\n`);
    }
    process.stdout.write(`${checks.length} checks; nothing was sent.\n`);
    return EXIT_PASS;
  }
  const named = (value: string | boolean | undefined) =>
    typeof value === 'string' ? value : undefined;
  refuseOutputOver('--out', named(values.out), [
    [named(values.har), 'the HAR --har records to'],
    [named(values.ca), 'the --ca file'],
  ]);
  refuseOutputOver('--har', named(values.har), [[named(values.ca), 'the --ca file']]);
  const where = target(values, env);
  if (command === 'import') {
    if (values.har !== undefined) throw new UsageError('--har goes with verify, not import.');
    if (typeof values.out !== 'string') throw new UsageError('import needs --out <seed.json>.');
    const hidden: string[] = [];
    const seed = await importSeed({
      ...where,
      keepKey: values['keep-key'] === true,
      onKeyHidden: (place) => hidden.push(place),
    });
    // The seed holds the key with --keep-key: the file is its owner's alone either way.
    const out = values.out;
    writeOut(out, () =>
      writeFileAtomically(resolve(out), `${JSON.stringify(seed, null, 2)}\n`, PRIVATE_FILE_MODE),
    );
    const [server] = seed.servers;
    process.stdout.write(
      `Wrote ${values.out}: ${server?.lists?.length ?? 0} lists, ${server?.customFields?.length ?? 0} custom fields, ${server?.content?.length ?? 0} content items.\n` +
        'No contacts: the API cannot list them.\n' +
        (values['keep-key'] ? '' : 'The key is not in the file (--keep-key to write it).\n'),
    );
    // The account's own data held the key: the seed says [redacted] there, unlike the account.
    if (hidden.length > 0)
      process.stderr.write(
        `The account's data held the key; the seed has [redacted] in its place at ${hidden.join(', ')}.\n`,
      );
    return EXIT_PASS;
  }
  plan(allowWrites, only);

  const options = {
    ...where,
    allowWrites,
    ...(only ? { only } : {}),
    ...(maxNewContacts === undefined ? {} : { maxNewContacts: Number(maxNewContacts) }),
  };
  const recording =
    typeof values.har === 'string' ? await verifyRecorded(options, values.har) : undefined;
  const report = recording?.report ?? (await verifyService(options));
  const rendered = reporter === 'junit' ? reportJunit(report) : reportText(report);
  const out = values.out;
  if (typeof out === 'string') writeOut(out, () => writeReportFile(out, rendered));
  process.stdout.write(`${reporter === 'junit' && values.out ? reportText(report) : rendered}\n`);
  if (recording)
    process.stdout.write(
      recording.recorded === undefined
        ? `Nothing recorded to ${values.har}: the target could not be judged.\n`
        : `Recorded ${recording.recorded} exchanges to ${values.har}.\n`,
    );
  return report.exitCode;
}
