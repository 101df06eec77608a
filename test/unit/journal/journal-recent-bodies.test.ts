import { describe, expect, it } from 'vitest';
import { CutBody, RECENT_BODY_LIMIT, RecentBodies } from '../../../src/journal/journal-body.js';

// A body equal to one kept lately is kept as that one (src/journal/journal-body.ts). Buffers show
// which object comes back; strings compare by value, so for them only equality can be seen.

const bytes = (text: string) => Buffer.from(text);

describe('RecentBodies', () => {
  it('keeps a buffer equal to one kept lately as that one', () => {
    const recent = new RecentBodies();
    const first = bytes('{"emailAddress":"ann@example.com"}');
    expect(recent.intern(first)).toBe(first);
    const again = bytes('{"emailAddress":"ann@example.com"}');
    expect(recent.intern(again)).toBe(first);
    const other = bytes('{"emailAddress":"bob@example.com"}');
    expect(recent.intern(other)).toBe(other);
    expect(recent.intern(bytes('{"emailAddress":"bob@example.com"}'))).toBe(other);
  });

  it('remembers the last four distinct buffers only', () => {
    const recent = new RecentBodies();
    const kept = ['a', 'b', 'c', 'd', 'e'].map((name) => recent.intern(bytes(name)) as Buffer);
    // `a` made way for `e`; `b` to `e` are still remembered.
    for (const [index, name] of ['b', 'c', 'd', 'e'].entries()) {
      expect(recent.intern(bytes(name))).toBe(kept[index + 1]);
    }
    const a = bytes('a');
    expect(recent.intern(a)).toBe(a);
  });

  it('leaves large bodies, cut bodies and no body as they are', () => {
    const recent = new RecentBodies();
    const large = Buffer.alloc(RECENT_BODY_LIMIT + 1, 'x');
    const atLimit = Buffer.alloc(RECENT_BODY_LIMIT, 'y');
    expect(recent.intern(large)).toBe(large);
    expect(recent.intern(Buffer.alloc(RECENT_BODY_LIMIT + 1, 'x'))).not.toBe(large);
    expect(recent.intern(atLimit)).toBe(atLimit);
    expect(recent.intern(Buffer.alloc(RECENT_BODY_LIMIT, 'y'))).toBe(atLimit);
    const cut = new CutBody(bytes('abc'), 10, false);
    expect(recent.intern(cut)).toBe(cut);
    expect(recent.intern(undefined)).toBeUndefined();
  });

  it('gives back strings equal to the ones given, large ones too', () => {
    const recent = new RecentBodies();
    const texts = ['{"a":1}', '{"a":1}', 'z'.repeat(RECENT_BODY_LIMIT + 1), '{"b":2}', '{"a":1}'];
    expect(texts.map((text) => recent.intern([...text].join('')))).toEqual(texts);
  });
});
