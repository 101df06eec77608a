import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeMarketingServer, type FakeMarketingServer } from '../../src/index.js';
import { startRecorder } from '../../src/record/recorder.js';
import { replayHar } from '../../src/replay/replay.js';
import {
  DRIFTS,
  type Drift,
  type DriftProxy,
  HARMLESS,
  startDriftProxy,
} from '../helpers/drift-proxy.js';
import { KEY, SERVER_ID, smallSeed } from '../helpers/fake.js';
import { scriptedSession } from '../helpers/session.js';

let fake: FakeMarketingServer;
let proxy: DriftProxy;
let folder: string;
let runs = 0;

beforeAll(async () => {
  fake = await createFakeMarketingServer({ seed: smallSeed() });
  await fake.listen({ https: false });
  proxy = await startDriftProxy({ upstream: fake.url });
  folder = mkdtempSync(join(tmpdir(), 'replay-drifts-'));
});
afterAll(async () => {
  await proxy?.close();
  await fake?.close();
  rmSync(folder, { recursive: true, force: true });
});

/**
 * The drift, watched: which exchanges (numbered from 0, as the sequential session's HAR entries
 * are) it actually changed, in the request it let through or the answer it gave.
 */
function watched(drift: Drift | undefined, changed: Set<number>): Drift | undefined {
  if (!drift) return undefined;
  let exchange = -1;
  return {
    ...drift,
    request: (request, state) => {
      exchange += 1;
      const out = drift.request ? drift.request(request, state) : request;
      if (JSON.stringify(out) !== JSON.stringify(request)) changed.add(exchange);
      return out;
    },
    answer: (answer, request, state) => {
      const out = drift.answer ? drift.answer(answer, request, state) : answer;
      if (JSON.stringify(out) !== JSON.stringify(answer)) changed.add(exchange);
      return out;
    },
  };
}

/** The "real service" (the fake behind the drift proxy) recorded through the recorder, replayed. */
async function recordAndReplay(drift: Drift | undefined, seeded = true) {
  fake.reset();
  const changed = new Set<number>();
  proxy.use(watched(drift, changed));
  runs += 1;
  const out = join(folder, `${runs}-${drift?.id ?? 'none'}.har`);
  const recorder = await startRecorder({ upstream: proxy.baseUrl, out, https: false });
  let sent: number;
  try {
    sent = await scriptedSession({ baseUrl: recorder.baseUrl, serverId: SERVER_ID, key: KEY });
  } finally {
    await recorder.close();
  }
  const har = readFileSync(out, 'utf8');
  const report = await replayHar(har, seeded ? { seed: smallSeed() } : {});
  const flagged = report.results.filter((r) => r.outcome === 'drift').map((r) => r.index);
  return { report, sent, changed: [...changed].sort((a, b) => a - b), flagged, har };
}

describe('replay of a recorded session against the drift proxy', () => {
  it('with no drift, every exchange matches (seeded and inferred starting state)', async () => {
    for (const seeded of [true, false]) {
      const { report, sent, har } = await recordAndReplay(undefined, seeded);
      expect(report.results).toHaveLength(sent);
      expect(report.results.filter((r) => r.outcome !== 'match')).toEqual([]);
      expect(har).not.toContain(KEY);
    }
  });

  // A drift that only changes answers leaves the service's state as the fake's: replay must flag
  // the exchanges it changed and no other.
  const answerOnly = DRIFTS.filter((drift) => drift.request === undefined);
  const exact: string[] = [];
  it.each(answerOnly.map((drift) => [drift.id, drift] as const))(
    'flags exactly the exchanges %s changed',
    async (_id, drift) => {
      const { changed, flagged } = await recordAndReplay(drift);
      expect(flagged).toEqual(changed);
      if (changed.length > 0) exact.push(drift.id);
    },
  );

  it('so at least 15 drifts, each caught on exactly the exchanges it changed', () => {
    expect(exact.length).toBeGreaterThanOrEqual(15);
  });

  // A drift that changes requests changes the service's state: later answers may differ too
  // (a field refused upstream is missing from every later listing). Every changed exchange is
  // flagged, and nothing before the first one.
  const changingRequests = DRIFTS.filter((drift) => drift.request !== undefined);
  it.each(changingRequests.map((drift) => [drift.id, drift] as const))(
    'flags every exchange %s changed, and nothing before the first',
    async (_id, drift) => {
      const { changed, flagged } = await recordAndReplay(drift);
      expect(flagged).toEqual(expect.arrayContaining(changed));
      expect(flagged[0]).toBe(changed[0]);
    },
  );

  it.each([
    'harmless.xml-namespaces',
    'harmless.xml-whitespace',
    'harmless.content-type-spelling',
    'harmless.timestamps-without-milliseconds',
  ])(
    'takes %s (namespaces, whitespace, media type spelling, timestamp precision) as a match',
    async (id) => {
      const drift = HARMLESS.find((one) => one.id === id) as Drift;
      const { changed, flagged } = await recordAndReplay(drift);
      expect(changed.length).toBeGreaterThan(0);
      expect(flagged).toEqual([]);
    },
  );

  // Harmless for verify (the description allows them), but still a difference from what the
  // service was recorded answering: replay reports it, so the fake can learn it.
  it.each(['harmless.create-201', 'harmless.extra-fields'])(
    'reports %s on exactly the exchanges it changed',
    async (id) => {
      const drift = HARMLESS.find((one) => one.id === id) as Drift;
      const { changed, flagged } = await recordAndReplay(drift);
      expect(changed.length).toBeGreaterThan(0);
      expect(flagged).toEqual(changed);
    },
  );
});
