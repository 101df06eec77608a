import type { Readable } from 'node:stream';

/**
 * The most bytes of one answer that the commands reading another implementation keep: replay
 * decoding a recorded body, and record, verify and import reading an upstream. No answer of the
 * service comes near it (thousands of lists or contacts in XML are a few MiB); an endless or
 * hostile answer past it is refused, naming this bound, so memory stays bounded.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** An answer longer than {@link MAX_ANSWER_BYTES}: reading it was stopped. */
export class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
  constructor(what: string, reader: string) {
    super(
      `${what} is larger than ${MAX_ANSWER_BYTES} bytes (32 MiB), the limit of one answer for ${reader}: reading it was stopped`,
    );
  }
}

/**
 * Reads a stream whole, to {@link MAX_ANSWER_BYTES} at most: past it the stream is destroyed (no
 * more is read from the network) and the promise rejects with AnswerTooLargeError. A declared
 * `content-length` past the bound is refused before any byte is read.
 */
export async function readBounded(
  stream: Readable,
  declaredLength: string | undefined,
  what: string,
  reader: string,
): Promise<Buffer> {
  if (declaredLength !== undefined && Number(declaredLength) > MAX_ANSWER_BYTES) {
    stream.destroy();
    throw new AnswerTooLargeError(what, reader);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > MAX_ANSWER_BYTES) {
      stream.destroy();
      throw new AnswerTooLargeError(what, reader);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
