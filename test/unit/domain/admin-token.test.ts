import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_RULE, isAdminToken } from '../../../src/domain/rules.js';
import { createFakeMarketingServer, InvalidOptionError } from '../../../src/index.js';

// An admin token is sent in an Authorization header: one a client cannot send is refused.

describe('admin tokens', () => {
  it.each(['a', 'x'.repeat(1024), 'Tk/9+ab_cDe-77Q=', '~!#$%&()*'])('takes %j', (token) => {
    expect(isAdminToken(token)).toBe(true);
  });

  it.each(['', 'x'.repeat(1025), 'a\nb', 'a\rb', 'a b', 'a\tb', 'tökén', 'a\u007fb', 'a\u0085b'])(
    'refuses %j',
    (token) => {
      expect(isAdminToken(token)).toBe(false);
    },
  );

  it('every token taken authenticates on the control API, every other is refused at creation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }),
        async (token) => {
          const created = createFakeMarketingServer({ adminToken: token });
          if (!isAdminToken(token)) {
            await expect(created).rejects.toThrow(InvalidOptionError);
            await expect(created).rejects.toThrow(ADMIN_TOKEN_RULE);
            return;
          }
          const fake = await created;
          try {
            const answer = await fake.inject({
              url: '/__admin/health',
              headers: { authorization: `Bearer ${token}` },
            });
            expect(answer.statusCode).toBe(200);
          } finally {
            await fake.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
