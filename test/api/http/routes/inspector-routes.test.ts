import { describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../../../src/index.js';
import { call, makeFake, OTHER_SERVER_ID, SERVER_ID, useFake } from '../../../helpers/fake.js';

const fake = useFake();

function admin(target: FakeMarketingServer, path: string) {
  return call(target, 'GET', `/__admin${path}`, { auth: null });
}

describe('what the inspector polls: bounded answers whatever the state', () => {
  it('GET /servers counts each server, in the order they were added', async () => {
    const response = await admin(fake, '/servers');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual([
      { serverId: SERVER_ID, lists: 2, contacts: 3, customFields: 3, content: 2 },
      { serverId: OTHER_SERVER_ID, lists: 1, contacts: 1, customFields: 0, content: 0 },
    ]);
  });

  it('GET /servers/{id}/overview shows lists with member counts, fields, content and contacts', async () => {
    const response = await admin(fake, `/servers/${SERVER_ID}/overview`);
    expect(response.status).toBe(200);
    const overview = response.json();
    expect(overview).toMatchObject({
      serverId: SERVER_ID,
      counts: { lists: 2, contacts: 3, customFields: 3, content: 2 },
      lists: [
        { id: 1, name: 'Newsletter', members: 2 },
        { id: 2, name: 'Customers & <Friends>', members: 1 },
      ],
      customFields: [
        { customFieldNameId: 1, name: 'FirstName' },
        { customFieldNameId: 2, name: 'LastName' },
        { customFieldNameId: 3, name: 'City' },
      ],
      moreContacts: false,
    });
    expect(overview.content.map((item: { name: string }) => item.name)).toEqual([
      'Welcome',
      'News & <more>',
    ]);
    expect(overview.content[0]).toMatchObject({ updated: '2026-01-06T09:30:00.000Z' });
    expect(overview.content[0].thumbnailUrl).toMatch(/\/thumbnails\/.+\.png$/);
    expect(overview.contacts[0]).toEqual({
      contactId: 1,
      emailAddress: 'Ann@Example.com',
      status: 'Active',
      lists: [1],
      customFields: { FirstName: 'Ann', City: 'Lisbon' },
    });
    // Nothing the inspector reads lands in the journal.
    expect(fake.requests()).toEqual([]);
  });

  it('filters contacts by search (email or value, any case), status and list', async () => {
    const ids = async (query: string) =>
      (await admin(fake, `/servers/${SERVER_ID}/overview?${query}`))
        .json()
        .contacts.map((contact: { contactId: number }) => contact.contactId);
    expect(await ids('search=LISBON')).toEqual([1]);
    expect(await ids('search=ann%40example')).toEqual([1]);
    expect(await ids('search=.')).toEqual([1, 2, 3]);
    expect(await ids('search=a.n')).toEqual([]);
    expect(await ids('status=Unsubscribed')).toEqual([3]);
    expect(await ids('listId=2')).toEqual([2]);
    expect(await ids('listId=1&search=ben')).toEqual([2]);
    expect(await ids('listId=99')).toEqual([]);
  });

  it('shows `limit` contacts and says when more match; cuts long values', async () => {
    const big = await makeFake({ seed: { servers: [] } });
    big.seed({
      servers: [
        {
          serverId: 4321,
          maxContacts: 500,
          customFields: [{ name: 'Note' }],
          contacts: Array.from({ length: 300 }, (_, index) => ({
            emailAddress: `c${index}@example.com`,
            customFields: { Note: `${index}:${'x'.repeat(5000)}` },
          })),
        },
      ],
    });
    const first = (await admin(big, '/servers/4321/overview')).json();
    expect(first.contacts).toHaveLength(100);
    expect(first.moreContacts).toBe(true);
    expect(first.contacts[0].customFields.Note).toBe(`0:${'x'.repeat(198)}…`);
    const all = (await admin(big, '/servers/4321/overview?limit=300')).json();
    expect(all.contacts).toHaveLength(300);
    expect(all.moreContacts).toBe(false);
    // The search reads the whole value, not the cut one.
    const found = (await admin(big, '/servers/4321/overview?search=x299')).json();
    expect(found.contacts).toEqual([]);
    const tail = (await admin(big, `/servers/4321/overview?search=${'x'.repeat(250)}`)).json();
    expect(tail.contacts).toHaveLength(100);
    await big.close();
  });

  it('searches hundreds of megabytes of values without holding up the event loop', async () => {
    const big = await makeFake({ seed: { servers: [] } });
    // One string shared by every contact: little memory, and still 1 MiB to read per contact.
    const value = 'v'.repeat(1024 * 1024);
    big.seed({
      servers: [
        {
          serverId: 4321,
          maxContacts: 600,
          customFields: [{ name: 'Note' }],
          contacts: Array.from({ length: 600 }, (_, index) => ({
            emailAddress: `c${index}@example.com`,
            customFields: { Note: value },
          })),
        },
      ],
    });
    // Turns the event loop gives other work while the search runs (a timer's, here).
    let turns = 0;
    const ticker = setInterval(() => {
      turns += 1;
    }, 1);
    // Straight to the fake: the OpenAPI check of the answer would take its own time.
    const answer = await big.inject({ url: '/__admin/servers/4321/overview?search=nowhere' });
    clearInterval(ticker);
    await big.close();
    expect(answer.json().contacts).toEqual([]);
    // The search read 600 MiB (60 ms or more on any machine) in slices of 5 ms, and other work ran
    // between them: at one go, the timer ran once at most, after it. Counted, not timed.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it.each([
    ['limit=0', 'limit must be a whole number from 1 to 1000.'],
    ['limit=1001', 'limit must be a whole number from 1 to 1000.'],
    ['limit=ten', 'limit must be a whole number from 1 to 1000.'],
    ['status=Bounced', 'status must be one of Active, Unsubscribed.'],
    ['listId=-1', 'listId must be a list id.'],
    ['search=a&search=b', "'search' is given more than once."],
    [`search=${'a'.repeat(257)}`, 'search is at most 256 characters.'],
    ['colour=red', "unknown parameter 'colour'; use search, status, listId, limit."],
  ])('refuses overview?%s with a 400 that says why', async (query, message) => {
    const response = await admin(fake, `/servers/${SERVER_ID}/overview?${query}`);
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it('answers 404 for the overview of a server the fake does not hold', async () => {
    expect((await admin(fake, '/servers/4444/overview')).status).toBe(404);
  });
});

describe('journal reads for a page that polls', () => {
  async function three() {
    for (const path of ['lists', 'customfields', 'content']) await call(fake, 'GET', path);
    await call(fake, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'dee@example.com' } });
  }

  it('last=n reads the newest n of the matches, oldest first', async () => {
    await three();
    const ids = fake.requests().map((entry) => entry.id);
    const response = await admin(fake, '/requests?last=2');
    expect(response.json().map((entry: { id: number }) => entry.id)).toEqual(ids.slice(-2));
    const filtered = await admin(fake, '/requests?method=GET&last=2');
    expect(filtered.json().map((entry: { id: number }) => entry.id)).toEqual(ids.slice(1, 3));
    const since = await admin(fake, `/requests?sinceId=${ids[2]}&last=50`);
    expect(since.json().map((entry: { id: number }) => entry.id)).toEqual([ids[3]]);
  });

  it('bodies=none leaves the bodies out and keeps their sizes', async () => {
    await three();
    const [whole] = (await admin(fake, '/requests?last=1')).json();
    const [light] = (await admin(fake, '/requests?last=1&bodies=none')).json();
    expect(whole.request.body).toEqual({ emailAddress: 'dee@example.com' });
    const { body: requestBody, ...request } = whole.request;
    const { body: responseBody, ...response } = whole.response;
    expect(requestBody).toBeDefined();
    expect(responseBody).toBeDefined();
    expect(light).toEqual({ ...whole, request, response });
    expect(light.request.bodySize).toBe(Buffer.byteLength('{"emailAddress":"dee@example.com"}'));
  });

  it('bodies=none reads a cut body as cut, without its bytes', async () => {
    const small = await makeFake({ journalBodyLimit: 16 });
    const body = { emailAddress: 'dee@example.com', firstName: 'x'.repeat(100) };
    await call(small, 'PUT', 'lists/1/contacts', { body });
    const [light] = (await admin(small, '/requests?bodies=none')).json();
    const bodySize = Buffer.byteLength(JSON.stringify(body));
    expect(light.request).toMatchObject({ bodySize, bodyTruncated: true });
    expect(light.request.body).toBeUndefined();
    await small.close();
  });

  it('says in Journal-Oldest-Id which entries are gone, as the journal clears and drops them', async () => {
    const oldest = async (target = fake) =>
      Number((await admin(target, '/requests?last=1')).headers['journal-oldest-id']);
    expect(await oldest()).toBe(1);
    await three();
    expect(await oldest()).toBe(1);
    fake.clearRequests();
    expect(await oldest()).toBe(5);
    await call(fake, 'GET', 'lists');
    expect(await oldest()).toBe(5);
    const ring = await makeFake({ journalSize: 2 });
    for (let index = 0; index < 5; index++) await call(ring, 'GET', 'lists');
    expect(await oldest(ring)).toBe(4);
    await ring.close();
  });

  it('GET /requests/{id} is one entry, whole; 404 once it has gone', async () => {
    await three();
    const [entry] = fake.requests().slice(-1);
    const response = await admin(fake, `/requests/${entry!.id}`);
    expect(response.status).toBe(200);
    expect(response.json()).toEqual(JSON.parse(JSON.stringify(entry)));
    fake.clearRequests();
    const gone = await admin(fake, `/requests/${entry!.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json().message).toContain(`no entry ${entry!.id}`);
    expect((await admin(fake, '/requests/0')).status).toBe(404);
  });

  it('takes last and bodies on a tenant journal too', async () => {
    await three();
    const response = await admin(fake, `/tenants/${SERVER_ID}/requests?last=1&bodies=none`);
    expect(response.status).toBe(200);
    const entries = response.json();
    expect(entries).toHaveLength(1);
    expect(entries[0].request.body).toBeUndefined();
  });

  it.each([
    ['last=0', 'last must be a whole number of 1 or more: how many of the newest entries to read.'],
    [
      'last=-2',
      'last must be a whole number of 1 or more: how many of the newest entries to read.',
    ],
    [
      'last=1&last=2',
      'last must be a whole number of 1 or more: how many of the newest entries to read.',
    ],
    [
      'bodies=some',
      "bodies must be 'whole' (the default) or 'none' (entries without their bodies).",
    ],
  ])('refuses requests?%s with a 400 that says why', async (query, message) => {
    for (const path of ['/requests', `/tenants/${SERVER_ID}/requests`]) {
      const response = await admin(fake, `${path}?${query}`);
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ message });
    }
  });
});
