// In-process figures: run with `node --expose-gc bench/in-process.mjs`; prints one JSON object.
import { createFakeMarketingServer } from '../dist/index.js';

const SERVER_ID = 12345;
const KEY = 'bench-key';
const AUTH = `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;

function seedWith(contacts, { values = true } = {}) {
  return {
    servers: [
      {
        serverId: SERVER_ID,
        key: KEY,
        maxContacts: contacts + 1_000_000,
        customFields: [{ name: 'FirstName' }, { name: 'LastName' }],
        lists: [{ name: 'Newsletter' }, { name: 'Customers' }],
        contacts: Array.from({ length: contacts }, (_, i) => ({
          emailAddress: `contact${i}@example.com`,
          ...(values ? { customFields: { FirstName: `First${i % 100}` } } : {}),
          lists: [1 + (i % 2)],
        })),
      },
    ],
  };
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const round = (value, digits = 2) => Number(value.toFixed(digits));

async function timeCreateAndInject(runs) {
  const seed = { servers: [{ serverId: SERVER_ID, key: KEY, lists: [{ name: 'Newsletter' }] }] };
  const times = [];
  for (let i = 0; i < runs + 1; i++) {
    const started = performance.now();
    const fake = await createFakeMarketingServer({ seed });
    await fake.inject({ url: '/marketing/v1/lists', headers: { authorization: AUTH } });
    const elapsed = performance.now() - started;
    await fake.close();
    if (i > 0) times.push(elapsed); // "after the first": the first pays for module compilation
  }
  return { medianMs: round(quantile(times, 0.5)), p90Ms: round(quantile(times, 0.9)), runs };
}

async function timeReset(contacts, runs) {
  const fake = await createFakeMarketingServer({ seed: seedWith(contacts) });
  const times = [];
  for (let i = 0; i < runs; i++) {
    await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: { authorization: AUTH },
      payload: { emailAddress: `dirty${i}@example.com` },
    });
    globalThis.gc();
    const started = performance.now();
    fake.reset();
    times.push(performance.now() - started);
  }
  await fake.close();
  return {
    contacts,
    medianMs: round(quantile(times, 0.5)),
    p90Ms: round(quantile(times, 0.9)),
    runs,
  };
}

async function timeSeed(contacts, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const seed = seedWith(contacts);
    const fake = await createFakeMarketingServer();
    // Collect the previous iteration's garbage first: the figure is seed()'s own work.
    globalThis.gc();
    const started = performance.now();
    fake.seed(seed);
    times.push(performance.now() - started);
    await fake.close();
  }
  return { contacts, medianMs: round(quantile(times, 0.5)), runs };
}

async function addByEmailThroughput(contacts, requests) {
  const fake = await createFakeMarketingServer({ seed: seedWith(contacts, { values: false }) });
  const headers = { authorization: AUTH, 'content-type': 'application/json' };
  const add = (i) =>
    fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers,
      payload: `{"emailAddress":"new${i}@example.com","firstName":"N"}`,
    });
  for (let i = 0; i < 2000; i++) await add(-i - 1); // warm-up
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const response = await add(i);
    if (response.statusCode !== 200)
      throw new Error(`add-by-email answered ${response.statusCode}`);
  }
  const seconds = (performance.now() - started) / 1000;
  await fake.close();
  return { contacts, requests, perSecond: Math.round(requests / seconds) };
}

async function heapPerContact(contacts, values) {
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const fake = await createFakeMarketingServer();
  fake.seed(seedWith(contacts, { values }));
  globalThis.gc();
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  const perContact = (after - before) / contacts;
  await fake.close();
  return { contacts, customFieldValue: values, bytesPerContact: Math.round(perContact) };
}

/**
 * Heap per journal entry for a typical add-by-email exchange: the same 10 000 requests through a
 * fake with a 10 000-entry journal and through one with the journal off; the difference is what
 * the entries hold (headers, body bytes, the answer).
 */
async function heapPerJournalEntry(requests) {
  // Body bytes live in ArrayBuffers, outside the V8 heap: both count.
  const used = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const heapAfter = async (journalSize) => {
    globalThis.gc();
    const before = used();
    const fake = await createFakeMarketingServer({ seed: seedWith(0), journalSize });
    for (let i = 0; i < requests; i++) {
      await fake.inject({
        method: 'PUT',
        url: '/marketing/v1/lists/1/contacts',
        headers: {
          authorization: AUTH,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        payload: JSON.stringify({
          emailAddress: `journal${i}@example.com`,
          customFields: [{ Name: 'FirstName', Value: `First${i}` }],
        }),
      });
    }
    globalThis.gc();
    globalThis.gc();
    const grown = used() - before;
    await fake.close();
    return grown;
  };
  const off = await heapAfter(0);
  const on = await heapAfter(requests);
  return { entries: requests, bytesPerEntry: Math.round((on - off) / requests) };
}

// Each task runs in a fresh process (see bench/run.mjs), so one task's garbage never lands on
// another's clock or heap figure.
const TASKS = {
  'create-inject': () => timeCreateAndInject(300),
  'reset-10k': () => timeReset(10_000, 30),
  'reset-100k': () => timeReset(100_000, 10),
  'seed-100k': () => timeSeed(100_000, 5),
  'add-1k': () => addByEmailThroughput(1_000, 30_000),
  'add-1m': () => addByEmailThroughput(1_000_000, 30_000),
  'heap-1m': () => heapPerContact(1_000_000, false),
  'heap-1m-values': () => heapPerContact(1_000_000, true),
  'heap-journal-entry': () => heapPerJournalEntry(10_000),
};

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const task = TASKS[process.argv[2]];
if (!task)
  throw new Error(`usage: node --expose-gc bench/in-process.mjs <${Object.keys(TASKS).join('|')}>`);
process.stdout.write(`${JSON.stringify(await task())}\n`);
