import { afterEach, describe, expect, it } from 'vitest';
import { localhostCertificateOnce } from '../../src/certificate.js';
import { createFakeMarketingServer, type FakeMarketingServer } from '../../src/index.js';
import { AUTH, makeFake, parseXml } from '../helpers/fake.js';
import { send } from '../helpers/request.js';

let fake: FakeMarketingServer;
afterEach(() => fake.close());

describe('over a real socket', () => {
  it('serves HTTPS with a certificate that verifies against the returned ca only', async () => {
    fake = await makeFake();
    const { url, baseUrl, ca } = await fake.listen();
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(baseUrl).toBe(`${url}/marketing/v1`);
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(fake.url).toBe(url);
    expect(fake.ca).toBe(ca);

    const json = await send(`${baseUrl}/lists`, { ca, headers: { authorization: AUTH } });
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toHaveLength(2);

    const xml = await send(`${baseUrl}/lists`, {
      ca,
      headers: { authorization: AUTH, accept: 'text/xml' },
    });
    expect(parseXml(xml.body)).toHaveProperty('ArrayOfList.List');

    const added = await send(`${baseUrl}/lists/2/contacts/`, {
      ca,
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ emailAddress: 'wire@example.com' }),
    });
    expect(JSON.parse(added.body)).toEqual({ serverId: 1234, contactId: 4, listId: 2 });
  });

  it('the certificate is valid for localhost too', async () => {
    fake = await makeFake();
    const { url, ca } = await fake.listen({ host: 'localhost' });
    expect(url).toMatch(/^https:\/\/localhost:\d+$/);
    const response = await send(`${url}/marketing/v1/customfields`, {
      ca,
      headers: { authorization: AUTH },
    });
    expect(response.status).toBe(200);
  });

  it('is refused by a client that does not trust the certificate', async () => {
    fake = await makeFake();
    const { baseUrl } = await fake.listen();
    await expect(send(`${baseUrl}/lists`, { headers: { authorization: AUTH } })).rejects.toThrow(
      /self[- ]signed|unable to verify/i,
    );
  });

  it('reuses one certificate per process', async () => {
    fake = await makeFake();
    const first = await fake.listen();
    await using second = await makeFake();
    const other = await second.listen();
    expect(other.ca).toBe(first.ca);
  });

  it('serves plain HTTP with https: false, and ca is undefined', async () => {
    fake = await makeFake();
    const { url, ca } = await fake.listen({ https: false });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ca).toBeUndefined();
    const response = await send(`${url}/marketing/v1/lists`, { headers: { authorization: AUTH } });
    expect(response.status).toBe(200);
  });

  it('serves a given key and cert', async () => {
    const { key, cert } = await localhostCertificateOnce();
    fake = await makeFake();
    const { url, ca } = await fake.listen({ key, cert });
    expect(ca).toBeUndefined();
    const response = await send(`${url}/marketing/v1/lists`, {
      ca: cert,
      headers: { authorization: AUTH },
    });
    expect(response.status).toBe(200);
  });

  it('thumbnail URLs point at the fake itself and download over the socket', async () => {
    fake = await makeFake({ clock: () => new Date() });
    const { baseUrl, url, ca } = await fake.listen();
    const content = await send(`${baseUrl}/content`, { ca, headers: { authorization: AUTH } });
    const [item] = JSON.parse(content.body) as { thumbnailUrl: string }[];
    expect(item!.thumbnailUrl.startsWith(`${url}/thumbnails/`)).toBe(true);
    const image = await send(item!.thumbnailUrl, { ca });
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
  });

  it('listening twice is refused; close() frees the port and keep-alive sockets', async () => {
    fake = await createFakeMarketingServer();
    const { url } = await fake.listen({ https: false });
    await expect(fake.listen({ https: false })).rejects.toThrow('Already listening');
    await fake.close();
    await expect(send(`${url}/marketing/v1/lists`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('a port in use is a clear error', async () => {
    fake = await makeFake();
    const { url } = await fake.listen({ https: false });
    await using other = await makeFake();
    await expect(other.listen({ https: false, port: Number(new URL(url).port) })).rejects.toThrow(
      /EADDRINUSE/,
    );
  });
});
