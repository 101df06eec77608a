import { type HarEntry, toHarEntry } from '../journal/har.js';
import { journalEntryOf } from '../journal/journal.js';
import type { JournalRecord } from '../journal/journal-entry.js';

/**
 * How the recorder stores a body in a HAR entry, and so how much the entry weighs: text (HAR 1.2
 * `text`, which JSON escapes) or base64 (`encoding: "base64"`, a third more than the bytes). JSON
 * writes a quote, a backslash, a tab or a line break as two bytes and any other control character
 * (`\u0001`) as six, so an upstream answering 32 MiB of control characters would make one entry
 * of 192 MiB, six times the bound the recorder's memory is counted on. A text body that JSON
 * would write more than {@link MAX_TEXT_GROWTH} times as long is stored base64, as a binary body
 * is: no entry holds more than one and a half times its bodies' bytes. Text such as JSON or XML
 * stays text (a JSON answer grows by its quotes, well under half).
 */
export const MAX_TEXT_GROWTH = 1.5;

/** What JSON adds to each byte of UTF-8 text: five for `\u00XX`, one for `\"`, `\\`, `\n`... */
const ADDED = new Uint8Array(256);
for (let byte = 0; byte < 0x20; byte += 1) ADDED[byte] = 5;
for (const byte of [0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]) ADDED[byte] = 1;

/**
 * The bytes JSON writes for `body` read as UTF-8 text, the quotes around it aside: what the entry
 * holds of it stored as text. Characters past ASCII are written as they are (as `JSON.stringify`
 * writes them), so only bytes under 0x80 add to it.
 */
export function escapedSize(body: Buffer): number {
  let size = body.length;
  for (let index = 0; index < body.length; index += 1) size += ADDED[body[index]!]!;
  return size;
}

/**
 * True when `body` is stored base64 for its escapes: JSON would write it as text more than
 * {@link MAX_TEXT_GROWTH} times as long. (A body that is not UTF-8 is stored base64 either way.)
 */
export function storedAsBase64(body: Buffer): boolean {
  return escapedSize(body) > body.length * MAX_TEXT_GROWTH;
}

/**
 * The HAR entry of a recorded exchange whose bodies are redacted: the journal's entry, with each
 * body that {@link storedAsBase64} stored as a binary body is (`postData._encoding` and
 * `content.encoding` `base64`, as replay reads them). Such a body never becomes the text whose
 * escapes would weigh six times its bytes.
 */
export function recordedEntry(
  id: number,
  facts: JournalRecord,
  request: Buffer,
  response: Buffer,
): HarEntry {
  const requestBase64 = storedAsBase64(request);
  const responseBase64 = storedAsBase64(response);
  const entry = toHarEntry(
    journalEntryOf(
      id,
      facts,
      requestBase64 ? undefined : request,
      responseBase64 ? undefined : response,
    ),
  );
  if (requestBase64) {
    // In the order the journal's entry has them: postData before the sizes.
    const { headersSize, bodySize: _none, ...head } = entry.request;
    const type = head.headers.find(({ name }) => name === 'content-type');
    entry.request = {
      ...head,
      postData: {
        mimeType: type?.value ?? '',
        text: request.toString('base64'),
        _encoding: 'base64',
      },
      headersSize,
      bodySize: request.length,
    };
  }
  if (responseBase64) {
    const { content } = entry.response;
    Object.assign(content, { size: response.length, text: response.toString('base64') });
    content.encoding = 'base64';
    entry.response.bodySize = response.length;
  }
  return entry;
}
