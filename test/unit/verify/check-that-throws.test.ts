import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Check } from '../../../src/verify/check-kit.js';
import { verifyService } from '../../../src/verify/verify.js';
import { closeUpstream, listenUpstream } from '../../helpers/upstream.js';

// Checks that throw what no check should: a plain error is a bug of verify, named as one; an
// error with a code is a transport problem; neither is a drift of the service.
const thrown: { value: unknown } = { value: undefined };

vi.mock('../../../src/verify/checks/index.js', () => {
  const check: Check = {
    id: 'test.throws',
    section: 'none',
    requirement: 'none',
    writes: false,
    requests: [],
    expect: async () => {
      throw thrown.value;
    },
  };
  return { CHECKS: [check] };
});

let server: Server | undefined;
afterEach(async () => {
  if (server) await closeUpstream(server);
  server = undefined;
});

async function runThrowing(value: unknown) {
  thrown.value = value;
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const baseUrl = await listenUpstream(server);
  const report = await verifyService({ baseUrl, serverId: 1234, key: 'verify-key-1234' });
  expect(report.results).toHaveLength(1);
  return { result: report.results[0]!, exitCode: report.exitCode };
}

describe('a check that throws an error of its own', () => {
  it('is an error of verify, named as a bug to report, not a drift', async () => {
    const { result, exitCode } = await runThrowing(new TypeError('x is not a function'));
    expect(result.status).toBe('error');
    expect(result.got).toBe(
      'the check itself failed: x is not a function (a bug of verify, please report it)',
    );
    expect(exitCode).toBe(3);
  });

  it('names a thrown value that is no Error by its text', async () => {
    const { result } = await runThrowing('plain text');
    expect(result.got).toBe(
      'the check itself failed: plain text (a bug of verify, please report it)',
    );
  });

  it('reads an error with a code as a transport problem, not a bug', async () => {
    const { result } = await runThrowing(
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    );
    expect(result.status).toBe('error');
    expect(result.got).toMatch(
      /^cannot reach 127\.0\.0\.1:\d+: ECONNRESET read ECONNRESET; check --base-url \(scheme, host, port\) and that the service is up$/,
    );
  });

  it('reads a message saying no answer came in time as a transport problem', async () => {
    for (const message of ['no answer within 30000 ms', 'no whole answer within 30000 ms']) {
      const { result } = await runThrowing(new Error(message));
      expect(result.got).toMatch(new RegExp(`^cannot reach 127\\.0\\.0\\.1:\\d+: ${message};`));
    }
  });
});
