import { readFileSync } from 'node:fs';
import { connectFakeMarketingServer, createFakeMarketingServer } from 'fake-marketing-server';
import type { TestProject } from 'vitest/node';

// The types of what this setup provides, for `inject('fakeUrl')` in the test files (this file is
// part of the TypeScript project, so the declaration applies to them too).
declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared fake's URL: `https://127.0.0.1:PORT`. */
    fakeUrl: string;
    /** The PEM certificate to trust for it; none for a fake over plain HTTP. */
    fakeCa: string | undefined;
  }
}

/**
 * Runs once, in vitest's main process, before any test file. With FAKE_MARKETING_URL set (a fake
 * already running: a CI service container, a sandbox) it checks that one answers and shares it;
 * otherwise it starts a fake in this process, listening on a free port, and stops it at the end.
 */
export default async function setup(project: TestProject) {
  const url = process.env.FAKE_MARKETING_URL;
  if (url) {
    // FAKE_MARKETING_CA: the path of the PEM file to trust (e.g. copied out of the container).
    const caFile = process.env.FAKE_MARKETING_CA;
    const ca = caFile ? readFileSync(caFile, 'utf8') : undefined;
    // Fails here, once, with what to fix, when nothing answers or the certificate is wrong.
    const fake = await connectFakeMarketingServer({ url, ca });
    await fake.close();
    project.provide('fakeUrl', url);
    project.provide('fakeCa', ca);
    return;
  }
  // No seed: the fake starts empty, and each test adds its own tenant.
  const fake = await createFakeMarketingServer();
  const address = await fake.listen(); // HTTPS on 127.0.0.1, a free port
  project.provide('fakeUrl', address.url);
  project.provide('fakeCa', address.ca);
  return async () => {
    await fake.close();
  };
}
