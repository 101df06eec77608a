import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeedError } from '../../src/domain/errors.js';
import { loadSeed } from '../../src/files.js';
import { createFakeMarketingServer } from '../../src/index.js';
import {
  HEAD_BYTES,
  JsonFileError,
  readJsonObjectFile,
  WHOLE_READ_BYTES,
} from '../../src/json-file.js';
import { MAX_DEPTH, TOO_DEEP } from '../../src/json-stream-parse.js';

// Seeds and state files were read whole, as one string, before anything judged them: a 1 GB file of
// NUL bytes took 1.1 GB of memory to be refused, and a state past 512 MiB, which the fake saves in
// pieces, could never be loaded again (no string is that long).
// A file is now judged by its first bytes, and one past WHOLE_READ_BYTES is parsed as it is read.

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'json-file-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let count = 0;
function file(content: string | Buffer): string {
  count += 1;
  const path = join(folder, `f${count}.json`);
  writeFileSync(path, content);
  return path;
}

/** The file read as it is streamed: the smallest head and chunks, so every token spans reads. */
const streamed = (path: string, chunkBytes = 3, headBytes = 1) =>
  readJsonObjectFile(path, { wholeReadBytes: 0, chunkBytes, headBytes });

/** Leading JSON whitespace: the head must reach the first `{` (it refuses a blank head). */
const blankStart = (text: string) => text.length - text.replace(/^[ \n\r\t]+/, '').length;

