import { get as httpsGet } from 'node:https';
import axios from 'axios';
import got from 'got';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  StateError,
} from '../../src/index.js';
import { AUTH, smallSeed } from '../helpers/fake.js';

// A client that trusts one fake in one line, and nothing global: fake.fetch (Node's fetch),
// fake.dispatcher (fetch-based code that takes one) and fake.httpsAgent (node:https, axios, got),
// each tested with the client it serves, over HTTPS.

let fake: FakeMarketingServer;
let ca: string;

beforeAll(async () => {
  fake = await createFakeMarketingServer({ seed: smallSeed() });
  ({ ca } = await fake.listen());
});
afterAll(() => fake?.close());

const headers = { authorization: AUTH };

describe('clients that trust the fake', () => {
  it('fake.fetch: Node fetch, with a path resolved against the fake', async () => {
    const response = await fake.fetch('/marketing/v1/lists', { headers });
    expect(response.status).toBe(200);
    expect(response).toBeInstanceOf(Response);
    const whole = await fake.fetch(`${fake.baseUrl}/customfields`, { headers });
    expect(whole.status).toBe(200);
    const request = await fake.fetch(new Request(`${fake.baseUrl}/content`, { headers }));
    expect(request.status).toBe(200);
  });

  it('fake.dispatcher: the global fetch with it as dispatcher', async () => {
    // No cast: the dispatcher's type is the one the global fetch takes.
    const response = await fetch(`${fake.baseUrl}/lists`, { headers, dispatcher: fake.dispatcher });
    expect(response.status).toBe(200);
  });

  it('fake.httpsAgent: node:https', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      httpsGet(`${fake.baseUrl}/lists`, { agent: fake.httpsAgent, headers }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject);
    });
    expect(status).toBe(200);
  });

  it('fake.httpsAgent: axios', async () => {
    const response = await axios.get(`${fake.baseUrl}/lists`, {
      httpsAgent: fake.httpsAgent,
      headers,
    });
    expect(response.status).toBe(200);
    expect(response.data[0]).toMatchObject({ serverId: 1234 });
  });

  it('fake.httpsAgent: got', async () => {
    const response = await got(`${fake.baseUrl}/lists`, {
      agent: { https: fake.httpsAgent },
      headers,
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('nothing global changes', () => {
  it('plain fetch and node:https still refuse the certificate, after the trusting clients ran', async () => {
    await fake.fetch('/marketing/v1/lists', { headers });
    const refused = await fetch(`${fake.baseUrl}/lists`, { headers }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe(
      'DEPTH_ZERO_SELF_SIGNED_CERT',
    );
    const https = await new Promise<unknown>((resolve) => {
      httpsGet(`${fake.baseUrl}/lists`, { headers }, () => resolve('answered')).on(
        'error',
        resolve,
      );
    });
    expect((https as { code?: string }).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('the clients of a fake with another certificate do not trust this one', async () => {
    // One certificate per process and set of names: other names, another certificate.
    await using other = await createFakeMarketingServer({ seed: smallSeed() });
    await other.listen({ tlsHostnames: ['other.localhost'] });
    expect(other.ca).not.toBe(ca);
    const refused = await other
      .fetch(`${fake.baseUrl}/lists`, { headers })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
  });
});

describe('ca', () => {
  it('is always a PEM string with the default HTTPS, by type and by value', () => {
    expectTypeOf(ca).toEqualTypeOf<string>();
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(fake.ca).toBe(ca);
  });

  it('is undefined over plain HTTP, where the clients work without one', async () => {
    await using plain = await createFakeMarketingServer({ seed: smallSeed() });
    const address = await plain.listen({ https: false });
    expectTypeOf(address.ca).toEqualTypeOf<string | undefined>();
    expect(address.ca).toBeUndefined();
    expect((await plain.fetch('/marketing/v1/lists', { headers })).status).toBe(200);
  });

  it('and the clients throw before listen(), saying why', async () => {
    await using idle = await createFakeMarketingServer();
    expect(() => idle.fetch('/marketing/v1/lists')).toThrow(StateError);
    expect(() => idle.dispatcher).toThrow(StateError);
    expect(() => idle.httpsAgent).toThrow(StateError);
  });
});
