import { describe, expect, it } from 'vitest';
import {
  HostAllowList,
  hostnameOf,
  isHostName,
  isHostPattern,
} from '../../../src/http/host-allow-list.js';

// The edges of the control API's Host
// allow-list and of the names it takes.

describe('the Host allow-list', () => {
  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['10.1.2.3', true],
    ['LOCALHOST', true],
    ['localhost.', true],
    ['app.localhost', true],
    ['localhostx', false],
    ['xlocalhost', false],
    ['sandbox', true],
    ['SANDBOX.', true],
    ['sandbox.example', false],
    ['mysandbox', false],
    ['ci.internal', true],
    ['a.b.INTERNAL', true],
    ['internal', false],
    ['evilinternal', false],
    ['evil.example', false],
    ['', false],
  ])('%j -> %s', (host, allowed) => {
    // Built inside the test, so that the mutation run counts what building does.
    const list = new HostAllowList(['Sandbox.', '.Internal']);
    expect(list.allows(host)).toBe(allowed);
  });

  it('allows nothing beyond addresses and localhost when given no names', () => {
    const bare = new HostAllowList([]);
    expect(
      ['localhost', '192.168.0.1', 'sandbox', 'a.internal'].map((h) => bare.allows(h)),
    ).toEqual([true, true, false, false]);
  });
});

describe('host names and patterns', () => {
  it.each([
    ['sandbox', true],
    ['fake_1.ci-runner.internal', true],
    ['[::1]', false],
    ['::1', true],
    ['a b', false],
    ['', false],
    [5, false],
    [undefined, false],
  ])('isHostName(%j) -> %s', (name, expected) => {
    expect(isHostName(name)).toBe(expected);
  });

  it.each([
    ['.internal', true],
    ['internal', true],
    ['.', false],
    ['x.', true],
    [' .internal', false],
    [7, false],
  ])('isHostPattern(%j) -> %s', (name, expected) => {
    expect(isHostPattern(name)).toBe(expected);
  });
});

describe('hostnameOf: a name that ends in a number', () => {
  it.each([
    ['127.0.0.1:8443', '127.0.0.1'],
    ['10.0.0.255', '10.0.0.255'],
    ['api.example', 'api.example'],
    ['x.1a:80', 'x.1a'],
    ['1a.example', '1a.example'],
    ['0x.example', '0x.example'],
    ['256.1.1.1', undefined],
    ['1.2.3.4.5', undefined],
    ['999.1.1.1:80', undefined],
    ['a.1', undefined],
    ['a.0x1f', undefined],
    ['a.0X', undefined],
    ['127.1', undefined],
    ['0x7f.0.0.1', undefined],
    ['127.0.0.1.', undefined],
    ['a.1.', undefined],
    ['12345', undefined],
  ])('%s -> %s', (host, name) => {
    expect(hostnameOf(host)).toBe(name);
  });
});
