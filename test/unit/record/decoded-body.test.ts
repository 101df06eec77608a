import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../../src/answer-limit.js';
import { decodedBody } from '../../../src/record/decoded-body.js';

// A HAR stores bodies decoded, so that the recorder can take the secrets out of them; a body it
// cannot decode is not kept, since compressed its secrets would stay in the file.
const SECRET = '{"key":"Secr3t-Key_0042","authorization":"Basic MTIzNDU6U2VjcjN0"}';
const text = Buffer.from(SECRET);

describe('a body with a Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync(text)],
    ['x-gzip', gzipSync(text)],
    ['br', brotliCompressSync(text)],
    ['deflate', deflateSync(text)],
    ['Deflate', deflateRawSync(text)],
    ['gzip, br', brotliCompressSync(gzipSync(text))],
    ['deflate,gzip', gzipSync(deflateRawSync(text))],
    ['identity, gzip', gzipSync(text)],
  ])("'%s' is stored decoded, each coding undone, the last applied first", (encoding, bytes) => {
    const decoded = decodedBody(bytes, encoding, 'answer');
    expect(decoded.body.toString()).toBe(SECRET);
    expect(decoded.note).toBeUndefined();
  });

  it('given as repeated headers is read as one list', () => {
    const decoded = decodedBody(brotliCompressSync(gzipSync(text)), ['gzip', 'br'], 'request');
    expect(decoded.body.toString()).toBe(SECRET);
  });

  it('with transfer codings after the content codings undoes them all, chunked aside', () => {
    const bytes = gzipSync(brotliCompressSync(text));
    const decoded = decodedBody(bytes, ['br', 'gzip, chunked'], 'answer');
    expect(decoded.body.toString()).toBe(SECRET);
  });

  it.each([undefined, '', 'identity'])(
    '%j over gzip bytes stores them decoded, saying no header announced gzip',
    (encoding) => {
      const decoded = decodedBody(gzipSync(text), encoding, 'request');
      expect(decoded.body.toString()).toBe(SECRET);
      expect(decoded.note).toBe(
        "The request's body is gzip that no Content-Encoding announced: it is stored decoded.",
      );
    },
  );

  it('says no coding over bytes that only begin as gzip: kept as they are', () => {
    const odd = Buffer.concat([Buffer.from([0x1f, 0x8b, 8]), Buffer.alloc(40, 0x41)]);
    expect(decodedBody(odd, undefined, 'answer')).toEqual({ body: odd });
  });

  it.each([undefined, '', 'identity', ' '])('%j leaves the body as it is', (encoding) => {
    expect(decodedBody(text, encoding, 'answer')).toEqual({ body: text });
  });

  it('is not kept when a coding is unknown, and the note says why', () => {
    const decoded = decodedBody(gzipSync(text), 'gzip, zz', 'answer');
    expect(decoded.body.length).toBe(0);
    expect(decoded.note).toBe(
      "The answer's body is not recorded: it says Content-Encoding 'gzip, zz' and record cannot decode 'zz', so the secrets in it could not be taken out.",
    );
  });

  it('is not kept when its bytes are not what the header says', () => {
    const decoded = decodedBody(text, 'gzip', 'request');
    expect(decoded.body.length).toBe(0);
    expect(decoded.note).toBe(
      "The request's body is not recorded: it says Content-Encoding 'gzip' and its bytes are not gzip, so the secrets in it could not be taken out.",
    );
    expect(decodedBody(brotliCompressSync(text), 'gzip, br', 'answer').body.length).toBe(0);
  });

  it('past the bound of one answer decoded, is kept as received, with a note', () => {
    const bomb = gzipSync(Buffer.alloc(MAX_ANSWER_BYTES + 1));
    const decoded = decodedBody(bomb, 'gzip', 'answer');
    expect(decoded.body).toBe(bomb);
    expect(decoded.note).toBe(
      `The answer decodes (gzip) to more than ${MAX_ANSWER_BYTES} bytes (32 MiB), the limit of one answer: its body is recorded as received, compressed.`,
    );
    const raw = deflateRawSync(Buffer.alloc(MAX_ANSWER_BYTES + 1));
    expect(decodedBody(raw, 'deflate', 'answer').body).toBe(raw);
  });

  it('that is empty stays empty, whatever the header says', () => {
    expect(decodedBody(Buffer.alloc(0), 'gzip', 'answer')).toEqual({ body: Buffer.alloc(0) });
  });

  it('decoded to the bound exactly, is stored decoded', () => {
    const whole = gzipSync(Buffer.alloc(MAX_ANSWER_BYTES, 'a'));
    const decoded = decodedBody(whole, 'gzip', 'answer');
    expect(decoded.body.length).toBe(MAX_ANSWER_BYTES);
    expect(decoded.note).toBeUndefined();
  });
});

describe('a body that says no coding', () => {
  it('and is gzip decoding past the bound is not kept, and the note says why', () => {
    const decoded = decodedBody(gzipSync(Buffer.alloc(MAX_ANSWER_BYTES + 1)), undefined, 'request');
    expect(decoded.body.length).toBe(0);
    expect(decoded.note).toBe(
      `The request's body is not recorded: it says Content-Encoding 'none' and it is gzip that decodes past ${MAX_ANSWER_BYTES} bytes, so the secrets in it could not be taken out.`,
    );
  });

  it('and is gzip of gzip is stored decoded, every layer undone, the note counting them', () => {
    const twice = gzipSync(gzipSync(text));
    expect(decodedBody(twice, undefined, 'answer')).toEqual({
      body: text,
      note: "The answer's body is gzip that no Content-Encoding announced (2 layers): it is stored decoded.",
    });
    // Eight layers are undone; a ninth is past what any server sends, and the body is not kept.
    let layered = text;
    for (let layer = 0; layer < 8; layer++) layered = gzipSync(layered);
    expect(decodedBody(layered, undefined, 'answer').body.toString()).toBe(SECRET);
    const deeper = decodedBody(gzipSync(layered), undefined, 'request');
    expect(deeper.body.length).toBe(0);
    expect(deeper.note).toBe(
      "The request's body is not recorded: it says Content-Encoding 'none' and it is gzip nested more than 8 times, so the secrets in it could not be taken out.",
    );
  });

  it('inside the gzip a header announced is undone too', () => {
    expect(decodedBody(gzipSync(gzipSync(text)), 'gzip', 'answer')).toEqual({
      body: text,
      note: "The answer's body is gzip that no Content-Encoding announced: it is stored decoded.",
    });
  });

  it('and is the shortest whole gzip is stored decoded', () => {
    const empty = gzipSync(Buffer.alloc(0));
    expect(empty.length).toBe(20);
    expect(decodedBody(empty, undefined, 'answer')).toEqual({
      body: Buffer.alloc(0),
      note: "The answer's body is gzip that no Content-Encoding announced: it is stored decoded.",
    });
  });
});
