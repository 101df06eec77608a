import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/domain/errors.js';
import {
  FakeMarketingServerError,
  FaultRuleError,
  InvalidOptionError,
  SeedError,
  StateError,
  StateSaveError,
  UnknownServerError,
  WaitTimeoutError,
} from '../../../src/index.js';

// What each error carries (name, code,
// status, headers, message), since one sender turns them into answers.

describe('ApiError', () => {
  it('fills every placeholder it is given and leaves the others as written', () => {
    const error = new ApiError('METHOD_NOT_ALLOWED', { method: 'PUT', path: '/x' });
    expect(error.message).toBe('PUT is not allowed on /x; use {allow}.');
    expect(error.name).toBe('ApiError');
    expect(error.code).toBe('METHOD_NOT_ALLOWED');
    expect(error.status).toBe(405);
    expect(error.statusCode).toBe(405);
    expect(error.headers).toEqual({});
  });

  it("sends the table's own headers, the error's, or both (the error's last)", () => {
    expect(new ApiError('ADMIN_UNAUTHORIZED').headers).toEqual({
      'www-authenticate': 'Bearer realm="fake-marketing-server"',
    });
    expect(
      new ApiError('ADMIN_UNAUTHORIZED', {}, { headers: { 'www-authenticate': 'x', a: 'b' } })
        .headers,
    ).toEqual({ 'www-authenticate': 'x', a: 'b' });
    expect(
      new ApiError('SERVICE_UNAVAILABLE', {}, { headers: { 'retry-after': '5' } }).headers,
    ).toEqual({ 'retry-after': '5' });
  });

  it("takes the rule's status for an injected fault, and needs one", () => {
    const error = new ApiError(
      'INJECTED_STATUS',
      { status: 418, reason: 'Teapot' },
      { status: 418 },
    );
    expect(error.status).toBe(418);
    expect(error.message).toBe('Injected fault: 418 Teapot.');
    expect(() => new ApiError('INJECTED_STATUS')).toThrow(
      new TypeError('INJECTED_STATUS needs its status'),
    );
    // A status given for an error whose status is fixed does not change it.
    expect(new ApiError('ROUTE_NOT_FOUND', {}, { status: 500 }).status).toBe(404);
  });
});

describe("the handle's errors", () => {
  // Made inside the test: errors built while the file loads are not counted by the mutation run.
  it.each([
    [() => new SeedError('servers[0]', 'bad'), 'SeedError', 'SEED_INVALID', 400, 'servers[0]: bad'],
    [() => new SeedError('', 'bad'), 'SeedError', 'SEED_INVALID', 400, 'bad'],
    [
      () => new UnknownServerError(4321),
      'UnknownServerError',
      'UNKNOWN_SERVER',
      404,
      'Server 4321 does not exist in this fake; create it with addServer() or a seed.',
    ],
    [() => new InvalidOptionError('nope'), 'InvalidOptionError', 'INVALID_OPTION', 400, 'nope'],
    [() => new StateError('later'), 'StateError', 'STATE_CONFLICT', 409, 'later'],
    [
      () => new StateSaveError('/s/state.json', 'the disk is full'),
      'StateSaveError',
      'STATE_NOT_SAVED',
      507,
      'Could not write the state file /s/state.json: the disk is full. The state is still in memory: fix that and save again.',
    ],
    [
      () => new WaitTimeoutError('late', []),
      'WaitTimeoutError',
      'REQUEST_NOT_RECEIVED',
      404,
      'late',
    ],
    [() => new FaultRuleError('odd'), 'FaultRuleError', 'FAULT_RULE_INVALID', 400, 'odd'],
    [
      () => new FakeMarketingServerError('any'),
      'FakeMarketingServerError',
      'INVALID_OPTION',
      400,
      'any',
    ],
  ])('%#: %s', (make, name, code, status, message) => {
    const error = make();
    expect(error).toBeInstanceOf(FakeMarketingServerError);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
    expect(error.headers).toEqual({});
  });

  it('keep what they are about', () => {
    expect(new SeedError('servers', 'x').path).toBe('servers');
    expect(new UnknownServerError(4321).serverId).toBe(4321);
    const closest = [{ entry: {} as never, differences: ['method GET (wanted PUT)'] }];
    expect(new WaitTimeoutError('late', closest).closest).toBe(closest);
  });
});
