import { Readable } from 'node:stream';

/** How much JSON text to gather before handing it to the socket. */
const CHUNK = 64 * 1024;

/**
 * `head`, the items as JSON separated by commas, then `tail`, as a stream that builds each item
 * only when the socket wants more: the same bytes as `JSON.stringify` of the whole, while memory
 * holds one chunk, never the whole answer and every object in it (the journal is up to a
 * thousand entries of 64 KiB bodies, each as text and again as JSON).
 */
export function jsonStream(
  head: string,
  items: Iterable<unknown>,
  tail: string,
  toJson: (item: never) => unknown = (item) => item,
): Readable {
  return Readable.from(chunks(head, items, tail, toJson as (item: unknown) => unknown), {
    objectMode: false,
  });
}

function* chunks(
  head: string,
  items: Iterable<unknown>,
  tail: string,
  toJson: (item: unknown) => unknown,
): Generator<string> {
  let pending = head;
  let first = true;
  for (const item of items) {
    pending += (first ? '' : ',') + JSON.stringify(toJson(item));
    first = false;
    if (pending.length >= CHUNK) {
      yield pending;
      pending = '';
    }
  }
  yield pending + tail;
}

/**
 * Text given in pieces, as a stream of chunks of about {@link CHUNK} characters: the pieces are
 * taken only when the socket wants more, and no chunk holds more than a piece past CHUNK.
 */
export function textStream(pieces: Iterable<string>): Readable {
  return Readable.from(batched(pieces), { objectMode: false });
}

function* batched(pieces: Iterable<string>): Generator<string> {
  let pending = '';
  for (const piece of pieces) {
    if (pending.length > 0 && pending.length + piece.length > CHUNK) {
      yield pending;
      pending = '';
    }
    pending += piece;
  }
  if (pending.length > 0) yield pending;
}
