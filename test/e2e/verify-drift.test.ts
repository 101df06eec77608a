import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyPlan, verifyService } from '../../src/index.js';
import { DRIFTS, type Drift, HARMLESS } from '../helpers/drift-proxy.js';
import { fakeBehindDriftProxy } from '../helpers/drift-setup.js';
import { KEY, SERVER_ID } from '../helpers/fake.js';

/**
 * verify's own drift suite: one fake, the project's drift proxy in front of it, one drift at a
 * time; each drift must fail exactly the checks named for it, and the harmless variations none.
 */
const running = fakeBehindDriftProxy();

const ALL = verifyPlan(true).map((check) => check.id);
const caught: string[] = [];

const READ_ONLY = new Set(verifyPlan(false).map((check) => check.id));
const caughtReadOnly: string[] = [];

/**
 * What the report says of each check, one line each, for a snapshot: the exact wording a user
 * reads (what was wanted, what came back, why a check skipped), the run's random tag and the
 * clock taken out.
 */
function said(report: Awaited<ReturnType<typeof verifyService>>): string[] {
  return report.results.map((result) =>
    `${result.status} ${result.id}: ${result.wanted === undefined ? '' : `wanted ${result.wanted}; `}got ${result.got}`
      // The thumbnail's expiry follows the clock.
      .replace(/\/Date\(\d+\)\//g, '/Date(<ms>)/')
      .replace(/[0-9a-f]{12}/g, '<tag>'),
  );
}

/** The account's own fields and contacts (with their lists and status), as seeded. */
function own() {
  const server = running.fake.server(SERVER_ID);
  const fields = server.customFields().filter(({ name }) => !name.startsWith('FmsVerify'));
  const contacts = server
    .contacts()
    .filter(({ emailAddress }) => !emailAddress.startsWith('fms-verify-'));
  // The one-letter field writes.field-name-1 makes is the run's own too.
  return { fields: fields.filter(({ name }) => name.length > 1), contacts };
}

/** The names of the fields a run made that are on the account now (FmsVerify..., or one letter). */
function runsFields(): string[] {
  return running.fake
    .server(SERVER_ID)
    .customFields()
    .map(({ name }) => name)
    .filter((name) => name.startsWith('FmsVerify') || name.length === 1);
}

async function runWith(drift: Drift | undefined, allowWrites = true) {
  running.fake.reset();
  const seeded = own();
  running.proxy.use(drift);
  const report = await verifyService({
    baseUrl: running.proxy.baseUrl,
    serverId: SERVER_ID,
    key: KEY,
    allowWrites,
    // The fake's cap (10, 3 seeded) is within reach: writes.contact-cap judges its answers.
    maxNewContacts: 10,
  });
  // Whatever the service answers, verify deletes, removes and unsubscribes only what it made.
  expect(own(), drift?.id).toEqual(seeded);
  // And every field of its own still on the account is in the report, as left.
  const unreported = runsFields().filter(
    (name) => !report.leftBehind.some((line) => line.startsWith(`the custom field ${name} (`)),
  );
  expect(unreported, `${drift?.id}: fields left and not reported`).toEqual([]);
  const ids = (status: string) =>
    report.results.filter((result) => result.status === status).map((result) => result.id);
  return { report, failed: ids('fail'), skipped: ids('skipped'), errors: ids('error') };
}

describe('verify drift suite', () => {
  it('passes every check through the proxy with no drift on, and leaves only its contacts', async () => {
    const { report, failed, skipped, errors } = await runWith(undefined);
    expect({ failed, skipped, errors }).toEqual({ failed: [], skipped: [], errors: [] });
    expect(report.results.map((result) => result.id)).toEqual(ALL);
    expect(report.exitCode).toBe(0);
    expect(said(report)).toMatchSnapshot();
    expect(report.leftBehind).toEqual([
      expect.stringMatching(
        /^the contact fms-verify-[0-9a-f]{12}-2@example\.com \(id \d+ as the service answered it; contacts cannot/,
      ),
      expect.stringMatching(
        /^the contact fms-verify-[0-9a-f]{12}@example\.com \(id \d+ as the service answered it; contacts cannot/,
      ),
      expect.stringMatching(/is unsubscribed/),
      // The fake's cap is 10 with 3 seeded: 5 more reach it after the run's two.
      expect.stringMatching(
        /^5 contact\(s\) fms-verify-[0-9a-f]{12}-cap1@example\.com to fms-verify-[0-9a-f]{12}-cap5@example\.com \(contacts cannot/,
      ),
    ]);
  });

  it.each(HARMLESS.map((drift) => [drift.id, drift] as const))(
    'harmless: %s passes',
    async (_id, drift) => {
      const { failed, skipped, errors } = await runWith(drift);
      expect({ failed, skipped, errors }).toEqual({ failed: [], skipped: [], errors: [] });
    },
  );

  it.each(DRIFTS.map((drift) => [drift.id, drift] as const))(
    'drift %s: fails exactly the checks named for it',
    async (_id, drift) => {
      const { report, failed, skipped, errors } = await runWith(drift);
      expect({ failed, skipped, errors }).toEqual({
        failed: [...drift.caughtBy],
        skipped: [...(drift.skips ?? [])],
        errors: [],
      });
      expect(report.exitCode).toBe(1);
      for (const result of report.results.filter((r) => r.status === 'fail')) {
        expect(result.wanted, result.id).toBeTruthy();
        expect(result.answer, result.id).toBeDefined();
      }
      // The words of each failure and skip, as the report gives them.
      expect(said(report).filter((line) => !line.startsWith('pass '))).toMatchSnapshot();
      caught.push(drift.id);
      // Read-only, the same drift fails exactly the read-only checks among those named.
      const readOnly = await runWith(drift, false);
      const wanted = drift.caughtBy.filter((id) => READ_ONLY.has(id));
      expect(readOnly.failed).toEqual(wanted);
      expect(readOnly.report.exitCode).toBe(wanted.length > 0 ? 1 : 0);
      if (wanted.length > 0) caughtReadOnly.push(drift.id);
    },
  );

  it('reports the catch rate', () => {
    const rate = `${caught.length}/${DRIFTS.length}`;
    console.log(
      `verify drift suite: caught ${rate} drifts with --allow-writes, ${caughtReadOnly.length}/${DRIFTS.length} read-only (${new Set(DRIFTS.map((d) => d.requirement)).size} requirements), ${HARMLESS.length} harmless variations passed`,
    );
    expect(caught.length).toBe(DRIFTS.length);
  });
});

describe('the requirements table of docs/fidelity.md', () => {
  const doc = readFileSync(new URL('../../docs/fidelity.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| (R\d\d) \|.*\| `([\w.-]+)` \| (read-only|write) \|$/gm)].map(
    ([, requirement, check, mode]) => ({ requirement: requirement!, check: check!, mode: mode! }),
  );

  it('names every check once, with its mode', () => {
    expect(rows.map((row) => [row.check, row.mode])).toEqual(
      verifyPlan(true).map((check) => [check.id, check.writes ? 'write' : 'read-only']),
    );
  });

  it('has drifts for every requirement, each failing the check the table names for it', () => {
    for (const row of rows) {
      const drifts = DRIFTS.filter((drift) => drift.requirement === row.requirement);
      expect(drifts.length, row.requirement).toBeGreaterThan(0);
      for (const drift of drifts) expect(drift.caughtBy, drift.id).toContain(row.check);
    }
    expect(new Set(DRIFTS.map((drift) => drift.requirement))).toEqual(
      new Set(rows.map((row) => row.requirement)),
    );
    expect(doc).toContain(`Catch rate: ${DRIFTS.length} of ${DRIFTS.length}.`);
  });
});
