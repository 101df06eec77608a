import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { replayHar } from '../../../src/index.js';
import { MAX_DECODED_BODY_BYTES } from '../../../src/replay/har-input.js';
import { browserHar } from '../../helpers/browser-har.js';

const AUTH = `Basic ${Buffer.from('12345:sandbox-key-12345').toString('base64')}`;
const MiB = 1024 * 1024;

/** A recorded GET /lists whose answer is `bytes`, base64, labelled with `encoding`. */
function harOf(bytes: Buffer, encoding: string) {
  return browserHar([
    {
      method: 'GET',
      path: '/lists',
      authorization: AUTH,
      status: 200,
      responseBody: bytes.toString('base64'),
      base64: true,
      responseHeaders: [
        { name: 'Content-Type', value: 'application/json' },
        { name: 'Content-Encoding', value: encoding },
      ],
    },
  ]);
}

/**
 * gzip of `mib` MiB of spaces: one member of 1 MiB, repeated (gzip members concatenate), so that
 * a bomb of a GiB costs a megabyte to build.
 */
function gzipBomb(mib: number): Buffer {
  const member = gzipSync(Buffer.alloc(MiB, 0x20), { level: 9 });
  return Buffer.concat(Array.from({ length: mib }, () => member));
}

describe('replay decodes compressed bodies within a bound', () => {
  it('a compressed body is compared decoded: gzip, deflate and br', async () => {
    const answer = Buffer.from('[{"id":1,"serverId":12345,"name":"Newsletter"}]');
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(answer)],
      ['deflate', deflateSync(answer)],
      ['br', brotliCompressSync(answer)],
    ] as const) {
      const report = await replayHar(harOf(bytes, encoding), {
        seed: { servers: [{ serverId: 12345, lists: [{ id: 1, name: 'Newsletter' }] }] },
      });
      expect(report.results[0], encoding).toMatchObject({ outcome: 'match' });
    }
  });

  it.each([
    ['just past the bound', MAX_DECODED_BODY_BYTES / MiB + 1],
    ['a GiB from a megabyte (a bomb)', 1024],
  ])(
    'a body that decodes to more than the bound (%s) is not comparable, saying why',
    async (_, mib) => {
      const bomb = gzipBomb(mib);
      expect(bomb.length).toBeLessThan(mib * 1100);
      const report = await replayHar(harOf(bomb, 'gzip'));
      expect(report.results[0]).toMatchObject({
        outcome: 'not comparable',
        reason: `the recorded answer body decodes (gzip) to more than ${MAX_DECODED_BODY_BYTES} bytes, the most replay reads`,
      });
    },
  );

  it('a base64 body that is not compressed is bounded too: past the bound, not comparable', async () => {
    // Measured from the text's length: the 32 MiB are never decoded.
    const past = Buffer.alloc(MAX_DECODED_BODY_BYTES + 1, 0x20);
    const report = await replayHar(harOf(past, 'identity'));
    expect(report.results[0]).toMatchObject({
      outcome: 'not comparable',
      reason: `the recorded answer body decodes (base64) to more than ${MAX_DECODED_BODY_BYTES} bytes, the most replay reads`,
    });
  });

  it('a base64 body that is not compressed, within the bound, is compared decoded', async () => {
    const answer = Buffer.from('[{"id":1,"serverId":12345,"name":"Newsletter"}]');
    const report = await replayHar(harOf(answer, 'identity'), {
      seed: { servers: [{ serverId: 12345, lists: [{ id: 1, name: 'Newsletter' }] }] },
    });
    expect(report.results[0]).toMatchObject({ outcome: 'match' });
  });

  it('the bound is 32 MiB, as docs/fidelity.md says', () => {
    expect(MAX_DECODED_BODY_BYTES).toBe(32 * MiB);
  });
});
