import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFakeMarketingServer } from '../../src/index.js';

/**
 * A state past the longest string V8 holds (about 512 MiB of JSON: 600 contacts with 1 MiB
 * values, after raising the cap). GET /__admin/state and saveState answered 500 'Invalid string
 * length', and the sandbox lost the state at SIGTERM. Both now write it in pieces. One value
 * string is shared by every contact, so the fake itself holds little; only the JSON is large.
 */
const MiB = 1024 * 1024;
const CONTACTS = 600;
const folder = mkdtempSync(join(tmpdir(), 'large-state-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The bytes of a stream, and whether it ends as the state's JSON does. */
async function measure(stream: NodeJS.ReadableStream): Promise<{ bytes: number; tail: string }> {
  let bytes = 0;
  let tail = '';
  for await (const chunk of stream) {
    bytes += (chunk as Buffer).length;
    tail = (tail + (chunk as Buffer).toString('latin1')).slice(-64);
  }
  return { bytes, tail };
}

describe('a state past 512 MiB of JSON', () => {
  it('streams to GET /__admin/state and to the state file, whole', async () => {
    const stateFile = join(folder, 'state.json');
    await using fake = await createFakeMarketingServer({ stateFile, maxContacts: CONTACTS });
    const value = 'v'.repeat(MiB);
    fake.seed({
      servers: [
        {
          serverId: 1234,
          key: 'large-state-key',
          maxContacts: CONTACTS,
          customFields: [{ name: 'Note' }],
          contacts: Array.from({ length: CONTACTS }, (_, index) => ({
            emailAddress: `c${index}@example.com`,
            customFields: { Note: value },
          })),
        },
      ],
    });
    const { url } = await fake.listen({ https: false });
    const answer = await new Promise<{ status: number; bytes: number; tail: string }>(
      (resolve, reject) => {
        request(`${url}/__admin/state`, async (response) => {
          const measured = await measure(response);
          resolve({ status: response.statusCode ?? 0, ...measured });
        })
          .on('error', reject)
          .end();
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBeGreaterThan(CONTACTS * MiB);
    expect(answer.tail).toMatch(/nextIds":\{[^}]*\}\}\]\}$/);

    expect(fake.saveState()).toBe(stateFile);
    expect(statSync(stateFile).size).toBeGreaterThan(CONTACTS * MiB);
    const saved = await measure(createReadStream(stateFile));
    expect(saved.tail).toMatch(/\n {2}\]\n\}\n$/);
  }, 120_000);
});
