import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/domain/store.js';

// A counter is checked against the
// largest id of its kind, wherever that id stands in the seed.

const store = () => new Store({ defaultMaxContacts: 100, now: () => 0 });

describe('nextIds against ids given out of order', () => {
  it('refuses a counter at or below the largest id, even when a smaller id comes last', () => {
    const seed = (list: number) => ({
      servers: [
        {
          serverId: 1234,
          lists: [
            { id: 7, name: 'Seven' },
            { id: 3, name: 'Three' },
          ],
          nextIds: { list },
        },
      ],
    });
    expect(() => store().seed(seed(5))).toThrow(
      'servers[0].nextIds.list: must be more than 7, the largest list id this server uses or has used (ids are never reused), got 5',
    );
    const target = store();
    target.seed(seed(8));
    expect(target.requireTenant(1234).peekNextIds().list).toBe(8);
  });
});
