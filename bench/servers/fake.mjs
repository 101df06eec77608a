// The fake as users run it: the built package, default seed, one process.
import { createFakeMarketingServer } from '../../dist/index.js';

const [port = '0', https = 'http'] = process.argv.slice(2);
const fake = await createFakeMarketingServer({
  seed: new URL('../../fixtures/default.json', import.meta.url).pathname,
  // FAKE_JOURNAL_SIZE=0 measures the same fake with recording off.
  ...(process.env.FAKE_JOURNAL_SIZE ? { journalSize: Number(process.env.FAKE_JOURNAL_SIZE) } : {}),
});
const { url } = await fake.listen({ port: Number(port), https: https === 'https' });
process.send?.({ ready: url });
process.on('SIGTERM', () => fake.close().then(() => process.exit(0)));
