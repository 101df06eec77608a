import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/cli/args.js';
import { RECORD_USAGE, runRecordCommand } from '../../../src/cli/record-command.js';
import { createFakeMarketingServer, type Recorder } from '../../../src/index.js';
import { KEY, SERVER_ID, smallSeed } from '../../helpers/fake.js';

// `record` in process: what it prints, the recorder it starts, and each usage problem named.

const UPSTREAM = 'http://127.0.0.1:9/marketing/v1';
let folder: string;
let printed: string;
const running: Recorder[] = [];
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'record-command-'));
  printed = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed += String(chunk);
    return true;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const recorder of running.splice(0)) await recorder.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A port nothing listens on (`port`, when it is free). */
function freePort(port = 0): Promise<number> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject).listen(port, '127.0.0.1', () => {
      const { port: free } = server.address() as AddressInfo;
      server.close(() => resolve(free));
    });
  });
}

async function record(args: string[]): Promise<Recorder> {
  const recorder = await runRecordCommand(args);
  if (recorder === undefined) throw new Error('no recorder');
  running.push(recorder);
  return recorder;
}

describe('fake-marketing-server record, in process', () => {
  it('prints its usage for --help and -h, and starts nothing', async () => {
    for (const flag of ['--help', '-h']) {
      printed = '';
      expect(await runRecordCommand([flag])).toBeUndefined();
      expect(printed).toBe(`${RECORD_USAGE}\n`);
    }
  });

  it('starts an HTTPS recorder on the given port, writes the CA file, and says where everything is', async () => {
    const out = join(folder, 'traffic.har');
    const caOut = join(folder, 'ca', 'ca.pem');
    const recorder = await record([
      '--upstream',
      `${UPSTREAM}?apikey=never-printed#never`,
      '--port',
      '0',
      '--out',
      out,
      '--ca-out',
      caOut,
    ]);
    expect(recorder.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(readFileSync(caOut, 'utf8')).toBe(recorder.ca);
    expect(printed).toBe(
      [
        'fake-marketing-server record: forwarding to http://127.0.0.1:9',
        '',
        `  Base URL     ${recorder.baseUrl}`,
        `  CA file      ${caOut}`,
        `  Writing      ${out}`,
        '',
        'Point the client under test at the base URL; its key is passed on and never written.',
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  });

  it('serves plain HTTP with --http, with no CA file, and says when it continues a recording', async () => {
    const out = join(folder, 'traffic.har');
    const first = await record(['--upstream', UPSTREAM, '--http', '--port', '0', '--out', out]);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.ca).toBeUndefined();
    expect(printed).not.toContain('CA file');
    await fetch(`${first.baseUrl}/lists`);
    await first.close();
    printed = '';
    await record(['--upstream', UPSTREAM, '--http', '--port', '0', '--out', out]);
    expect(printed).toContain(`  Writing      ${out} (continuing: 1 exchanges already)\n`);
  });

  it('trusts the PEM given with --ca for an HTTPS upstream, and names a --ca it cannot read', async () => {
    await using fake = await createFakeMarketingServer({ seed: smallSeed() });
    const { ca } = await fake.listen();
    const pem = join(folder, 'upstream.pem');
    writeFileSync(pem, ca as string);
    const args = ['--upstream', fake.baseUrl, '--http', '--port', '0'];
    const trusting = await record([...args, '--out', join(folder, 'a.har'), '--ca', pem]);
    const distrusting = await record([...args, '--out', join(folder, 'b.har')]);
    const auth = {
      authorization: `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`,
    };
    expect((await fetch(`${trusting.baseUrl}/lists`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${distrusting.baseUrl}/lists`, { headers: auth })).status).toBe(502);
    const missing = join(folder, 'missing.pem');
    await expect(runRecordCommand([...args, '--ca', missing])).rejects.toThrow(
      new UsageError(
        `cannot read --ca ${missing}: ENOENT: no such file or directory, stat '${missing}'`,
      ),
    );
  });

  it('refuses a --ca-out that is its --out or its --ca, before it starts', async () => {
    const har = join(folder, 'kept.har');
    writeFileSync(har, 'a recording');
    await expect(
      runRecordCommand(['--upstream', UPSTREAM, '--out', har, '--ca-out', har]),
    ).rejects.toThrow(
      new UsageError(
        `--ca-out ${har} is the HAR --out records to: writing there would replace it. Give another --ca-out.`,
      ),
    );
    const pem = join(folder, 'trusted.pem');
    writeFileSync(pem, 'a PEM');
    await expect(
      runRecordCommand([
        '--upstream',
        UPSTREAM,
        '--out',
        join(folder, 'c.har'),
        '--ca',
        pem,
        '--ca-out',
        pem,
      ]),
    ).rejects.toThrow(
      new UsageError(
        `--ca-out ${pem} is the --ca file: writing there would replace it. Give another --ca-out.`,
      ),
    );
    expect(readFileSync(har, 'utf8')).toBe('a recording');
    expect(readFileSync(pem, 'utf8')).toBe('a PEM');
  });

  it('writes traffic.har in the current folder by default, on port 8444 by default', async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(folder);
    const taken = createServer();
    await new Promise<void>((resolve) =>
      taken.once('error', () => resolve()).listen(8444, '127.0.0.1', resolve),
    );
    try {
      await expect(runRecordCommand(['--upstream', UPSTREAM, '--http'])).rejects.toThrow(
        new UsageError('port 8444 is in use: pick another with --port (0 for any).'),
      );
    } finally {
      taken.close();
    }
    await record(['--upstream', UPSTREAM, '--http', '--port', '0']);
    expect(printed).toContain(`  Writing      ${join(folder, 'traffic.har')}\n`);
  });

  it.each([
    [[], '--upstream <base URL> is required.'],
    [['--upstream', UPSTREAM, '--nope'], "Unknown option '--nope'"],
    [
      ['--upstream', UPSTREAM, '--port', 'abc'],
      "--port must be a whole number from 0 to 65535, got 'abc'.",
    ],
    [
      ['--upstream', UPSTREAM, '--port', '65536'],
      "--port must be a whole number from 0 to 65535, got '65536'.",
    ],
    [
      ['--upstream', UPSTREAM, '--port=-1'],
      "--port must be a whole number from 0 to 65535, got '-1'.",
    ],
    [
      ['--upstream', UPSTREAM, '--port', '-1'],
      "--port must be a whole number from 0 to 65535, got '-1'.",
    ],
    [
      ['--upstream', UPSTREAM, '--port', '1.5'],
      "--port must be a whole number from 0 to 65535, got '1.5'.",
    ],
    [
      ['--upstream', UPSTREAM, '--http', '--ca-out', 'ca.pem'],
      '--ca-out writes the generated certificate; it does not go with --http.',
    ],
    [
      ['--upstream', 'ftp://example.com', '--port', '0'],
      "--upstream must be an http or https URL, got a 'ftp:' URL.",
    ],
  ])('refuses %j as usage, saying what to fix', async (args, message) => {
    const refused = runRecordCommand(args);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(message);
  });

  it('accepts the highest port, 65535', async () => {
    const refused = await runRecordCommand([
      '--upstream',
      UPSTREAM,
      '--http',
      '--port',
      '65535',
      '--out',
      join(folder, 'a.har'),
    ]).then(
      (recorder) => {
        if (recorder) running.push(recorder);
        return undefined;
      },
      (error: Error) => error.message,
    );
    // Another process may hold it: refused as in use, never as out of range.
    if (refused !== undefined)
      expect(refused).toBe('port 65535 is in use: pick another with --port (0 for any).');
  });

  it('says it cannot write an --out in a folder that does not exist, and stops listening', async () => {
    const out = join(folder, 'no-such-folder', 'traffic.har');
    const port = await freePort();
    await expect(
      runRecordCommand(['--upstream', UPSTREAM, '--http', '--port', String(port), '--out', out]),
    ).rejects.toThrow(
      new UsageError(`cannot write --out ${out}: its folder does not exist; give another --out.`),
    );
    expect(await freePort(port)).toBe(port);
  });

  it('says it cannot write an --out where no file can be made (EACCES)', async () => {
    // sysfs makes no new file, even for root.
    const out = '/sys/fake-marketing-server-record.har';
    await expect(
      runRecordCommand(['--upstream', UPSTREAM, '--http', '--port', '0', '--out', out]),
    ).rejects.toThrow(
      new UsageError(
        `cannot write --out ${out}: no permission to write in its folder; give another --out.`,
      ),
    );
  });

  it('says in words, as a usage error, that --out cannot be written where a part of its path is a file', async () => {
    const file = join(folder, 'a-file');
    writeFileSync(file, '');
    const out = join(file, 'traffic.har');
    await expect(
      runRecordCommand(['--upstream', UPSTREAM, '--http', '--port', '0', '--out', out]),
    ).rejects.toThrow(
      new UsageError(
        `cannot write --out ${out}: a part of its path is not a folder; give another --out.`,
      ),
    );
  });

  // Only root can give a file to another user.
  it.skipIf(process.getuid?.() !== 0)(
    "refuses to continue another user's HAR at --out, leaving it as it is",
    async () => {
      const out = join(folder, 'theirs.har');
      const text = '{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[]}}';
      writeFileSync(out, text);
      chownSync(out, 2001, 2001);
      await expect(
        runRecordCommand(['--upstream', UPSTREAM, '--http', '--port', '0', '--out', out]),
      ).rejects.toThrow(
        new UsageError(
          `cannot write --out ${out}: it belongs to another user (uid 2001); give an --out of your own.`,
        ),
      );
      expect(readFileSync(out, 'utf8')).toBe(text);
    },
  );

  it("refuses to continue a browser's HAR at --out (exit 2), saying to choose another --out", async () => {
    const out = join(folder, 'browser.har');
    const text = '{"log":{"version":"1.2","creator":{"name":"WebInspector"},"entries":[{}]}}';
    writeFileSync(out, text);
    const refused = runRecordCommand([
      '--upstream',
      UPSTREAM,
      '--http',
      '--port',
      '0',
      '--out',
      out,
    ]);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow('Give another --out, or move the file away.');
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it('refuses a folder at --out, never writing into it', async () => {
    await expect(
      runRecordCommand(['--upstream', UPSTREAM, '--http', '--port', '0', '--out', folder]),
    ).rejects.toThrow(
      new UsageError(
        `${folder} exists and is not a HAR file: give another --out (it is never overwritten).`,
      ),
    );
  });

  it('stops the recorder when the CA file cannot be written, and says why: nothing is left listening', async () => {
    const file = join(folder, 'a-file');
    writeFileSync(file, '');
    const port = await freePort();
    const refused = runRecordCommand([
      '--upstream',
      UPSTREAM,
      '--port',
      String(port),
      '--out',
      join(folder, 'traffic.har'),
      '--ca-out',
      join(file, 'ca.pem'),
    ]);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(/ca\.pem/);
    expect(await freePort(port)).toBe(port);
  });
});