describe('a JSON object read as it is streamed', () => {
  it('is exactly what JSON.parse gives, whatever the chunks', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        (object, chunk, pretty) => {
          const text = pretty ? JSON.stringify(object, null, 2) : JSON.stringify(object);
          expect(streamed(file(text), chunk, 1 + (chunk % 3))).toStrictEqual(JSON.parse(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses exactly what JSON.parse refuses (a few characters changed in valid JSON)', () => {
    const char = fc.constantFrom(...'{}[]:,"\\ \n0123456789-+.eEtrufalsn\u0000\u001fxé'.split(''));
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
        fc.nat(),
        fc.nat(),
        fc.array(char, { maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        (object, at, removed, inserted, chunk) => {
          const valid = JSON.stringify(object);
          const place = at % (valid.length + 1);
          const text =
            valid.slice(0, place) + inserted.join('') + valid.slice(place + (removed % 3));
          let wanted: unknown;
          try {
            wanted = JSON.parse(text);
          } catch {
            wanted = undefined;
          }
          const isObject = typeof wanted === 'object' && wanted !== null && !Array.isArray(wanted);
          const read = () => streamed(file(text), chunk, 1 + blankStart(text));
          if (isObject) expect(read()).toStrictEqual(wanted);
          else expect(read).toThrow(JsonFileError);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keeps what JSON.parse keeps: __proto__ as an own property, the last of repeated names, escapes', () => {
    const text =
      '{"__proto__":{"x":1},"a":1,"a":2,"1":3,"s":"\\ud800\\u0041\\"\\\\\\/","n":-0,"m":1e400,"k":-1.5E-3,"l":[true,false,null,[],{}]}';
    for (const chunk of [1, 2, 3, 64]) {
      const read = streamed(file(text), chunk);
      expect(read).toStrictEqual(JSON.parse(text));
      expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
      expect(Object.hasOwn(read, '__proto__')).toBe(true);
    }
  });

  it('reads UTF-8 split across reads, and bytes that are not UTF-8 as a whole read would', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"a":"x'),
      Buffer.from([0xe2, 0x82]),
      Buffer.from('","b":"€😀'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const path = file(bytes);
    for (const chunk of [1, 2, 3, 4, 5])
      expect(streamed(path, chunk)).toStrictEqual(JSON.parse(bytes.toString('utf8')));
  });

  it('names the byte where the JSON stops, and the end when it is cut short', () => {
    expect(() => streamed(file('{"a": 1, }'))).toThrow(
      'at byte 9: "}" where a key (a string) was wanted',
    );
    expect(() => streamed(file('{"a": [1 2]}'))).toThrow(
      'at byte 9: "2" where "," or "]" was wanted',
    );
    expect(() => streamed(file('{"a": 01}'))).toThrow('is not a JSON number');
    expect(() => streamed(file('{"a": "\u0001"}'))).toThrow('a string that is not valid JSON');
    expect(() => streamed(file('{} {}'))).toThrow('at byte 3: "{" follows the JSON object');
    expect(() => streamed(file('{"a": [1, 2'))).toThrow(
      'it ends (at byte 11) before its JSON object does',
    );
    expect(() => streamed(file('{"a": tru'))).toThrow('before its JSON object does');
  });

  it('stops an unterminated string at its bound instead of gathering the rest of the file', () => {
    const path = file(`{"a": "${'x'.repeat(5000)}`);
    expect(() =>
      readJsonObjectFile(path, { wholeReadBytes: 0, chunkBytes: 512, maxTokenBytes: 1000 }),
    ).toThrow('a string or number goes on past 1000 bytes');
  });
});

describe('a file nested deeper than any seed', () => {
  /** `{"a": ...}` whose arrays and objects nest `depth` levels in all, ended or not. */
  const nested = (depth: number, ended = true) =>
    `{"a":${'['.repeat(depth - 1)}${ended ? ']'.repeat(depth - 1) : ''}}`;

  it('is read up to the bound, whole or as it is streamed', () => {
    const path = file(nested(MAX_DEPTH));
    expect(readJsonObjectFile(path)).toStrictEqual(JSON.parse(nested(MAX_DEPTH)));
    expect(streamed(path)).toStrictEqual(JSON.parse(nested(MAX_DEPTH)));
  });

  it('is refused one level past it, whole or as it is streamed, naming the bound', () => {
    const path = file(nested(MAX_DEPTH + 1));
    for (const read of [() => readJsonObjectFile(path), () => streamed(path)]) {
      try {
        read();
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(JsonFileError);
        expect((error as JsonFileError).kind).toBe('too-deep');
        expect((error as JsonFileError).message).toContain(
          `its arrays and objects nest deeper than ${MAX_DEPTH} levels`,
        );
      }
    }
    // `{"a":` is 5 bytes; the level past the bound opens 99 bytes later.
    expect(() => streamed(path)).toThrow(`${TOO_DEEP} (at byte ${5 + MAX_DEPTH - 1})`);
  });

  it('is refused where it passes the bound, before the rest is read or built', () => {
    // A million levels, never closed: read to its end, it would be refused as cut short.
    const path = file(nested(1_000_000, false));
    expect(() => streamed(path, 4096)).toThrow(`${TOO_DEEP} (at byte ${5 + MAX_DEPTH - 1})`);
    expect(() => readJsonObjectFile(path)).toThrow(TOO_DEEP);
  });

  it('counts objects as arrays are counted', () => {
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const within = file(objects(MAX_DEPTH));
    expect(streamed(within)).toStrictEqual(JSON.parse(objects(MAX_DEPTH)));
    expect(readJsonObjectFile(within)).toStrictEqual(JSON.parse(objects(MAX_DEPTH)));
    const past = file(objects(MAX_DEPTH + 1));
    // The object past the bound opens after 100 `{"a":` of 5 bytes each.
    expect(() => streamed(past)).toThrow(`${TOO_DEEP} (at byte ${5 * MAX_DEPTH})`);
    expect(() => readJsonObjectFile(past)).toThrow(TOO_DEEP);
  });

  it('counts brackets inside strings for nothing', () => {
    const text = `{"a":"${'['.repeat(MAX_DEPTH * 2)}"}`;
    expect(readJsonObjectFile(file(text))).toStrictEqual(JSON.parse(text));
    expect(streamed(file(text))).toStrictEqual(JSON.parse(text));
  });

  it('is no seed: loadSeed refuses it as a bad seed (exit 2), naming the depth', () => {
    const path = file(`{"servers":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    expect(() => loadSeed(path)).toThrow(SeedError);
    expect(() => loadSeed(path)).toThrow(
      `seed file ${path} is not a seed, which nests 6 levels: ${TOO_DEEP}`,
    );
  });
});

describe('a file judged by its first bytes', () => {
  it('refuses a file whose first byte after blanks is not "{", reading nothing more', () => {
    expect(() => readJsonObjectFile(file(Buffer.alloc(1000)))).toThrow(
      'it begins with the byte 0x00 (at byte 0), not "{"',
    );
    expect(() => readJsonObjectFile(file(' \n[1, 2]'))).toThrow(
      'it begins with "[" (at byte 2), not "{"',
    );
    expect(() => readJsonObjectFile(file(''))).toThrow('it is empty');
    expect(() => readJsonObjectFile(file(' '.repeat(HEAD_BYTES + 10)))).toThrow(
      `its first ${HEAD_BYTES} bytes are blank`,
    );
    try {
      readJsonObjectFile(file('null'));
    } catch (error) {
      expect((error as JsonFileError).kind).toBe('not-object');
    }
  });

  it('says when it cannot read the file at all', () => {
    for (const path of [join(folder, 'missing.json'), folder]) {
      try {
        readJsonObjectFile(path);
        expect.unreachable();
      } catch (error) {
        expect((error as JsonFileError).kind).toBe('unreadable');
      }
    }
  });

  it('reads a small file whole, a character cut by the head included', () => {
    // A three-byte character across the end of the head.
    const text = `{"a":"${'x'.repeat(HEAD_BYTES - 7)}€"}`;
    expect(readJsonObjectFile(file(text))).toStrictEqual(JSON.parse(text));
  });
});

describe('loadSeed on files of any kind and size', () => {
  it('refuses a file of NUL bytes at once, exit 2 as for any bad seed (SeedError)', () => {
    const path = join(folder, 'nul.json');
    writeFileSync(path, Buffer.alloc(4 * 1024 * 1024));
    expect(() => loadSeed(path)).toThrow(SeedError);
    expect(() => loadSeed(path)).toThrow(
      `seed file ${path} is not a seed, which is a JSON object: it begins with the byte 0x00 (at byte 0), not "{"`,
    );
    expect(() => loadSeed(file('{ "servers": ['))).toThrow('is not valid JSON');
    expect(() => loadSeed(join(folder, 'missing.json'))).toThrow('cannot read seed file');
  });

  it('loads a state past the whole-read bound as it is read, as the fake saves it', async () => {
    const path = join(folder, 'large-state.json');
    const descriptor = openSync(path, 'w');
    const value = 'v'.repeat(4000);
    let written = 0;
    let contacts = 0;
    const write = (text: string) => {
      written += writeSync(descriptor, text);
    };
    write('{\n  "servers": [\n    {\n      "serverId": 12345,\n      "key": "test-key-123456",\n');
    write('      "customFields": [{ "customFieldNameId": 1, "name": "Note" }],\n');
    write('      "lists": [{ "id": 1, "name": "N" }],\n      "contacts": [\n');
    while (written <= WHOLE_READ_BYTES) {
      const contact = {
        emailAddress: `p${contacts}@example.com`,
        customFields: { Note: value },
        lists: [1],
      };
      write(`${contacts > 0 ? ',\n' : ''}        ${JSON.stringify(contact)}`);
      contacts += 1;
    }
    write('\n      ]\n    }\n  ]\n}\n');
    closeSync(descriptor);
    const fake = await createFakeMarketingServer({ seed: path });
    try {
      const state = fake.exportState();
      expect(state.servers[0]!.contacts).toHaveLength(contacts);
      expect(state.servers[0]!.contacts![contacts - 1]!.customFields).toEqual({ Note: value });
    } finally {
      await fake.close();
    }
  });
});
