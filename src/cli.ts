#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { createFakeMarketingServer } from './server.js';

const defaultSeed = fileURLToPath(new URL('../fixtures/default.json', import.meta.url));
const fake = await createFakeMarketingServer({ seed: defaultSeed });
const { baseUrl } = await fake.listen({ port: 8443 });
console.log(`fake-marketing-server listening on ${baseUrl}`);
for (const server of fake.exportState().servers) {
  console.log(`  server ${server.serverId}  key ${server.key}`);
}
const stop = () => void fake.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
