import { MAX_ANSWER_BYTES } from '../answer-limit.js';
import { codingsListed, looksLikeGzip, undoCodings } from '../content-codings.js';

/**
 * A body as a HAR stores it (HAR 1.2, `content.text`): decoded, so that the secrets in it can be
 * found and taken out. Every coding the `Content-Encoding` and `Transfer-Encoding` list is undone
 * (but `chunked`, which Node undoes), the last applied first
 * (`gzip, br` is brotli of gzip); `deflate` is read as zlib or, as many servers send it, raw.
 * A decoded body is bounded by {@link MAX_ANSWER_BYTES}, the bound of a raw answer (zlib stops
 * there: a small gzip of zeros must not inflate to gigabytes); past it the body is kept as
 * received, and `note` says why. A body that cannot be decoded (an unknown coding, bytes that are
 * not what the header says) is not kept at all: compressed, its secrets would stay in the HAR.
 */
export interface DecodedBody {
  body: Buffer;
  /** Why the body is not stored decoded, for the entry's comment. */
  note?: string;
}

export function decodedBody(
  body: Buffer,
  encoding: unknown,
  what: 'answer' | 'request',
): DecodedBody {
  const listed = codingsListed(encoding);
  if (body.length === 0) return { body };
  if (listed.length === 0) return undeclaredGzip(body, what);
  const named = listed.join(', ');
  const undone = undoCodings(body, listed, MAX_ANSWER_BYTES);
  if ('tooLarge' in undone) {
    return {
      body,
      note: `The ${what} decodes (${named}) to more than ${MAX_ANSWER_BYTES} bytes (32 MiB), the limit of one ${what}: its body is recorded as received, compressed.`,
    };
  }
  if ('failed' in undone) {
    const why = undone.unknown
      ? `record cannot decode '${undone.failed}'`
      : `its bytes are not ${undone.failed}`;
    return dropped(what, named, why);
  }
  // What the header announced may hold gzip it did not: undone too.
  return undeclaredGzip(undone.bytes, what);
}

/** Layers of gzip no header announced that are undone; a body nested deeper is not kept. */
const MAX_UNANNOUNCED_LAYERS = 8;

/**
 * A body that says no coding but begins as gzip does (a server that forgot the header, one that
 * says `identity` over gzip, or gzip inside the gzip it announced): its secrets would be hidden in
 * it, so it is stored decoded, layer after layer, when it is whole gzip, said in a note; other
 * bytes are kept as they are. Each layer is bounded as a raw answer is.
 */
function undeclaredGzip(body: Buffer, what: string): DecodedBody {
  let bytes = body;
  let layers = 0;
  while (bytes.length >= 18 && looksLikeGzip(bytes)) {
    if (layers === MAX_UNANNOUNCED_LAYERS) {
      return dropped(what, 'none', `it is gzip nested more than ${MAX_UNANNOUNCED_LAYERS} times`);
    }
    const undone = undoCodings(bytes, ['gzip'], MAX_ANSWER_BYTES);
    if ('tooLarge' in undone) {
      return dropped(what, 'none', `it is gzip that decodes past ${MAX_ANSWER_BYTES} bytes`);
    }
    if ('failed' in undone) break;
    bytes = undone.bytes;
    layers++;
  }
  if (layers === 0) return { body: bytes };
  return {
    body: bytes,
    note: `The ${what}'s body is gzip that no Content-Encoding announced${layers > 1 ? ` (${layers} layers)` : ''}: it is stored decoded.`,
  };
}

function dropped(what: string, named: string, why: string): DecodedBody {
  return {
    body: Buffer.alloc(0),
    note: `The ${what}'s body is not recorded: it says Content-Encoding '${named}' and ${why}, so the secrets in it could not be taken out.`,
  };
}
