import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { AUTH, makeFake, SERVER_ID } from '../helpers/fake.js';

// Many sockets at once, so the requests really are in flight together, not queued on one.
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
let fake: FakeMarketingServer;
let url: string;

beforeAll(async () => {
  fake = await makeFake({ maxContacts: 10_000 });
  ({ url } = await fake.listen({ https: false }));
});
afterAll(async () => {
  agent.destroy();
  await fake.close();
});

function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${url}/marketing/v1/${path}`,
      {
        method,
        agent,
        headers: {
          authorization: AUTH,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('concurrency, through real sockets', () => {
  it('simultaneous add-by-email calls with one new address make one contact, and every answer has its id', async () => {
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, index) =>
        call('PUT', `lists/${1 + (index % 2)}/contacts`, { emailAddress: 'Same.New@Example.com' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const ids = new Set(answers.map((answer) => JSON.parse(answer.body).contactId));
    expect(ids.size).toBe(1);
    const created = fake.server(SERVER_ID).contact('same.new@example.com');
    expect(created?.contactId).toBe([...ids][0]);
    expect(created?.listIds).toEqual([1, 2]);
    expect(
      fake
        .server(SERVER_ID)
        .contacts()
        .filter((contact) => contact.emailAddress.toLowerCase() === 'same.new@example.com'),
    ).toHaveLength(1);
  });

  it('simultaneous creations against a contact cap never pass it', async () => {
    const existing = fake.server(SERVER_ID).contacts().length;
    fake.setMaxContacts(SERVER_ID, existing + 5);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        call('PUT', 'lists/1/contacts', { emailAddress: `capped${index}@example.com` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 403)).toHaveLength(35);
    expect(fake.server(SERVER_ID).contacts()).toHaveLength(existing + 5);
  });

  it('racing field creations never pass the 20-field limit', async () => {
    const existing = fake.server(SERVER_ID).customFields().length;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => call('POST', `customfields/Race${index}`)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20 - existing);
    expect(statuses.filter((status) => status === 409)).toHaveLength(40 - (20 - existing));
    expect(fake.server(SERVER_ID).customFields()).toHaveLength(20);
    const limit = answers.find((answer) => answer.status === 409);
    expect(JSON.parse(limit!.body).message).toBe(
      'You have exceeded the maximum number of Custom Field Names allowed.',
    );
  });
});
