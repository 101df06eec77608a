import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  type FakeMarketingServerOptions,
  type Seed,
} from '../../src/index.js';
import { checkAgainstOpenApi } from './openapi.js';

export const SERVER_ID = 1234;
export const KEY = 'key-1234';
export const OTHER_SERVER_ID = 56789;
export const OTHER_KEY = 'key-56789';

/** A small hand-written seed: two servers, fields, two lists, three contacts, two content items. */
export function smallSeed(): Seed {
  return {
    servers: [
      {
        serverId: SERVER_ID,
        key: KEY,
        maxContacts: 10,
        customFields: [
          { customFieldNameId: 1, name: 'FirstName' },
          { customFieldNameId: 2, name: 'LastName' },
          { customFieldNameId: 3, name: 'City' },
        ],
        lists: [
          { id: 1, name: 'Newsletter' },
          { id: 2, name: 'Customers & <Friends>' },
        ],
        contacts: [
          {
            contactId: 1,
            emailAddress: 'Ann@Example.com',
            customFields: { FirstName: 'Ann', City: 'Lisbon' },
            lists: [1],
          },
          { contactId: 2, emailAddress: 'ben@example.com', lists: [1, 2] },
          { contactId: 3, emailAddress: 'cy@example.com', status: 'Unsubscribed' },
        ],
        content: [
          {
            id: 1,
            name: 'Welcome',
            created: '2026-01-05T10:00:00Z',
            updated: '2026-01-06T09:30:00Z',
          },
          { id: 2, name: 'News & <more>', created: '2026-02-01T08:00:00Z' },
        ],
      },
      {
        serverId: OTHER_SERVER_ID,
        key: OTHER_KEY,
        lists: [{ id: 1, name: 'Other newsletter' }],
        contacts: [{ contactId: 1, emailAddress: 'ann@example.com', lists: [1] }],
      },
    ],
  };
}

export const FIXED_NOW = new Date('2026-11-22T12:00:00.000Z');

/** A fake on the small seed with a fixed clock, unless told otherwise. */
export function makeFake(options: FakeMarketingServerOptions = {}): Promise<FakeMarketingServer> {
  return createFakeMarketingServer({ seed: smallSeed(), clock: () => FIXED_NOW, ...options });
}

export interface UseFakeOptions extends FakeMarketingServerOptions {
  /** One fake for the whole file instead of a fresh one per test (for tests that change nothing). */
  perFile?: boolean;
}

/**
 * The fake of a test file, on the small seed with a fixed clock unless told otherwise: a fresh one
 * for each test (or one per file), created before and closed after. Use it inside tests only.
 */
export function useFake(options: UseFakeOptions = {}): FakeMarketingServer {
  const { perFile = false, ...fakeOptions } = options;
  let fake: FakeMarketingServer | undefined;
  (perFile ? beforeAll : beforeEach)(async () => {
    fake = await makeFake(fakeOptions);
  });
  (perFile ? afterAll : afterEach)(async () => {
    await fake?.close();
    fake = undefined;
  });
  return new Proxy({} as FakeMarketingServer, {
    get(_target, property) {
      if (!fake) throw new Error('useFake(): the fake exists inside tests only');
      const value = Reflect.get(fake, property, fake) as unknown;
      return typeof value === 'function' ? value.bind(fake) : value;
    },
  });
}

export function basic(serverId: number | string, key: string): string {
  return `Basic ${Buffer.from(`${serverId}:${key}`).toString('base64')}`;
}

export const AUTH = basic(SERVER_ID, KEY);

export interface CallOptions {
  body?: unknown;
  accept?: string;
  auth?: string | null;
  headers?: Record<string, string>;
}

/** One request through inject, with the small seed's credentials unless told otherwise. */
export async function call(
  fake: FakeMarketingServer,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS',
  path: string,
  options: CallOptions = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? AUTH : options.auth;
  if (auth !== null) headers.authorization = auth;
  if (options.accept) headers.accept = options.accept;
  const url = path.startsWith('/') ? path : `/marketing/v1/${path}`;
  const response = await fake.inject({
    method,
    url,
    headers,
    ...(options.body === undefined
      ? {}
      : typeof options.body === 'string'
        ? { payload: options.body }
        : { payload: options.body as object }),
  });
  await checkAgainstOpenApi(
    method,
    url,
    response.statusCode,
    response.headers['content-type'] as string | undefined,
    response.body,
    response.headers['content-length'] as string | undefined,
  );
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.body,
    // biome-ignore lint/suspicious/noExplicitAny: a parsed body is whatever the test asserts it is.
    json: (): any => (response.body ? JSON.parse(response.body) : undefined),
    xml: () => parseXml(response.body),
  };
}

const xmlParser = new XMLParser({
  ignoreDeclaration: true,
  parseTagValue: false,
  // Items of an ArrayOf... root are arrays even when there is one; a lone root never is.
  isArray: (_name, jpath) => /^ArrayOf\w+\.\w+$/.test(String(jpath)),
});

/** Parses XML with fast-xml-parser; throws on a document that is not well-formed. */
export function parseXml(text: string): Record<string, unknown> {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid.err)}`);
  return xmlParser.parse(text) as Record<string, unknown>;
}

/** Element names of an XML element, in document order. */
export function elementOrder(xml: string, element: string): string[][] {
  const items = [...xml.matchAll(new RegExp(`<${element}>(.*?)</${element}>`, 'g'))];
  return items.map((item) => [...item[1]!.matchAll(/<(\w+)>/g)].map((tag) => tag[1]!));
}

/** Adds a server with `key` through the control API (`POST /__admin/servers`); its id. */
export async function addServerOverHttp(fake: FakeMarketingServer, key: string): Promise<number> {
  const created = await fake.inject({ method: 'POST', url: '/__admin/servers', payload: { key } });
  expect(created.statusCode).toBe(201);
  return (created.json() as { serverId: number }).serverId;
}
