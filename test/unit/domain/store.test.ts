import { describe, expect, it } from 'vitest';
import {
  InvalidOptionError,
  ServerExistsError,
  UnknownServerError,
} from '../../../src/domain/errors.js';
import { seedErrorOf, server, store } from '../../helpers/seed.js';

// The store's own checks and the revision
// the redactor watches, on the Store class itself.

describe('Store', () => {
  it('is empty until a server is added', () => {
    const fresh = store();
    expect(fresh.isEmpty).toBe(true);
    fresh.addServer({ serverId: 1234, key: 'key-1234' });
    expect(fresh.isEmpty).toBe(false);
  });

  it('addServer answers the credentials it created, and refuses a taken id', () => {
    const target = store();
    expect(target.addServer({ serverId: 1234, key: 'key-1234' })).toEqual({
      serverId: 1234,
      key: 'key-1234',
    });
    expect(() => target.addServer({ serverId: 1234 })).toThrow(ServerExistsError);
    expect(target.keys()).toEqual(['key-1234']);
  });

  it.each([null, [], 'x'])('addServer(%j) is refused for its type', (options) => {
    const target = store();
    expect(() => target.addServer(options as never)).toThrow(
      new InvalidOptionError(
        'addServer options must be an object { serverId?, key?, maxContacts? }',
      ),
    );
    expect(target.isEmpty).toBe(true);
  });

  it('a server id that is not a number is a bad argument, not an unknown server', () => {
    const target = store();
    target.addServer({ serverId: 1234 });
    for (const call of [
      () => target.requireTenant('1234' as never),
      () => target.resetServer('1234' as never),
    ]) {
      expect(call).toThrow(InvalidOptionError);
      expect(call).toThrow('serverId must be a number, got the string "1234"');
    }
    expect(() => target.requireTenant(999)).toThrow(UnknownServerError);
  });

  it('resetServer restores a baseline server and removes one added since; unknown ids fail', () => {
    const target = store();
    target.addServer({ serverId: 1234, key: 'key-1234' });
    target.markBaseline();
    target.regenerateKey(1234);
    target.addServer({ serverId: 5678, key: 'key-5678' });
    target.resetServer(1234);
    expect(target.requireTenant(1234).key).toBe('key-1234');
    target.resetServer(5678);
    expect(target.tenant(5678)).toBeUndefined();
    expect(() => target.resetServer(5678)).toThrow(UnknownServerError);
  });

  it('keysRevision takes a new value at every change that may touch a key, never an old one', () => {
    const target = store();
    const seen = [target.keysRevision];
    const step = (change: () => unknown) => {
      change();
      seen.push(target.keysRevision);
    };
    step(() => target.addServer({ serverId: 1234, key: 'key-1234' }));
    target.markBaseline();
    step(() => target.regenerateKey(1234));
    step(() => target.addServer({ serverId: 5678 }));
    step(() => target.reset());
    step(() => target.resetServer(1234));
    step(() => target.seed(server({ serverId: 4321 })));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a seed extending a server refuses a field name neither the seed nor the server has', () => {
    const target = store();
    target.seed(server({ customFields: [{ customFieldNameId: 1, name: 'City' }] }));
    const error = seedErrorOf(
      server({ contacts: [{ emailAddress: 'a@example.com', customFields: { Town: 'x' } }] }),
      target,
    );
    expect(error.message).toContain('Town');
  });
});
