import { describe, expect, it } from 'vitest';
import { CutBody, keep, MAX_SHOWN_DEPTH } from '../../../src/journal/journal-body.js';
import { jsonDepthExceeds } from '../../../src/json-depth.js';

/** A buffer that is a view of a larger allocation, as Node's pooled buffers are. */
function viewOf(text: string, spare = 100): Buffer {
  const whole = Buffer.alloc(text.length + spare, 'x');
  whole.write(text, 0, 'latin1');
  return whole.subarray(0, text.length);
}

describe('keep: what the journal holds of a body', () => {
  it('keeps nothing of no body and of an empty one', () => {
    expect(keep(undefined, 10)).toBeUndefined();
    expect(keep('', 10)).toBeUndefined();
    expect(keep(Buffer.alloc(0), 10)).toBeUndefined();
  });

  it('keeps a string within the limit by reference, up to exactly the limit in bytes', () => {
    const short = 'abc';
    expect(keep(short, 9)).toBe(short);
    // Over length * 3, yet within the limit in bytes: still the string itself.
    const exact = 'abcd';
    expect(keep(exact, 4)).toBe(exact);
    const accented = 'éé'; // 4 bytes
    expect(keep(accented, 4)).toBe(accented);
  });

  it('cuts a string one byte over the limit into a copy of the limit, with the whole size', () => {
    const kept = keep('abcde', 4);
    expect(kept).toBeInstanceOf(CutBody);
    const cut = kept as CutBody;
    expect(cut.data.toString('utf8')).toBe('abcd');
    expect(cut.size).toBe(5);
    expect(cut.binary).toBe(false);
    expect(cut.data.buffer.byteLength).toBe(4);
  });

  it('cuts a string at whole characters, in memory of exactly the kept bytes', () => {
    // 'é' is two bytes: five bytes hold two of them, never half of the third.
    const cut = keep('éééé', 5) as CutBody;
    expect(cut).toBeInstanceOf(CutBody);
    expect(cut.data.toString('utf8')).toBe('éé');
    expect(cut.data.length).toBe(4);
    expect(cut.data.buffer.byteLength).toBe(4);
    expect(cut.size).toBe(8);
    expect(cut.binary).toBe(false);
  });

  it('keeps a buffer of its own memory within the limit by reference, up to the limit', () => {
    const own = Buffer.allocUnsafeSlow(4);
    own.write('abcd');
    expect(keep(own, 4)).toBe(own);
    expect(keep(own, 5)).toBe(own);
  });

  it('copies a small view of a larger buffer, so the journal never holds the larger one', () => {
    const view = viewOf('abcd');
    const kept = keep(view, 10) as Buffer;
    expect(kept).not.toBe(view);
    expect(Buffer.isBuffer(kept)).toBe(true);
    expect(kept.toString('latin1')).toBe('abcd');
    expect(kept.buffer.byteLength).toBe(4);
  });

  it('keeps a view by reference when the memory behind it is within the limit', () => {
    const whole = Buffer.allocUnsafeSlow(6);
    whole.write('abcdef');
    const view = whole.subarray(0, 3);
    // The memory behind it (6 bytes) is within the limit: nothing to free by copying.
    expect(keep(view, 6)).toBe(view);
    expect(keep(view, 5)).not.toBe(view);
  });

  it('cuts a buffer over the limit into a copy of the limit, saying whether it was UTF-8', () => {
    const text = Buffer.from('abcdefgh');
    const cut = keep(text, 3) as CutBody;
    expect(cut).toBeInstanceOf(CutBody);
    expect(cut.data.toString('latin1')).toBe('abc');
    expect(cut.data.buffer.byteLength).toBe(3);
    expect(cut.size).toBe(8);
    expect(cut.binary).toBe(false);

    const binary = Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x63]);
    const cutBinary = keep(binary, 2) as CutBody;
    expect(cutBinary.binary).toBe(true);
    expect([...cutBinary.data]).toEqual([0x61, 0xff]);
    expect(cutBinary.size).toBe(5);
  });

  it('cuts a buffer exactly one byte over the limit, and keeps one at the limit', () => {
    const own = Buffer.allocUnsafeSlow(5);
    own.write('abcde');
    expect(keep(own, 5)).toBe(own);
    const cut = keep(own, 4) as CutBody;
    expect(cut).toBeInstanceOf(CutBody);
    expect(cut.data.toString('latin1')).toBe('abcd');
    expect(cut.size).toBe(5);
  });
});

describe('MAX_SHOWN_DEPTH', () => {
  it('shows bodies nested up to MAX_SHOWN_DEPTH parsed, and no deeper', () => {
    expect(MAX_SHOWN_DEPTH).toBe(100);
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(jsonDepthExceeds(nested(MAX_SHOWN_DEPTH), MAX_SHOWN_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_SHOWN_DEPTH + 1), MAX_SHOWN_DEPTH)).toBe(true);
  });
});
