import { AnswerTooLargeError } from '../answer-limit.js';
import { InvalidOptionError } from '../domain/errors.js';
import { foldCase, MAX_FIELD_NAME_LENGTH } from '../domain/rules.js';
import type { Seed, ServerSeed } from '../domain/seed-types.js';
import { Store } from '../domain/store.js';
import { jsonDepthExceeds } from '../json-depth.js';
import { printable } from '../printable.js';
import { REDACTED } from '../redaction/secret-forms.js';
import { send, type Target, UnusableAnswerError } from './http-client.js';
import { checkTarget, keyHider } from './verify.js';

/** Options of {@link importSeed}. */
export interface ImportOptions extends Target {
  /** Write the key into the seed too; default false: keys stay out of files unless asked. */
  keepKey?: boolean;
  /**
   * Without `keepKey`, told of each value of the account that held the key (in any form the
   * journal redacts: as is, base64 of `id:key`, URL-escaped...), written as `[redacted]` instead:
   * `GET /lists item 2: name`. The seed holds no key either way.
   */
  onKeyHidden?: (where: string) => void;
}

/** What a seed holds where the account's data held the key. */
const KEY_PLACEHOLDER = '[redacted]';

/** The deepest an answer may nest, as verify reads answers. */
const MAX_ANSWER_DEPTH = 100;

/** A value of an answer in a few words, walking nothing (an item may be nested a million deep). */
function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/**
 * GET `path` as JSON: an array of objects, or an InvalidOptionError (import exits 2) naming the
 * request and what is wrong with its answer, never a TypeError of the reading code.
 */
async function getItems<T extends object>(target: Target, path: string): Promise<T[]> {
  let answer: Awaited<ReturnType<typeof send>>;
  try {
    answer = await send(target, { method: 'GET', path, accept: 'application/json' });
  } catch (error) {
    // An answer, if not one to import: refused as the other bad answers are.
    if (error instanceof AnswerTooLargeError || error instanceof UnusableAnswerError)
      throw new InvalidOptionError(error.message);
    throw error;
  }
  // Hidden whole, before it is cut: a server may quote the path, and with it a key put there.
  const hide = keyHider(target.key);
  const quoted = (text: string) => printable(hide(text).slice(0, 200));
  if (answer.status !== 200)
    throw new InvalidOptionError(`GET ${path} answered ${answer.status}: ${quoted(answer.body)}`);
  // Before JSON.parse, which builds every level (24 MB of `[` took 1.3 GB): verify reads answers
  // so too (check-kit.ts). The service's answers nest a few levels.
  if (jsonDepthExceeds(answer.body, MAX_ANSWER_DEPTH))
    throw new InvalidOptionError(
      `GET ${path} answered JSON nested deeper than ${MAX_ANSWER_DEPTH} levels: ${quoted(answer.body)}`,
    );
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    throw new InvalidOptionError(
      `GET ${path} answered 200 with a body that is not JSON: ${quoted(answer.body)}`,
    );
  }
  if (!Array.isArray(value))
    throw new InvalidOptionError(
      `GET ${path} answered ${described(value)}, not an array: ${quoted(answer.body)}`,
    );
  const bad = value.findIndex(
    (item) => item === null || typeof item !== 'object' || Array.isArray(item),
  );
  if (bad !== -1)
    throw new InvalidOptionError(
      `GET ${path} answered an array whose item ${bad} is ${quoted(described(value[bad]))}, not an object`,
    );
  return value as T[];
}

/**
 * The custom fields with their hidden names told apart again. Two names of the account that held
 * the key in two forms (as is, base64) are one once hidden, and a server's field names are
 * unique: each hidden name that another name already takes gets a number (`[redacted] 2`), cut
 * to the 50 characters a name may have.
 */
function distinctNames<T extends { name: string }>(fields: readonly T[], copies: T[]): T[] {
  const hidden = (index: number) => copies[index]!.name !== fields[index]!.name;
  const taken = new Set(
    copies.filter((_, index) => !hidden(index)).map((copy) => foldCase(String(copy.name))),
  );
  return copies.map((copy, index) => {
    if (!hidden(index) || typeof copy.name !== 'string') return copy;
    let name = copy.name.slice(0, MAX_FIELD_NAME_LENGTH);
    for (let number = 2; taken.has(foldCase(name)); number++) {
      const suffix = ` ${number}`;
      name = `${copy.name.slice(0, MAX_FIELD_NAME_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(foldCase(name));
    return { ...copy, name };
  });
}

/**
 * Reads an account's lists, custom fields and content into a seed, checked by the seed rules.
 * The API cannot list contacts, so the seed has none.
 */
export async function importSeed(options: ImportOptions): Promise<Seed> {
  checkTarget(options);
  // Each item's fields are copied as they came: the seed rules below judge them, naming each.
  const lists = await getItems<{ id: number; name: string }>(options, '/lists');
  const fields = await getItems<{ customFieldNameId: number; name: string }>(
    options,
    '/customfields',
  );
  const content = await getItems<{ id: number; name: string; created: string; updated: string }>(
    options,
    '/content',
  );
  // An account's own data may hold the key (a list named after it, a service echoing it): without
  // --keep-key, the seed must not, whatever the account holds.
  const hide = options.keepKey ? undefined : keyHider(options.key);
  const copied = <T extends object, K extends keyof T>(
    path: string,
    items: readonly T[],
    keys: readonly K[],
  ): Pick<T, K>[] =>
    items.map((item, index) => {
      const copy = {} as Pick<T, K>;
      for (const key of keys) {
        const value = item[key];
        const hidden = hide && typeof value === 'string' ? hide(value) : value;
        if (hidden === value) {
          copy[key] = value;
          continue;
        }
        options.onKeyHidden?.(`GET ${path} item ${index}: ${String(key)}`);
        // In brackets, not the journal's `<redacted>`: a field name may hold no `<` or `>`.
        copy[key] = (hidden as string).replaceAll(REDACTED, KEY_PLACEHOLDER) as T[K];
      }
      return copy;
    });
  const server: ServerSeed = {
    serverId: options.serverId,
    ...(options.keepKey ? { key: options.key } : {}),
    customFields: distinctNames(
      fields,
      copied('/customfields', fields, ['customFieldNameId', 'name']),
    ),
    lists: copied('/lists', lists, ['id', 'name']),
    content: copied('/content', content, ['id', 'name', 'created', 'updated']),
  };
  const seed: Seed = { servers: [server] };
  // The seed rules themselves: an account the fake could not hold is a SeedError here, not later.
  new Store({ defaultMaxContacts: 10_000, now: Date.now }).seed(seed);
  return seed;
}
