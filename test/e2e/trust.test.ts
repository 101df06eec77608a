import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { fileURLToPath } from 'node:url';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Address, FakeMarketingServer } from '../../src/index.js';
import { AUTH, KEY, makeFake, SERVER_ID } from '../helpers/fake.js';

// The recipes of docs/testing.md for trusting the fake's certificate, each tried for real, with
// verification left on: each also checks that the same client without the recipe is refused.
//
// A recipe whose tool is not on the machine is skipped, saying which tool (vitest lists it as
// skipped with that note); under CI=true it fails instead, since .ci/run installs every tool.
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
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Debian's Python: apt's python3-requests is installed for it (pyenv's python3 may come first). */
const PYTHON = '/usr/bin/python3';

function run(command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // The machine's own CA settings are dropped so that only the recipe decides what is trusted.
    const { NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, SSL_CERT_FILE, CURL_CA_BUNDLE, ...base } =
      process.env;
    execFile(
      command,
      args,
      { env: { ...base, ...env }, timeout: 120_000, cwd: dir },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Whether a command runs: `command` with `args` exits 0. */
const works = (command: string, ...args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
/** The first of the commands not on the PATH, said as a reason; undefined when all are. */
function missing(...commands: string[]): string | undefined {
  const absent = commands.filter((command) => !works('sh', '-c', `command -v ${command}`));
  return absent.length > 0 ? `${absent.join(', ')} not installed` : undefined;
}

/**
 * A test whose tool is missing (`problem` says which): a visible skip with that reason, or under
 * CI=true a failure, never a silent pass.
 */
function requireTool(ctx: TestContext, problem: string | undefined) {
  if (problem === undefined) return;
  if (process.env.CI === 'true')
    throw new Error(
      `${problem}: under CI=true a missing tool fails the test (.ci/run installs it)`,
    );
  ctx.skip(problem);
}

const withPackage = (problem: string | undefined, debian: string) =>
  problem === undefined ? undefined : `${problem} (Debian: ${debian})`;

// Found once, at load, so that each recipe reports its own reason.
const tools = {
  curl: withPackage(missing('curl'), 'curl'),
  python: withPackage(missing(PYTHON), 'python3'),
  requests: withPackage(
    missing(PYTHON) ??
      (works(PYTHON, '-c', 'import requests') ? undefined : `${PYTHON} cannot import requests`),
    'python3-requests',
  ),
  java: withPackage(missing('java', 'keytool'), 'openjdk-17-jdk-headless'),
  mono: withPackage(missing('mcs', 'mono'), 'mono-devel'),
};

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

  it('curl --cacert', async (ctx) => {
    requireTool(ctx, tools.curl);
    const curl = (...args: string[]) =>
      run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args]);
    const result = await curl('--cacert', caFile, '-u', `${SERVER_ID}:${KEY}`, url());
    expect(result.stdout, result.stderr).toBe('200');
    const untrusted = await curl('--cacert', '/dev/null', url());
    expect(untrusted.stdout).toBe('000');
  }, 60_000);

  it('Python urllib (standard library) with ssl.create_default_context(cafile=...)', async (ctx) => {
    requireTool(ctx, tools.python);
    const script = [
      'import ssl, sys, urllib.request',
      'request = urllib.request.Request(sys.argv[1], headers={"Authorization": sys.argv[2]})',
      'context = ssl.create_default_context(cafile=sys.argv[3]) if len(sys.argv) > 3 else None',
      'print(urllib.request.urlopen(request, context=context).status)',
    ].join('\n');
    const result = await run(PYTHON, ['-c', script, url(), AUTH, caFile]);
    expect(result.stdout.trim(), result.stderr).toBe('200');
    const untrusted = await run(PYTHON, ['-c', script, url(), AUTH]);
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.stderr).toMatch(/CERTIFICATE_VERIFY_FAILED/);
  }, 60_000);

  it("Python requests with verify='ca.pem'", async (ctx) => {
    requireTool(ctx, tools.requests);
    const script = [
      'import requests, sys',
      'verify = sys.argv[4] if len(sys.argv) > 4 else True',
      'print(requests.get(sys.argv[1], auth=(sys.argv[2], sys.argv[3]), verify=verify).status_code)',
    ].join('\n');
    const result = await run(PYTHON, ['-c', script, url(), String(SERVER_ID), KEY, caFile]);
    expect(result.stdout.trim(), result.stderr).toBe('200');
    const untrusted = await run(PYTHON, ['-c', script, url(), String(SERVER_ID), KEY]);
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.stderr).toMatch(/CERTIFICATE_VERIFY_FAILED/);
  }, 60_000);

  it('Java HttpClient with a truststore made by keytool', async (ctx) => {
    requireTool(ctx, tools.java);
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
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    const client = fileURLToPath(new URL('../fixtures/trust/Client.java', import.meta.url));
    const result = await run('java', [
      `-Djavax.net.ssl.trustStore=${store}`,
      '-Djavax.net.ssl.trustStorePassword=changeit',
      client,
      url(),
      AUTH,
    ]);
    expect(result.stdout.trim(), result.stderr).toBe('200');
    const untrusted = await run('java', [client, url(), AUTH]);
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.stderr).toMatch(/PKIX path building failed/);
  }, 180_000);

  // .NET itself is not installable here (no dotnet package in Debian); Mono's C# compiler and
  // runtime run the recipe, whose API (HttpClientHandler's ServerCertificateCustomValidationCallback)
  // is the same in .NET. Mono cannot build a chain over the fake's ECDSA key (X509Chain: "Cannot
  // decode public key from unknown OID"), so the recipe pins the certificate itself: the fake
  // serves exactly the certificate it writes out (self-signed), and only a chain error (no name
  // mismatch) is forgiven, for that certificate alone.
  it('.NET HttpClient (C#, run with Mono) pinning ca.pem in ServerCertificateCustomValidationCallback', async (ctx) => {
    requireTool(ctx, tools.mono);
    writeFileSync(join(dir, 'Client.cs'), CSHARP_CLIENT);
    const compiled = await run('mcs', [
      '-r:System.Net.Http.dll',
      '-out:Client.exe',
      join(dir, 'Client.cs'),
    ]);
    expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
    const result = await run('mono', [join(dir, 'Client.exe'), url(), AUTH, caFile]);
    expect(result.stdout.trim(), result.stderr).toBe('200');
    // Another certificate pinned instead (Node's first bundled root): the fake's is refused.
    const other = join(dir, 'other.pem');
    writeFileSync(other, rootCertificates[0]!);
    const untrusted = await run('mono', [join(dir, 'Client.exe'), url(), AUTH, other]);
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.stdout.trim()).toBe('');
  }, 180_000);
});

const CSHARP_CLIENT = `using System;
using System.Linq;
using System.Net.Http;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

public static class Client {
  public static int Main(string[] args) {
    var ca = new X509Certificate2(args[2]);
    var handler = new HttpClientHandler {
      ServerCertificateCustomValidationCallback = (request, certificate, chain, errors) =>
        errors == SslPolicyErrors.None ||
        (errors == SslPolicyErrors.RemoteCertificateChainErrors &&
         certificate.GetRawCertData().SequenceEqual(ca.GetRawCertData())),
    };
    using (var client = new HttpClient(handler)) {
      var request = new HttpRequestMessage(HttpMethod.Get, args[0]);
      request.Headers.TryAddWithoutValidation("Authorization", args[1]);
      try {
        Console.WriteLine((int)client.SendAsync(request).Result.StatusCode);
        return 0;
      } catch (Exception e) {
        Console.Error.WriteLine(e.GetBaseException().Message);
        return 1;
      }
    }
  }
}
`;
