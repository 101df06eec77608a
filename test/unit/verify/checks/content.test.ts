import { describe, expect, it } from 'vitest';
import { type Check, Skip } from '../../../../src/verify/check-kit.js';
import { CONTENT_CHECKS } from '../../../../src/verify/checks/content.js';
import type { Answer, Call } from '../../../../src/verify/http-client.js';
import { json, mismatchOf, scriptedTools, xml } from '../../../helpers/scripted-tools.js';

const check = (id: string): Check => {
  const found = CONTENT_CHECKS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

const WHEN = '2024-05-01T12:00:00Z';
const ITEM = {
  id: 1,
  name: 'Spring',
  thumbnailUrl: 'https://example.com/t.png',
  thumbnailExpiration: WHEN,
  created: WHEN,
  updated: '2024-05-02T08:30:00.123+00:00',
};
const xmlItem = (
  times: Partial<Record<'Created' | 'ThumbnailExpiration' | 'Updated', string>> = {},
) => {
  const { Created = WHEN, ThumbnailExpiration = WHEN, Updated = WHEN } = times;
  return `<Content><Created>${Created}</Created><Name>Spring</Name><Id>1</Id><ThumbnailExpiration>${ThumbnailExpiration}</ThumbnailExpiration><ThumbnailUrl>https://example.com/t.png</ThumbnailUrl><Updated>${Updated}</Updated></Content>`;
};
const XML = xml(200, `<ArrayOfContent>${xmlItem()}${xmlItem()}</ArrayOfContent>`);

/** A service with `items` in JSON and the answer `xmlAnswer` in XML. */
const content =
  (items: unknown[] = [ITEM, ITEM], xmlAnswer: Answer = XML) =>
  (call: Call): Answer =>
    call.accept === 'text/xml' ? xmlAnswer : json(200, items);

describe('content.json', () => {
  it('passes items with every field, asking GET /content in JSON', async () => {
    const { tools, calls } = scriptedTools(content());
    await expect(check('content.json').expect(tools)).resolves.toBe(
      '200, 2 content item(s) with every field',
    );
    expect(calls).toEqual([{ method: 'GET', path: '/content', accept: 'application/json' }]);
  });

  it('fails a thumbnailUrl that is not a URL and a name that is not a string', async () => {
    for (const [item, field] of [
      [{ ...ITEM, thumbnailUrl: 'not a url' }, 'thumbnailUrl'],
      [{ ...ITEM, name: 7 }, 'name'],
      [{ ...ITEM, updated: 5 }, 'updated'],
    ] as const) {
      const { tools } = scriptedTools(content([item]));
      const mismatch = await mismatchOf(check('content.json').expect(tools));
      expect(mismatch.wanted).toContain(`content[0].${field}`);
    }
  });
});

describe('content.xml', () => {
  it('passes ArrayOfContent with Content elements in the described order, asking in XML', async () => {
    const { tools, calls } = scriptedTools(content());
    await expect(check('content.xml').expect(tools)).resolves.toBe(
      '200, ArrayOfContent with 2 Content element(s) in the described order',
    );
    expect(calls).toEqual([{ method: 'GET', path: '/content', accept: 'text/xml' }]);
  });

  it('fails the elements in another order', async () => {
    const swapped = xmlItem().replace(
      '<Name>Spring</Name><Id>1</Id>',
      '<Id>1</Id><Name>Spring</Name>',
    );
    const { tools } = scriptedTools(
      content([], xml(200, `<ArrayOfContent>${swapped}</ArrayOfContent>`)),
    );
    const mismatch = await mismatchOf(check('content.xml').expect(tools));
    expect(mismatch.wanted).toBe(
      'Content 1 with Created, Name, Id, ThumbnailExpiration, ThumbnailUrl, Updated in that order',
    );
  });
});

describe('content.timestamps', () => {
  const timestamps = check('content.timestamps');

  it('passes UTC timestamps in JSON and XML, asking GET /content in both', async () => {
    const { tools, calls } = scriptedTools(content());
    await expect(timestamps.expect(tools)).resolves.toBe(
      '2 item(s): every timestamp ISO 8601 UTC, in JSON and XML',
    );
    expect(calls).toEqual([
      { method: 'GET', path: '/content', accept: 'application/json' },
      { method: 'GET', path: '/content', accept: 'text/xml' },
    ]);
  });

  it('names the JSON item and field whose timestamp is not UTC', async () => {
    const { tools, calls } = scriptedTools(
      content([ITEM, { ...ITEM, created: '2024-05-01T12:00:00+02:00' }]),
    );
    const mismatch = await mismatchOf(timestamps.expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'content[1].created: an ISO 8601 UTC timestamp',
      'content[1].created is "2024-05-01T12:00:00+02:00"',
    ]);
    expect(calls).toHaveLength(1);
  });

  it('skips an account without content', async () => {
    const { tools } = scriptedTools(content([]));
    await expect(timestamps.expect(tools)).rejects.toThrow(Skip);
  });

  it('fails an XML answer that is not 200, saying it is the XML one', async () => {
    const { tools } = scriptedTools(content(undefined, xml(500, '<Error/>')));
    const mismatch = await mismatchOf(timestamps.expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['XML: status 200', 'XML: status 500']);
  });

  it('fails an XML body that is not XML, saying it is the XML one', async () => {
    const { tools } = scriptedTools(content(undefined, xml(200, 'not xml')));
    const mismatch = await mismatchOf(timestamps.expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'XML: a well-formed XML body',
      'XML: a body that is not XML',
    ]);
  });

  it('fails an XML answer with no item, where JSON has some', async () => {
    const { tools } = scriptedTools(content(undefined, xml(200, '<ArrayOfContent/>')));
    const mismatch = await mismatchOf(timestamps.expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'XML: as many Content items as in JSON',
      'XML: no Content item',
    ]);
  });

  it('names the XML item and element whose timestamp is not UTC', async () => {
    const body = `<ArrayOfContent>${xmlItem()}${xmlItem({ Updated: '2024-05-01 12:00' })}</ArrayOfContent>`;
    const { tools } = scriptedTools(content(undefined, xml(200, body)));
    const mismatch = await mismatchOf(timestamps.expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'XML: Content 2 Updated: an ISO 8601 UTC timestamp',
      'XML: Content 2 Updated is "2024-05-01 12:00"',
    ]);
  });

  it('reads an XML timestamp without the white space around it', async () => {
    const body = `<ArrayOfContent>${xmlItem({ Created: `\n  ${WHEN}\n` })}</ArrayOfContent>`;
    const { tools } = scriptedTools(content(undefined, xml(200, body)));
    await expect(timestamps.expect(tools)).resolves.toBe(
      '2 item(s): every timestamp ISO 8601 UTC, in JSON and XML',
    );
  });

  it('fails an XML item without a timestamp element, as a mismatch', async () => {
    const body = `<ArrayOfContent>${xmlItem().replace(`<ThumbnailExpiration>${WHEN}</ThumbnailExpiration>`, '')}</ArrayOfContent>`;
    const { tools } = scriptedTools(content(undefined, xml(200, body)));
    const mismatch = await mismatchOf(timestamps.expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'XML: Content 1 ThumbnailExpiration: an ISO 8601 UTC timestamp',
      'XML: Content 1 ThumbnailExpiration is undefined',
    ]);
  });
});
