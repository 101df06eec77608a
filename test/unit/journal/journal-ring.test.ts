import { describe, expect, it } from 'vitest';
import { JournalRing } from '../../../src/journal/journal-ring.js';
import { listsRecord } from '../../helpers/journal-record.js';

// The journal's columns (src/journal/journal-ring.ts): what is written is read back whole, oldest
// first, and a slot written over keeps nothing of the exchange it held before.

const ids = (ring: JournalRing) => ring.ordered().map((slot) => slot.id);

describe('JournalRing', () => {
  it('reads back every fact and both bodies as written', () => {
    const ring = new JournalRing(4);
    const facts = listsRecord({
      arrived: 1_795_000_000_123.5,
      durationMs: 0.125,
      protocol: 'https',
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts?x=1',
      query: { x: '<redacted>' },
      serverId: 1234,
      authenticated: true,
      operation: 'addToListByEmail',
      format: 'xml',
      status: 201,
      fault: 'delay',
      requestHeaders: { host: 'fake.test', accept: 'text/xml' },
      responseHeaders: 'HTTP/1.1 201 Created\r\n\r\n',
      note: 'partial',
    });
    const at = ring.write(7, facts, Buffer.from('{"a":1}'), '<ok/>');
    expect(ring.at(at)).toEqual({
      id: 7,
      facts,
      requestBody: Buffer.from('{"a":1}'),
      responseBody: '<ok/>',
    });
  });

  it('keeps the last `capacity` exchanges, oldest first, and grows only as they arrive', () => {
    const ring = new JournalRing(3);
    expect(ring.ordered()).toEqual([]);
    ring.write(1, listsRecord(), undefined, undefined);
    ring.write(2, listsRecord(), undefined, undefined);
    expect(ids(ring)).toEqual([1, 2]);
    ring.write(3, listsRecord(), undefined, undefined);
    ring.write(4, listsRecord(), undefined, undefined);
    expect(ids(ring)).toEqual([2, 3, 4]);
    for (const id of [5, 6, 7]) ring.write(id, listsRecord(), undefined, undefined);
    expect(ids(ring)).toEqual([5, 6, 7]);
  });

  it('keeps nothing of the exchange a slot held before: no query, note, fault or body', () => {
    const ring = new JournalRing(1);
    ring.write(
      1,
      listsRecord({ query: { k: 'v' }, note: 'why', fault: 'reset', serverId: 1 }),
      Buffer.from('old'),
      'old',
    );
    ring.write(2, listsRecord(), undefined, undefined);
    const [slot] = ring.ordered();
    expect(slot).toEqual({
      id: 2,
      facts: listsRecord(),
      requestBody: undefined,
      responseBody: undefined,
    });
    expect(slot!.facts).not.toHaveProperty('query');
    expect(slot!.facts).not.toHaveProperty('note');
  });

  it('forgets everything on clear, and starts again from the first slot', () => {
    const ring = new JournalRing(2);
    for (const id of [1, 2, 3]) ring.write(id, listsRecord(), undefined, 'body');
    ring.clear();
    expect(ring.ordered()).toEqual([]);
    ring.write(4, listsRecord(), undefined, undefined);
    ring.write(5, listsRecord(), undefined, undefined);
    ring.write(6, listsRecord(), undefined, undefined);
    expect(ids(ring)).toEqual([5, 6]);
  });

  it('sets the duration of the exchange it names, and of no other, while the ring holds it', () => {
    const ring = new JournalRing(2);
    ring.write(1, listsRecord({ durationMs: 0.1 }), undefined, undefined);
    ring.write(2, listsRecord({ durationMs: 0.2 }), undefined, undefined);
    ring.setDuration(1, 350);
    expect(ring.ordered().map((slot) => slot.facts.durationMs)).toEqual([350, 0.2]);
    ring.setDuration(2, 450);
    expect(ring.ordered().map((slot) => slot.facts.durationMs)).toEqual([350, 450]);
    // Exchange 1 is written over by 3: setting it changes nothing, and adds nothing.
    ring.write(3, listsRecord({ durationMs: 0.3 }), undefined, undefined);
    ring.setDuration(1, 999);
    expect(ring.ordered().map((slot) => [slot.id, slot.facts.durationMs])).toEqual([
      [2, 450],
      [3, 0.3],
    ]);
  });
});
