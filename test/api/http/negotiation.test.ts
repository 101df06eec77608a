import { describe, expect, it } from 'vitest';
import { negotiate } from '../../../src/http/negotiate.js';
import { call, useFake } from '../../helpers/fake.js';

const fake = useFake({ perFile: true });

describe('Accept negotiation', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['application/json', 'json'],
    ['text/json', 'json'],
    ['text/xml', 'xml'],
    ['application/xml', 'xml'],
    ['*/*', 'json'],
    ['image/png', 'json'],
    ['text/html, application/xhtml+xml', 'json'],
    ['text/xml;q=0.9, application/json;q=0.5', 'xml'],
    ['text/xml;q=0.5, application/json;q=0.9', 'json'],
    ['application/json;q=0, text/xml', 'xml'],
    ['text/xml, */*;q=0.1', 'xml'],
    ['TEXT/XML', 'xml'],
    ['text/*', 'json'],
    // Java's HttpURLConnection default: */* is the best supported match, so JSON.
    ['text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2', 'json'],
    ['not a media type at all', 'json'],
    // Parameters other than q are ignored, as ASP.NET's formatters match them.
    ['text/xml; charset=utf-8', 'xml'],
    ['application/xml; charset=utf-8', 'xml'],
    ['application/xml;charset=UTF-8', 'xml'],
    ['text/xml;version=1', 'xml'],
    ['text/xml; q=0.9', 'xml'],
    ['application/xml; charset=utf-8; q=1', 'xml'],
    ['application/json; charset=utf-8', 'json'],
    ['application/json; charset=utf-8, text/xml;q=0.1', 'json'],
    ['application/json, text/xml;q=0.1', 'json'],
    ['text/xml; charset=utf-8, application/json;q=0.5', 'xml'],
  ])('%j -> %s', async (accept, format) => {
    expect(negotiate(accept).format).toBe(format);
    const response = await call(
      fake,
      'GET',
      'lists',
      accept === undefined ? {} : { headers: { accept } },
    );
    expect(response.status).toBe(200);
    if (format === 'xml') {
      expect(response.headers['content-type']).toMatch(/^(text|application)\/xml; charset=utf-8$/);
      expect(response.xml()).toHaveProperty('ArrayOfList');
    } else {
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Array.isArray(response.json())).toBe(true);
    }
  });

  it('errors follow the same negotiation', async () => {
    const xml = await call(fake, 'GET', 'lists/nope', {
      accept: 'application/json;q=0.1, application/xml',
    });
    expect(xml.status).toBe(404);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.xml()).toHaveProperty('Error.Message');
  });

  it('errors ignore media-type parameters too', async () => {
    const xml = await call(fake, 'GET', 'lists/nope', { accept: 'text/xml; charset=utf-8' });
    expect(xml.status).toBe(404);
    expect(xml.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(xml.xml()).toHaveProperty('Error.Message');
  });

  it('JSON and XML describe the same data', async () => {
    const json = (await call(fake, 'GET', 'customfields')).json() as Record<string, unknown>[];
    const xml = (await call(fake, 'GET', 'customfields', { accept: 'text/xml' })).xml() as {
      ArrayOfCustomField: { CustomField: Record<string, string>[] };
    };
    expect(
      xml.ArrayOfCustomField.CustomField.map((field) => ({
        customFieldNameId: Number(field.CustomFieldNameId),
        name: field.Name,
        serverId: Number(field.ServerId),
        customFieldType: field.CustomFieldType,
      })),
    ).toEqual(json);
  });
});
