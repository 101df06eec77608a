const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createFakeMarketingServer } = require('fake-marketing-server');

/**
 * Runs once, in jest's main process, before any test file: starts an empty fake listening on a
 * free port and tells the test files, which may run in other processes (jest's workers), where
 * it is through environment variables (workers start after this and inherit them).
 */
module.exports = async function globalSetup() {
  const fake = await createFakeMarketingServer(); // no seed: each test adds its own tenant
  const { url, ca } = await fake.listen(); // HTTPS on 127.0.0.1, a free port
  const caFile = join(mkdtempSync(join(tmpdir(), 'fake-marketing-jest-')), 'ca.pem');
  writeFileSync(caFile, ca);
  process.env.FAKE_MARKETING_URL = url;
  process.env.FAKE_MARKETING_CA = caFile;
  // Globals set here are visible to global-teardown.cjs only (same process), not to the tests.
  globalThis.__fakeMarketingServer = fake;
};
