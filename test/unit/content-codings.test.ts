import { brotliCompressSync, deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { codingsListed, looksLikeGzip, undoCodings } from '../../src/content-codings.js';

// One reading of Content-Encoding and Transfer-Encoding for record (which redacts what it decodes)
// and replay (which compares it).
const text = Buffer.from('{"key":"Secr3t-Key_0042"}');

describe('the codings a body lists', () => {
  it('are in the order applied, content codings then transfer codings, identity and chunked left out', () => {
    expect(codingsListed(' GZIP, identity', ['br', 'gzip, chunked'], undefined)).toEqual([
      'gzip',
      'br',
      'gzip',
    ]);
    expect(codingsListed(undefined, '')).toEqual([]);
  });

  it('are undone the last applied first, deflate raw or zlib', () => {
    expect(undoCodings(gzipSync(brotliCompressSync(text)), ['br', 'gzip'], 1024)).toEqual({
      bytes: text,
    });
    expect(undoCodings(deflateRawSync(text), ['deflate'], 1024)).toEqual({ bytes: text });
  });

  it('stop at a coding that is unknown or that the bytes are not, giving what was decoded', () => {
    const brotli = brotliCompressSync(text);
    expect(undoCodings(gzipSync(brotli), ['zz', 'gzip'], 1024)).toEqual({
      failed: 'zz',
      unknown: true,
      bytes: brotli,
    });
    expect(undoCodings(text, ['gzip'], 1024)).toEqual({
      failed: 'gzip',
      unknown: false,
      bytes: text,
    });
  });

  it('stop past the bound, at any layer', () => {
    expect(undoCodings(gzipSync(Buffer.alloc(2048)), ['gzip'], 1024)).toEqual({ tooLarge: true });
    expect(undoCodings(deflateRawSync(Buffer.alloc(2048)), ['deflate'], 1024)).toEqual({
      tooLarge: true,
    });
  });

  it('gzip is known by its first three bytes', () => {
    expect(looksLikeGzip(gzipSync(text))).toBe(true);
    expect(looksLikeGzip(Buffer.from([0x1f, 0x8b, 7]))).toBe(false);
    expect(looksLikeGzip(text)).toBe(false);
  });
});
