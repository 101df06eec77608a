import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { importSeed } from '../verify/import.js';
import { reportJunit, reportText, verifyPlan, verifyService } from '../verify/verify.js';
import { UsageError } from './args.js';

const VERIFY_USAGE = `Usage:
  fake-marketing-server verify --base-url URL --server-id N [--key K] [options]
  fake-marketing-server import --base-url URL --server-id N [--key K] --out seed.json [--keep-key]

verify runs a conformance suite written from the service description against any
implementation (the real service, this fake, another) and exits 0 only when every
check passes. import reads lists, custom fields and content into a seed.

  --base-url <url>     e.g. https://api.example.com/marketing/v1
  --server-id <n>      the server id (the Basic username)
  --key <key>          its key; better in FMS_VERIFY_KEY, out of the shell's history
  --ca <file>          a PEM to trust besides the system's (a fake's certificate)
  --allow-writes       verify: also check the writing rules, with a throwaway contact and
                       field it makes (the contact stays: the API cannot delete contacts)
  --dry-run            verify: print the plan, send nothing
  --reporter <r>       verify: text (default) or junit
  --out <file>         verify: write the report there; import: the seed file (required)
  --keep-key           import: write the key into the seed (default: left out)`;

const OPTIONS = {
  'base-url': { type: 'string' },
  'server-id': { type: 'string' },
  key: { type: 'string' },
  ca: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  reporter: { type: 'string' },
  out: { type: 'string' },
  'keep-key': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function target(values: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv) {
  const baseUrl = values['base-url'];
  const serverId = values['server-id'];
  const key = (values.key as string | undefined) ?? env.FMS_VERIFY_KEY;
  if (typeof baseUrl !== 'string') throw new UsageError('--base-url is required.');
  if (typeof serverId !== 'string' || !/^\d{1,9}$/.test(serverId)) {
    throw new UsageError('--server-id is required: the server id, a number.');
  }
  if (!key) throw new UsageError('--key (or FMS_VERIFY_KEY) is required.');
  const ca = typeof values.ca === 'string' ? readCa(values.ca) : undefined;
  return { baseUrl, serverId: Number(serverId), key, ...(ca ? { ca } : {}) };
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --ca ${file}: ${(error as Error).message}`);
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
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${VERIFY_USAGE}\n`);
    return 0;
  }
  if (command === 'verify' && values['dry-run']) {
    const plan = verifyPlan(values['allow-writes'] === true);
    for (const check of plan) {
      process.stdout.write(
        `${check.id}${check.writes ? ' (writes)' : ''}\n  requires: ${check.requirement}\n`,
      );
      for (const request of check.requests) process.stdout.write(`  sends:    ${request}\n`);
    }
    process.stdout.write(`${plan.length} checks; nothing was sent.\n`);
    return 0;
  }
  const where = target(values, env);
  if (command === 'import') {
    if (typeof values.out !== 'string') throw new UsageError('import needs --out <seed.json>.');
    const seed = await importSeed({ ...where, keepKey: values['keep-key'] === true });
    writeFileSync(values.out, `${JSON.stringify(seed, null, 2)}\n`);
    const [server] = seed.servers;
    process.stdout.write(
      `Wrote ${values.out}: ${server?.lists?.length ?? 0} lists, ${server?.customFields?.length ?? 0} custom fields, ${server?.content?.length ?? 0} content items.\n` +
        'No contacts: the API cannot list them.\n' +
        (values['keep-key'] ? '' : 'The key is not in the file (--keep-key to write it).\n'),
    );
    return 0;
  }
  const reporter = values.reporter ?? 'text';
  if (reporter !== 'text' && reporter !== 'junit')
    throw new UsageError('--reporter is text or junit.');
  const report = await verifyService({ ...where, allowWrites: values['allow-writes'] === true });
  const rendered = reporter === 'junit' ? reportJunit(report) : reportText(report);
  if (typeof values.out === 'string') writeFileSync(values.out, rendered);
  process.stdout.write(`${reporter === 'junit' && values.out ? reportText(report) : rendered}\n`);
  return report.failed === 0 ? 0 : 1;
}
