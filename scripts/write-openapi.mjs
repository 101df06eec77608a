// Writes openapi.json (shipped in the package) from a built fake: the same document that
// GET /__admin/openapi.json serves, so the file cannot drift from the routes.
import { writeFileSync } from 'node:fs';
import { createFakeMarketingServer } from '../dist/index.js';

const fake = await createFakeMarketingServer();
const response = await fake.inject({ url: '/__admin/openapi.json' });
await fake.close();
if (response.statusCode !== 200)
  throw new Error(`GET /__admin/openapi.json answered ${response.statusCode}`);
writeFileSync(
  new URL('../openapi.json', import.meta.url),
  `${JSON.stringify(JSON.parse(response.body), null, 2)}\n`,
);
