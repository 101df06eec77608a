import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { DRIFTS, HARMLESS, startDriftProxy } from '../helpers/drift-proxy.js';
import { fakeBehindDriftProxy } from '../helpers/drift-setup.js';
import { AUTH } from '../helpers/fake.js';

const running = fakeBehindDriftProxy();

const get = async (path: string, accept = 'application/json') => {
  const answer = await fetch(`${running.proxy.baseUrl}${path}`, {
    headers: { authorization: AUTH, accept },
  });
  return {
    status: answer.status,
    type: answer.headers.get('content-type'),
    body: await answer.text(),
  };
};

describe('the drift proxy (test helper)', () => {
  it('passes exchanges through unchanged with no drift on', async () => {
    const direct = await running.fake.inject({
      url: '/marketing/v1/lists',
      headers: { authorization: AUTH },
    });
    expect(await get('/lists')).toEqual({
      status: 200,
      type: direct.headers['content-type'],
      body: direct.body,
    });
  });

  it('applies the drift switched on, and only until it is switched off', async () => {
    running.proxy.use(DRIFTS.find((drift) => drift.id === 'lists.json-name-missing'));
    expect(JSON.parse((await get('/lists')).body)[0]).toEqual({ id: 1, serverId: 1234 });
    running.proxy.use(undefined);
    expect(JSON.parse((await get('/lists')).body)[0]).toEqual({
      id: 1,
      serverId: 1234,
      name: 'Newsletter',
    });
  });

  it('has unique ids, one requirement for every drift and at least 40 of them', () => {
    const ids = [...DRIFTS, ...HARMLESS].map((drift) => drift.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(DRIFTS.length).toBeGreaterThanOrEqual(40);
    expect(
      DRIFTS.every((drift) => /^R\d\d$/.test(drift.requirement) && drift.caughtBy.length > 0),
    ).toBe(true);
    expect(HARMLESS.every((drift) => drift.caughtBy.length === 0)).toBe(true);
  });

  it('serves HTTPS with a certificate the client can trust', async () => {
    const secure = await startDriftProxy({ upstream: running.proxy.url, https: true });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          `${secure.baseUrl}/lists`,
          { ca: secure.ca, headers: { authorization: AUTH } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
    } finally {
      await secure.close();
    }
  });
});
