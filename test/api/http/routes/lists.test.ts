import { describe, expect, it } from 'vitest';
import {
  basic,
  call,
  elementOrder,
  OTHER_KEY,
  OTHER_SERVER_ID,
  useFake,
} from '../../../helpers/fake.js';

const fake = useFake();

describe('GET /lists', () => {
  it("answers the server's lists in JSON: compact, one line", async () => {
    const response = await call(fake, 'GET', 'lists');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual([
      { id: 1, serverId: 1234, name: 'Newsletter' },
      { id: 2, serverId: 1234, name: 'Customers & <Friends>' },
    ]);
    expect(response.body).not.toContain('\n');
    expect(response.body).not.toContain(': ');
  });

  it('answers ArrayOfList/List with Id, Name, ServerId in XML, escaped', async () => {
    const response = await call(fake, 'GET', 'lists', { accept: 'text/xml' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(response.xml()).toEqual({
      ArrayOfList: {
        List: [
          { Id: '1', Name: 'Newsletter', ServerId: '1234' },
          { Id: '2', Name: 'Customers & <Friends>', ServerId: '1234' },
        ],
      },
    });
    expect(elementOrder(response.body, 'List')).toEqual([
      ['Id', 'Name', 'ServerId'],
      ['Id', 'Name', 'ServerId'],
    ]);
    expect(response.body).toContain('<Name>Customers &amp; &lt;Friends&gt;</Name>');
  });

  it('shows only the lists of the server whose credentials were used', async () => {
    const response = await call(fake, 'GET', 'lists', { auth: basic(OTHER_SERVER_ID, OTHER_KEY) });
    expect(response.json()).toEqual([
      { id: 1, serverId: OTHER_SERVER_ID, name: 'Other newsletter' },
    ]);
  });

  it('an empty server answers [] and an empty ArrayOfList', async () => {
    const { serverId, key } = fake.addServer();
    expect((await call(fake, 'GET', 'lists', { auth: basic(serverId, key) })).json()).toEqual([]);
    const xml = await call(fake, 'GET', 'lists', {
      auth: basic(serverId, key),
      accept: 'application/xml',
    });
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.xml()).toEqual({ ArrayOfList: '' });
  });
});

describe('GET /lists after seeding and reset', () => {
  it('shows lists added by seed() and drops them on reset(), in both formats', async () => {
    await call(fake, 'GET', 'lists');
    await call(fake, 'GET', 'lists', { accept: 'text/xml' });
    fake.seed({ servers: [{ serverId: 1234, lists: [{ name: 'Seeded later' }] }] });
    expect((await call(fake, 'GET', 'lists')).json()).toContainEqual({
      id: 3,
      serverId: 1234,
      name: 'Seeded later',
    });
    expect((await call(fake, 'GET', 'lists', { accept: 'text/xml' })).body).toContain(
      '<Name>Seeded later</Name>',
    );
    fake.reset();
    expect((await call(fake, 'GET', 'lists')).json()).toHaveLength(2);
    expect((await call(fake, 'GET', 'lists', { accept: 'text/xml' })).body).not.toContain(
      'Seeded later',
    );
  });
});
