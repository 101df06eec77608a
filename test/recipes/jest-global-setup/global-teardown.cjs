const { rmSync } = require('node:fs');
const { dirname } = require('node:path');

module.exports = async function globalTeardown() {
  await globalThis.__fakeMarketingServer?.close();
  const caFile = process.env.FAKE_MARKETING_CA;
  if (caFile) rmSync(dirname(caFile), { recursive: true, force: true });
};
