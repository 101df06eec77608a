import { describe, expect, it } from 'vitest';
import { Journal, type JournalRecord } from '../../../src/journal/journal.js';
import { call, useFake } from '../../helpers/fake.js';

const LIMIT = 1024;
const SIZE = 20;
const MIB = 1024 * 1024;

/**
 * What an object holds, found by walking everything reachable from it: every distinct
 * ArrayBuffer (through Buffers and other views) and the characters of every string.
 */
function retained(root: unknown): { buffers: ArrayBuffer[]; bytes: number; longestString: number } {
  const seen = new Set<unknown>();
  const buffers = new Set<ArrayBuffer>();
  let stringBytes = 0;
  let longestString = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      stringBytes += value.length;
      longestString = Math.max(longestString, value.length);
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      buffers.add(value.buffer as ArrayBuffer);
      continue;
    }
    if (value instanceof ArrayBuffer) {
      buffers.add(value);
      continue;
    }
    if (value instanceof Map) stack.push(...value.keys(), ...value.values());
    else if (value instanceof Set) stack.push(...value.values());
    else stack.push(...Object.keys(value), ...Object.values(value));
  }
  const bufferBytes = [...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0);
  return { buffers: [...buffers], bytes: bufferBytes + stringBytes, longestString };
}

function journalOf(fake: object): Journal {
  const journal = (fake as unknown as { core: { journal: Journal } }).core.journal;
  expect(journal).toBeInstanceOf(Journal);
  return journal;
}

describe('the journal keeps at most journalBodyLimit bytes of each body', () => {
  const fake = useFake({ journalSize: SIZE, journalBodyLimit: LIMIT });

  it('1 MiB bodies through the pipeline: each kept body in memory of at most the limit', async () => {
    const padding = 'x'.repeat(MIB - 100);
    const body = (i: number) => ({ emailAddress: 'not an address', firstName: `${i}${padding}` });
    for (let i = 0; i < SIZE + 5; i += 1) {
      const response = await call(fake, 'PUT', 'lists/1/contacts', { body: body(i) });
      expect(response.status).toBe(400);
    }
    const held = retained(journalOf(fake));
    expect(held.buffers.length).toBeGreaterThanOrEqual(SIZE);
    for (const buffer of held.buffers) expect(buffer.byteLength).toBeLessThanOrEqual(LIMIT);
    expect(held.longestString).toBeLessThanOrEqual(LIMIT);
    // Two bodies per entry at most, plus headers and the like (a few hundred bytes each).
    expect(held.bytes).toBeLessThan(SIZE * (2 * LIMIT + 2048));

    const entries = fake.requests();
    expect(entries).toHaveLength(SIZE);
    expect(entries[0]?.request).toMatchObject({
      bodySize: JSON.stringify(body(5)).length,
      bodyTruncated: true,
    });
  });

  it('reading the journal and the HAR caches nothing', async () => {
    for (let i = 0; i < 3; i += 1) {
      await call(fake, 'PUT', 'lists/1/contacts', {
        body: { emailAddress: 'not an address', firstName: 'y'.repeat(MIB / 2) },
      });
    }
    const before = retained(journalOf(fake)).bytes;
    expect(fake.requests()).toHaveLength(3);
    expect(fake.requestsHar().log.entries).toHaveLength(3);
    expect(retained(journalOf(fake)).bytes).toBe(before);
  });
});

describe('GET /__admin/requests and requests.har', () => {
  const fake = useFake();

  it('stream the same bytes as the whole documents, over many chunks', async () => {
    for (let i = 0; i < 5; i += 1) {
      await call(fake, 'PUT', 'lists/1/contacts', {
        body: { emailAddress: `a${i}@example.com`, firstName: `${i}`.repeat(60_000) },
      });
    }
    await call(fake, 'GET', 'lists?x=1');
    const admin = (path: string) => fake.inject({ method: 'GET', url: `/__admin${path}` });
    const journal = await admin('/requests');
    expect(journal.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(journal.body.length).toBeGreaterThan(5 * 60_000);
    expect(journal.body).toBe(JSON.stringify(fake.requests()));
    const filtered = await admin('/requests?method=GET');
    expect(filtered.body).toBe(JSON.stringify(fake.requests({ method: 'GET' })));
    expect((await admin('/requests?path=/nothing')).body).toBe('[]');
    const har = await admin('/requests.har?operation=addToListByEmail');
    expect(har.body).toBe(JSON.stringify(fake.requestsHar({ operation: 'addToListByEmail' })));
    expect((await admin('/requests.har?path=/nothing')).body).toBe(
      JSON.stringify(fake.requestsHar({ path: '/nothing' })),
    );
  });
});

describe('Journal.record', () => {
  const facts: JournalRecord = {
    arrived: 0,
    durationMs: 1,
    protocol: 'http',
    method: 'PUT',
    url: '/marketing/v1/lists/1/contacts',
    query: {},
    serverId: undefined,
    operation: undefined,
    format: 'json',
    status: 200,
    fault: undefined,
    requestHeaders: { host: 'localhost' },
    responseHeaders: {},
  };

  it('copies a small body that is a view of larger memory, and cuts large ones into copies', () => {
    const journal = new Journal(10, LIMIT);
    const large = Buffer.alloc(2 * MIB, 'a');
    journal.record(facts, large.subarray(0, 10), 'é'.repeat(MIB));
    journal.record(facts, large, large);
    const held = retained(journal);
    expect(held.buffers.map((buffer) => buffer.byteLength).sort((a, b) => a - b)).toEqual([
      10,
      LIMIT,
      LIMIT,
      LIMIT,
    ]);
    const [small, cut] = journal.entries();
    expect(small?.request).toEqual({
      headers: { host: 'localhost' },
      body: 'aaaaaaaaaa',
      bodySize: 10,
    });
    // Whole characters only: 512 two-byte characters fill the limit.
    expect(small?.response.body).toBe(
      `${'é'.repeat(LIMIT / 2)}…[truncated: ${2 * MIB} bytes in all]`,
    );
    expect(cut?.request).toMatchObject({ bodySize: 2 * MIB, bodyTruncated: true });
  });

  it('keeps a small body that holds no more than the limit by reference', () => {
    const journal = new Journal(10, LIMIT);
    // Memory of its own, exactly the body's size (Buffer.from('...') would be a slice of a pool).
    const body = Buffer.from(new TextEncoder().encode('{"a":1}').buffer);
    journal.record(facts, body, undefined);
    expect(retained(journal).buffers).toEqual([body.buffer]);
    expect(journal.entries()[0]?.request.body).toEqual({ a: 1 });
  });
});
