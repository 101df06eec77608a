import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/domain/errors.js';
import { authenticate } from '../../../../src/http/pipeline/auth.js';

// The Basic step on stand-ins (the e2e suite, test/e2e/auth-connection.test.ts, does the same
// over a real keep-alive connection): a connection's repeated header opens its server again
// without @fastify/basic-auth, until the keys change; anything else goes to the plugin.

const TENANT = { serverId: 1234 };
const OTHER = { serverId: 5678 };

/** A stand-in app whose basicAuth opens TENANT for 'good' and OTHER for 'other', counting calls. */
function setup() {
  const store = { isEmpty: false, keysRevision: 1 };
  const parsed: string[] = [];
  const app = {
    basicAuth(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
      const header = String(request.headers.authorization);
      parsed.push(header);
      const tenant = header === 'good' ? TENANT : header === 'other' ? OTHER : null;
      (request as { tenant: unknown }).tenant = tenant;
      done(tenant ? undefined : new ApiError('UNAUTHORIZED'));
    },
  } as unknown as FastifyInstance;
  const step = authenticate(app, store, undefined);
  /** Runs the step for one request on `socket`; its error, or the server it opened. */
  const run = (socket: object, authorization?: string) => {
    const request = {
      operation: { auth: 'basic' },
      raw: { socket },
      headers: authorization === undefined ? {} : { authorization },
      tenant: null,
    } as unknown as FastifyRequest;
    let outcome: unknown = 'not done';
    step(request, {} as FastifyReply, (error?: Error) => {
      outcome = error ? (error as ApiError).code : (request as { tenant: unknown }).tenant;
    });
    return outcome;
  };
  return { store, parsed, run };
}

describe('Basic credentials sent again on a connection', () => {
  it('open the same server without being parsed again', () => {
    const { parsed, run } = setup();
    const socket = {};
    expect(run(socket, 'good')).toBe(TENANT);
    expect(run(socket, 'good')).toBe(TENANT);
    expect(run(socket, 'good')).toBe(TENANT);
    expect(parsed).toEqual(['good']);
  });

  it('are parsed again when they differ, or come without a header, on the same connection', () => {
    const { parsed, run } = setup();
    const socket = {};
    expect(run(socket, 'good')).toBe(TENANT);
    expect(run(socket, 'bad')).toBe('UNAUTHORIZED');
    expect(run(socket)).toBe('UNAUTHORIZED');
    expect(run(socket, 'other')).toBe(OTHER);
    expect(run(socket, 'other')).toBe(OTHER);
    // A refusal remembered nothing: the good header, sent after them, is parsed once more.
    expect(run(socket, 'good')).toBe(TENANT);
    expect(parsed).toEqual(['good', 'bad', 'undefined', 'other', 'good']);
  });

  it('are parsed each time they are refused, however often they come', () => {
    const { parsed, run } = setup();
    const socket = {};
    expect(run(socket, 'bad')).toBe('UNAUTHORIZED');
    expect(run(socket, 'bad')).toBe('UNAUTHORIZED');
    expect(run(socket)).toBe('UNAUTHORIZED');
    expect(run(socket)).toBe('UNAUTHORIZED');
    expect(parsed).toEqual(['bad', 'bad', 'undefined', 'undefined']);
  });

  it('count for their own connection only', () => {
    const { parsed, run } = setup();
    expect(run({}, 'good')).toBe(TENANT);
    expect(run({}, 'good')).toBe(TENANT);
    expect(parsed).toEqual(['good', 'good']);
  });

  it('are parsed again once the keys changed, then remembered under the new keys', () => {
    const { store, parsed, run } = setup();
    const socket = {};
    expect(run(socket, 'good')).toBe(TENANT);
    store.keysRevision = 2;
    expect(run(socket, 'good')).toBe(TENANT);
    expect(run(socket, 'good')).toBe(TENANT);
    expect(parsed).toEqual(['good', 'good']);
  });

  it('never open a fake that holds no server', () => {
    const { store, parsed, run } = setup();
    const socket = {};
    expect(run(socket, 'good')).toBe(TENANT);
    store.isEmpty = true;
    expect(run(socket, 'good')).toBe('NO_SERVERS');
    expect(parsed).toEqual(['good']);
  });
});
