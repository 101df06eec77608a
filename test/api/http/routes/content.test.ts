import { beforeEach, describe, expect, it } from 'vitest';
import { call, elementOrder, makeFake, useFake } from '../../../helpers/fake.js';

let now: Date;
beforeEach(() => {
  now = new Date('2026-11-22T12:00:00.000Z');
});
const fake = useFake({ clock: () => now });

interface ContentJson {
  id: number;
  name: string;
  thumbnailUrl: string;
  thumbnailExpiration: string;
  created: string;
  updated: string;
}

describe('GET /content', () => {
  it('lists content with UTC timestamps and a thumbnail that expires in an hour (JSON)', async () => {
    const response = await call(fake, 'GET', 'content');
    expect(response.status).toBe(200);
    const items = response.json() as ContentJson[];
    expect(items.map(({ thumbnailUrl: _, ...rest }) => rest)).toEqual([
      {
        id: 1,
        name: 'Welcome',
        thumbnailExpiration: '2026-11-22T13:00:00.000Z',
        created: '2026-01-05T10:00:00.000Z',
        updated: '2026-01-06T09:30:00.000Z',
      },
      {
        id: 2,
        name: 'News & <more>',
        thumbnailExpiration: '2026-11-22T13:00:00.000Z',
        created: '2026-02-01T08:00:00.000Z',
        updated: '2026-02-01T08:00:00.000Z',
      },
    ]);
    expect(Object.keys(items[0]!)).toEqual([
      'id',
      'name',
      'thumbnailUrl',
      'thumbnailExpiration',
      'created',
      'updated',
    ]);
    expect(items[0]!.thumbnailUrl).toMatch(/^http:\/\/localhost:80\/thumbnails\/[\w-]+\.png$/);
  });

  it('answers ArrayOfContent/Content with elements in the documented order (XML)', async () => {
    const response = await call(fake, 'GET', 'content', { accept: 'text/xml' });
    expect(elementOrder(response.body, 'Content')).toEqual([
      ['Created', 'Name', 'Id', 'ThumbnailExpiration', 'ThumbnailUrl', 'Updated'],
      ['Created', 'Name', 'Id', 'ThumbnailExpiration', 'ThumbnailUrl', 'Updated'],
    ]);
    const parsed = response.xml() as { ArrayOfContent: { Content: Record<string, string>[] } };
    expect(parsed.ArrayOfContent.Content[1]).toMatchObject({
      Created: '2026-02-01T08:00:00.000Z',
      Name: 'News & <more>',
      Id: '2',
      ThumbnailExpiration: '2026-11-22T13:00:00.000Z',
      Updated: '2026-02-01T08:00:00.000Z',
    });
  });

  it('the thumbnail serves a PNG until it expires, then 404', async () => {
    const [item] = (await call(fake, 'GET', 'content')).json() as ContentJson[];
    const path = new URL(item!.thumbnailUrl).pathname;
    const image = await fake.inject({ url: path });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    now = new Date('2026-11-22T12:59:59.999Z');
    expect((await fake.inject({ url: path })).statusCode).toBe(200);
    now = new Date('2026-11-22T13:00:00.000Z');
    const expired = await fake.inject({ url: path });
    expect(expired.statusCode).toBe(404);
    expect(JSON.parse(expired.body)).toEqual({
      message: 'This thumbnail does not exist or has expired.',
    });
  });

  it('a later GET /content mints a new URL with a later expiry', async () => {
    const [first] = (await call(fake, 'GET', 'content')).json() as ContentJson[];
    now = new Date('2026-11-22T12:30:00.000Z');
    const [second] = (await call(fake, 'GET', 'content')).json() as ContentJson[];
    expect(second!.thumbnailUrl).not.toBe(first!.thumbnailUrl);
    expect(second!.thumbnailExpiration).toBe('2026-11-22T13:30:00.000Z');
  });

  it('a forged or edited thumbnail URL is a 404', async () => {
    const [item] = (await call(fake, 'GET', 'content')).json() as ContentJson[];
    const path = new URL(item!.thumbnailUrl).pathname;
    const later = path
      .replace(/-(\d+)-/, (_, contentId) => `-${contentId}-`)
      .replace(/-(\d{13})-/, '-9999999999999-');
    expect((await fake.inject({ url: later })).statusCode).toBe(404);
    expect((await fake.inject({ url: '/thumbnails/nothing.png' })).statusCode).toBe(404);
    expect((await fake.inject({ url: path.replace('.png', '.gif') })).statusCode).toBe(404);
  });

  it('a thumbnail minted by another fake is not valid here', async () => {
    const [item] = (await call(fake, 'GET', 'content')).json() as ContentJson[];
    await using other = await makeFake({ clock: () => now });
    expect((await other.inject({ url: new URL(item!.thumbnailUrl).pathname })).statusCode).toBe(
      404,
    );
  });

  it('an empty server answers []', async () => {
    const { serverId, key } = fake.addServer();
    const response = await call(fake, 'GET', 'content', {
      auth: `Basic ${Buffer.from(`${serverId}:${key}`).toString('base64')}`,
    });
    expect(response.json()).toEqual([]);
  });
});
