// The bound on journal `body` filters (docs/journal.md): how long one filtered read of a full
// journal, and one new entry against 100 pending waits with costly filters, hold the event loop.
// `npm run build && node bench/body-filter.mjs`: prints one JSON object (median and worst of 7
// runs, in ms). The shapes are the costly ones test/api/journal/journal-filter-budget.test.ts and
// journal-filter-wide.test.ts bound.
import { createFakeMarketingServer } from '../dist/index.js';

const SERVER_ID = 12345;
const KEY = 'bench-key';
const AUTH = `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;
const ITEMS = 2000;
const BIG = JSON.stringify({
  emailAddress: 'x@example.com',
  customFields: Array.from({ length: ITEMS }, (_, i) => ({ Name: `F${i}`, Value: `${i % 10}` })),
});
const SMALL = JSON.stringify({ emailAddress: 'x@example.com' });
const LATE = {
  customFields: Array.from({ length: 120 }, (_, i) => ({ name: `F${ITEMS - 1 - i}` })),
};

async function journalOf(body, entries) {
  const fake = await createFakeMarketingServer({
    seed: { servers: [{ serverId: SERVER_ID, key: KEY, lists: [{ name: 'Newsletter' }] }] },
  });
  for (let i = 0; i < entries; i += 1) {
    await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      payload: body,
    });
  }
  return fake;
}

function timed(run) {
  const runs = [];
  for (let i = 0; i < 7; i += 1) {
    const started = performance.now();
    try {
      run();
    } catch {
      // A refused read is what is measured.
    }
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  return { medianMs: +runs[3].toFixed(1), worstMs: +runs[6].toFixed(1) };
}

const results = {};
const big = await journalOf(BIG, 1000);
results.readLateMatch1000x56KiB = timed(() => big.requests({ body: LATE }));
results.readCheap1000x56KiB = timed(() => big.requests({ body: { emailAddress: 'y' } }));
await big.close();

// Objects of 6,000 properties, a filter of 900 names they lack.
const WIDE = JSON.stringify({
  emailAddress: 'x@example.com',
  ...Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`K${i}`, 0])),
});
const NAMES = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`z${i}`, 1]));
const wide = await journalOf(WIDE, 100);
results.readWide900Names100x58KB = timed(() => wide.requests({ body: NAMES }));
await wide.close();

const small = await journalOf(SMALL, 1000);
results.readCheap1000Small = timed(() =>
  small.requests({ body: { emailAddress: 'x@example.com' } }),
);
await small.close();

/** PUT of the large body (a 400 for its fields, recorded all the same), as the client sees it. */
async function puts(fake, payload = BIG) {
  const runs = [];
  for (let i = 0; i < 7; i += 1) {
    const started = performance.now();
    await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      payload,
    });
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  return { medianMs: +runs[3].toFixed(1), worstMs: +runs[6].toFixed(1) };
}

// 100 waits with the 900-name filter; each PUT of a wide body is tested against all of them.
const wideWaited = await journalOf(SMALL, 0);
const wideWaits = Array.from({ length: 100 }, () =>
  wideWaited.waitForRequest({ body: NAMES }, { timeoutMs: 600_000 }).catch(() => undefined),
);
results.putWideWith100WideWaits = await puts(wideWaited, WIDE);
await wideWaited.close();
await Promise.all(wideWaits);

const waited = await journalOf(SMALL, 0);
results.putWithNoWait = await puts(waited);
// The waits' first scan of these entries would spend a read's budget: start from an empty journal.
waited.clearRequests();
const waits = Array.from({ length: 100 }, () =>
  waited.waitForRequest({ body: LATE }, { timeoutMs: 600_000 }).catch(() => undefined),
);
let refused = 0;
for (const wait of waits) {
  wait.then((entry) => {
    if (entry === undefined) refused += 1;
  });
}
results.putWith100CostlyWaits = await puts(waited);
await new Promise((resolve) => setImmediate(resolve));
results.waitsEndedEarly = refused;
await waited.close();
await Promise.all(waits);
console.log(JSON.stringify(results, null, 2));
