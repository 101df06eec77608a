import { describe, expect, it } from 'vitest';
import { Journal } from '../../../src/journal/journal.js';
import { type CutBody, keep } from '../../../src/journal/journal-body.js';
import { addByEmailRecord } from '../../helpers/journal-record.js';

/**
 * A request body of 2-byte characters cut at 65,536 bytes was kept as 65,538 bytes ending in "éé�":
 * the cut split a character, which then read as U+FFFD (3 bytes). A cut body never exceeds the
 * limit and never ends inside a character.
 */
const MARKER = '…[truncated';

const record = addByEmailRecord;

/** The text the journal shows of a body cut at `limit`, without its marker. */
function shown(body: string, limit: number, as: 'buffer' | 'string') {
  const journal = new Journal(1, limit);
  const data = as === 'buffer' ? Buffer.from(body) : body;
  journal.record(record(), Buffer.from(body), data);
  const [entry] = journal.entries();
  return [entry!.request, entry!.response].map((message) => {
    const text = message.body as string;
    expect(message.bodyTruncated).toBe(true);
    expect(message.bodySize).toBe(Buffer.byteLength(body));
    return text.slice(0, text.indexOf(MARKER));
  });
}

describe('a cut body', () => {
  for (const char of ['é', '€', '😀']) {
    const width = Buffer.byteLength(char);
    for (const prefix of [0, 1, 2, 3]) {
      const body = `${'a'.repeat(prefix)}${char.repeat(50)}`;
      for (let limit = 20; limit <= 20 + width; limit += 1) {
        it(`of ${width}-byte characters after ${prefix} ASCII, limit ${limit}: at most the limit, whole characters`, () => {
          const whole = Math.floor((limit - prefix) / width);
          const expected = `${'a'.repeat(prefix)}${char.repeat(whole)}`;
          for (const as of ['buffer', 'string'] as const) {
            for (const kept of shown(body, limit, as)) {
              expect(kept).toBe(expected);
              expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(limit);
              expect(kept).not.toContain('\ufffd');
            }
          }
        });
      }
    }
  }

  it('keeps a body of 40,000 "é" within the default 64 KiB limit, ending on a whole "é"', () => {
    const body = JSON.stringify({ emailAddress: 'big@example.com', firstName: 'é'.repeat(40_000) });
    for (const kept of shown(body, 64 * 1024, 'buffer')) {
      expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(64 * 1024);
      expect(Buffer.byteLength(kept)).toBeGreaterThan(64 * 1024 - 4);
      expect(kept.endsWith('é')).toBe(true);
    }
  });

  it('binary bytes are cut at the limit exactly (shown as base64, no character to keep whole)', () => {
    const bytes = Buffer.from([0xff, ...Buffer.from('é'.repeat(20))]);
    const kept = keep(bytes, 10) as CutBody;
    expect(kept.binary).toBe(true);
    expect(kept.data).toEqual(bytes.subarray(0, 10));
  });
});
