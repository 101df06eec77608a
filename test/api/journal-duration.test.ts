import { describe, expect, it } from 'vitest';
import { call, useFake } from '../helpers/fake.js';

// docs/journal.md: "`durationMs` runs from arrival to the answer (or the cut connection), on the
// real clock." (Outside attack, round 6: every entry said 0 once fastify no longer timed replies.)

describe('durationMs', () => {
  const fake = useFake();

  it('counts a delay fault, from arrival to the answer', async () => {
    fake.faults.add({ kind: 'delay', delayMs: 60, times: 1 });
    const started = performance.now();
    await call(fake, 'GET', 'lists');
    const took = performance.now() - started;
    const [entry] = fake.requests();
    expect(entry!.durationMs).toBeGreaterThanOrEqual(59);
    expect(entry!.durationMs).toBeLessThanOrEqual(took + 1);
  });

  it('is more than nothing for an answer given at once, and counts on the real clock', async () => {
    await call(fake, 'GET', 'lists');
    const put = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'ann@example.com' },
    });
    expect(put.status).toBe(200);
    for (const entry of fake.requests()) {
      expect(entry.durationMs).toBeGreaterThan(0);
      expect(entry.durationMs).toBeLessThan(10_000);
    }
  });
});
