import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { HarEntry } from '../../../src/journal/har.js';
import type { JournalRecord } from '../../../src/journal/journal-entry.js';
import {
  escapedSize,
  MAX_TEXT_GROWTH,
  recordedEntry,
  storedAsBase64,
} from '../../../src/record/escaped-size.js';
import { startRecorder } from '../../../src/record/recorder.js';
import { readHarExchanges } from '../../../src/replay/har-input.js';
import { closeUpstream, listenUpstream } from '../../helpers/upstream.js';

// The recorder's memory is counted on what an entry holds of its bodies: stored as text, JSON
// writes a control character as six bytes, so a body that escaping would make much larger is
// stored base64, as a binary body is, and replay reads it back the same.

/** What JSON.stringify writes for the text, the quotes around it aside. */
const jsonSize = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

describe('escapedSize', () => {
  it('is what JSON writes for each ASCII character', () => {
    for (let code = 0; code < 0x80; code += 1) {
      const text = String.fromCharCode(code).repeat(3);
      expect([code, escapedSize(Buffer.from(text))]).toEqual([code, jsonSize(text)]);
    }
  });

  it.each([
    ['', 0],
    ['plain words', 11],
    ['{"data":"é—😀"}', 24],
    ['line\r\n\ttab\\ "quoted"', 26],
    ['\u0000\u0001\u001f\u007f', 19],
    ['\b\f', 4],
  ])('of %j is %i, as JSON writes it (characters past ASCII as they are)', (text, size) => {
    expect(escapedSize(Buffer.from(text))).toBe(size);
    expect(jsonSize(text)).toBe(size);
  });
});

describe('storedAsBase64', () => {
  it.each([
    ['{"id":1,"name":"a"}', 'a JSON answer'],
    ['<list><name>a</name></list>\n', 'XML'],
    ['x"', 'text that grows exactly by half'],
    [`${'x'.repeat(9)}\u0001`, 'text with one control character in ten'],
    ['', 'an empty body'],
  ])('keeps %j as text (%s)', (text) => {
    expect(storedAsBase64(Buffer.from(text))).toBe(false);
  });

  it.each([
    ['text that grows by more than half', '""x'],
    ['text with one control character in nine', `${'x'.repeat(8)}\u0001`],
    ['a run of control characters', '\u0001'.repeat(1000)],
  ])('stores %s base64', (_what, text) => {
    expect(storedAsBase64(Buffer.from(text))).toBe(true);
  });

  it('allows text to grow by half', () => {
    expect(MAX_TEXT_GROWTH).toBe(1.5);
  });
});

const facts = (headers: Record<string, string>): JournalRecord => ({
  arrived: Date.UTC(2026, 0, 1),
  durationMs: 3,
  protocol: 'http',
  method: 'POST',
  url: '/marketing/v1/lists',
  serverId: undefined,
  operation: undefined,
  format: 'json',
  status: 200,
  fault: undefined,
  requestHeaders: { host: 'api.example.com', ...headers },
  responseHeaders: { 'content-type': 'text/plain' },
});

describe('recordedEntry', () => {
  const controls = Buffer.alloc(300, 1);
  const binary = Buffer.alloc(300, 0xff);

  it('stores a body of control characters as a binary body is stored, base64 of the same bytes', () => {
    const escaped = recordedEntry(1, facts({ 'content-type': 'text/plain' }), controls, controls);
    const asBinary = recordedEntry(1, facts({ 'content-type': 'text/plain' }), binary, binary);
    const withoutText = (entry: HarEntry) =>
      JSON.stringify(entry).replaceAll(/"text":"[^"]*"/g, '"text":"…"');
    expect(withoutText(escaped)).toBe(withoutText(asBinary));
    expect(escaped.request.postData).toEqual({
      mimeType: 'text/plain',
      text: controls.toString('base64'),
      _encoding: 'base64',
    });
    expect(escaped.request.bodySize).toBe(300);
    expect(escaped.response.content).toEqual({
      size: 300,
      mimeType: 'text/plain',
      text: controls.toString('base64'),
      encoding: 'base64',
    });
    expect(escaped.response.bodySize).toBe(300);
  });

  it('gives a request body without Content-Type an empty mimeType', () => {
    const entry = recordedEntry(1, facts({}), controls, Buffer.alloc(0));
    expect(entry.request.postData?.mimeType).toBe('');
    expect(entry.response.content.text).toBeUndefined();
    expect(entry.response.bodySize).toBe(0);
  });

  it('holds a body of control characters in a third more than its bytes, not six times', () => {
    const body = Buffer.alloc(64 * 1024, 1);
    const entry = recordedEntry(1, facts({}), body, body);
    expect(Buffer.byteLength(JSON.stringify(entry))).toBeLessThan(2 * 1.34 * body.length + 2000);
  });

  it('keeps text bodies as text, each one side alone', () => {
    const json = Buffer.from('{"id":1,"name":"a"}');
    const entry = recordedEntry(1, facts({ 'content-type': 'application/json' }), json, controls);
    expect(entry.request.postData).toEqual({
      mimeType: 'application/json',
      text: '{"id":1,"name":"a"}',
    });
    expect(entry.response.content.encoding).toBe('base64');
    const back = recordedEntry(1, facts({}), controls, json);
    expect(back.request.postData?._encoding).toBe('base64');
    expect(back.response.content).toEqual({
      size: json.length,
      mimeType: 'text/plain',
      text: '{"id":1,"name":"a"}',
    });
  });
});

describe('a recording of control characters', () => {
  const folder = mkdtempSync(join(tmpdir(), 'escaped-size-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let upstream: Server | undefined;
  afterEach(async () => {
    if (upstream) await closeUpstream(upstream);
    upstream = undefined;
  });

  it('stores them base64, a third over their bytes, and replay reads the same bytes back', async () => {
    const answer = Buffer.alloc(256 * 1024, 1);
    const sent = Buffer.alloc(128 * 1024, 2);
    upstream = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(answer);
      });
    });
    const out = join(folder, 'controls.har');
    const recorder = await startRecorder({
      upstream: await listenUpstream(upstream),
      out,
      https: false,
    });
    try {
      const received = await new Promise<Buffer>((resolve, reject) => {
        const req = request(
          `${recorder.baseUrl}/lists`,
          { method: 'POST', agent: false },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve(Buffer.concat(chunks)));
          },
        );
        req.on('error', reject);
        req.setHeader('content-type', 'text/plain');
        req.end(sent);
      });
      expect(received.equals(answer)).toBe(true);
    } finally {
      await recorder.close();
    }
    // Stored as text, the file would be six times the bodies.
    expect(statSync(out).size).toBeLessThan((answer.length + sent.length) * 1.4);
    const [entry] = (JSON.parse(readFileSync(out, 'utf8')) as { log: { entries: HarEntry[] } }).log
      .entries;
    expect(entry?.response.content.encoding).toBe('base64');
    expect(entry?.request.postData?._encoding).toBe('base64');
    const [exchange] = readHarExchanges(readFileSync(out, 'utf8')).exchanges;
    expect(exchange?.response.body).toBe(answer.toString());
    expect(exchange?.body?.equals(sent)).toBe(true);
  });
});
