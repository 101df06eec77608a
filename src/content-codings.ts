import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * The codings a body's `Content-Encoding` and `Transfer-Encoding` list, in the order they were
 * applied; `identity`, and `chunked` (which Node undoes), left out. Give the headers in that order:
 * transfer codings are applied after content codings.
 */
export function codingsListed(...headers: readonly unknown[]): string[] {
  return headers
    .flat()
    .filter((header) => header !== undefined)
    .join(',')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity' && coding !== 'chunked');
}

/** What undoing a body's codings came to. */
export type Undone =
  /** Every coding undone. */
  | { readonly bytes: Buffer }
  /** A coding decodes past the bound: nothing more was decoded. */
  | { readonly tooLarge: true }
  /**
   * A coding that is unknown or that its bytes are not: `bytes` are those decoded up to it.
   */
  | { readonly failed: string; readonly unknown: boolean; readonly bytes: Buffer };

type Decode = (bytes: Buffer, maxOutputLength: number) => Buffer;

const DECODERS: Readonly<Record<string, Decode | undefined>> = {
  gzip: (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength }),
  'x-gzip': (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength }),
  br: (bytes, maxOutputLength) => brotliDecompressSync(bytes, { maxOutputLength }),
  // zlib, as RFC 9110 says, or raw deflate, as many servers send it.
  deflate: (bytes, maxOutputLength) => {
    try {
      return inflateSync(bytes, { maxOutputLength });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
      return inflateRawSync(bytes, { maxOutputLength });
    }
  },
};

/**
 * Undoes `codings` (in the order applied: the last is undone first), each bounded to `maxBytes`
 * decoded (zlib stops there: a small gzip of zeros must not inflate to gigabytes).
 */
export function undoCodings(bytes: Buffer, codings: readonly string[], maxBytes: number): Undone {
  let decoded = bytes;
  for (const coding of [...codings].reverse()) {
    const decode = DECODERS[coding];
    if (decode === undefined) return { failed: coding, unknown: true, bytes: decoded };
    try {
      decoded = decode(decoded, maxBytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        return { tooLarge: true };
      return { failed: coding, unknown: false, bytes: decoded };
    }
  }
  return { bytes: decoded };
}

/** Whether bytes begin as a gzip member does (its magic number and deflate method). */
export function looksLikeGzip(bytes: Buffer): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8;
}
