import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, FakeMarketingServer } from '../../src/index.js';
import { AUTH, makeFake } from '../helpers/fake.js';

// The recipes of docs/testing.md for trusting the fake's certificate, each tried for real, with
// verification left on. A tool that is not on the machine skips its recipe.
let fake: FakeMarketingServer;
let address: Address;
let caFile: string;
const dir = mkdtempSync(join(tmpdir(), 'fms-trust-'));

beforeAll(async () => {
  fake = await makeFake();
  address = await fake.listen();
  caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, address.ca!);
});
afterAll(() => fake.close());

function run(command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // The machine's own CA settings are dropped so that only the recipe decides what is trusted.
    const { NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, SSL_CERT_FILE, CURL_CA_BUNDLE, ...base } =
      process.env;
    execFile(
      command,
      args,
      { env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const has = async (command: string) =>
  (await run('sh', ['-c', `command -v ${command}`])).code === 0;
const url = () => `${address.baseUrl}/lists`;

describe('trusting the fake certificate', () => {
  it('Node fetch with NODE_EXTRA_CA_CERTS (e.g. the sandbox --ca-out file)', async () => {
    const script = `fetch(${JSON.stringify(url())}, { headers: { authorization: ${JSON.stringify(AUTH)} } }).then((r) => console.log(r.status))`;
    const trusted = await run(process.execPath, ['-e', script], { NODE_EXTRA_CA_CERTS: caFile });
    expect(trusted.stdout.trim()).toBe('200');
    const untrusted = await run(process.execPath, ['-e', script]);
    expect(untrusted.code).not.toBe(0);
  });

  it("Node https / axios with an Agent given the handle's ca", async () => {
    const response = await axios.get(url(), {
      headers: { authorization: AUTH },
      httpsAgent: new Agent({ ca: address.ca }),
    });
    expect(response.status).toBe(200);
    await expect(
      axios.get(url(), { headers: { authorization: AUTH }, httpsAgent: new Agent() }),
    ).rejects.toThrow(/self[- ]signed/i);
  });

  it('curl --cacert', async () => {
    if (!(await has('curl'))) return;
    const result = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--cacert',
      caFile,
      '-H',
      `authorization: ${AUTH}`,
      url(),
    ]);
    expect(result.stdout).toBe('200');
    const untrusted = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--cacert',
      '/dev/null',
      url(),
    ]);
    expect(untrusted.stdout).toBe('000');
  });

  it("Python requests with verify='ca.pem'", async () => {
    if (!(await has('python3')) || (await run('python3', ['-c', 'import requests'])).code !== 0)
      return;
    const script = `import requests, sys\nprint(requests.get(sys.argv[1], headers={'authorization': sys.argv[2]}, verify=sys.argv[3]).status_code)`;
    const result = await run('python3', ['-c', script, url(), AUTH, caFile]);
    expect(result.stdout.trim()).toBe('200');
  });

  it('Java HttpClient with a truststore made by keytool', async () => {
    if (!(await has('java')) || !(await has('keytool'))) return;
    const store = join(dir, 'truststore.p12');
    const imported = await run('keytool', [
      '-importcert',
      '-noprompt',
      '-alias',
      'fake-marketing-server',
      '-file',
      caFile,
      '-keystore',
      store,
      '-storetype',
      'PKCS12',
      '-storepass',
      'changeit',
    ]);
    expect(imported.code).toBe(0);
    const client = fileURLToPath(new URL('../fixtures/trust/Client.java', import.meta.url));
    const result = await run('java', [
      `-Djavax.net.ssl.trustStore=${store}`,
      '-Djavax.net.ssl.trustStorePassword=changeit',
      client,
      url(),
      AUTH,
    ]);
    expect(result.stdout.trim(), result.stderr).toBe('200');
  }, 60_000);
});
