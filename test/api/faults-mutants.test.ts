import { describe, expect, it } from 'vitest';
import { call, useFake } from '../helpers/fake.js';

// Tests that the mutation run (npm run mutation) asked for: removing a fault rule other than the
// first, and what removing answers, through the handle and the control API.

const fake = useFake();

describe('removing a fault rule other than the first', () => {
  it('through its handle: the others stay, in their order, and keep answering', async () => {
    const lists = fake.faults.add({ kind: 'status', status: 502, match: { path: '/lists' } });
    const content = fake.faults.add({ kind: 'status', status: 503, match: { path: '/content' } });
    const fields = fake.faults.add({
      kind: 'status',
      status: 504,
      match: { path: '/customfields' },
    });
    content.remove();
    expect(fake.faults.list().map((rule) => rule.id)).toEqual([lists.id, fields.id]);
    expect((await call(fake, 'GET', 'content')).status).toBe(200);
    expect((await call(fake, 'GET', 'lists')).status).toBe(502);
    expect((await call(fake, 'GET', 'customfields')).status).toBe(504);
    fields.remove();
    expect(fake.faults.list().map((rule) => rule.id)).toEqual([lists.id]);
    expect((await call(fake, 'GET', 'customfields')).status).toBe(200);
  });

  it('through DELETE /__admin/faults/:id: 204, then 404 for the same id, the others untouched', async () => {
    const first = fake.faults.add({ kind: 'delay', delayMs: 1 });
    const second = fake.faults.add({ kind: 'delay', delayMs: 2 });
    const third = fake.faults.add({ kind: 'delay', delayMs: 3 });
    const remove = (id: string) => fake.inject({ method: 'DELETE', url: `/__admin/faults/${id}` });
    expect((await remove(second.id)).statusCode).toBe(204);
    expect(fake.faults.list().map((rule) => [rule.id, rule.delayMs])).toEqual([
      [first.id, 1],
      [third.id, 3],
    ]);
    const again = await remove(second.id);
    expect(again.statusCode).toBe(404);
    expect(fake.faults.list()).toHaveLength(2);
    expect((await remove(third.id)).statusCode).toBe(204);
    expect(fake.faults.list().map((rule) => rule.id)).toEqual([first.id]);
  });
});
