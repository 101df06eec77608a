import { AnswerTooLargeError } from '../answer-limit.js';
import { InvalidOptionError } from '../domain/errors.js';
import type { Seed, ServerSeed } from '../domain/seed-types.js';
import { Store } from '../domain/store.js';
import { send, type Target, UnusableAnswerError } from './http-client.js';
import { checkTarget, keyHider } from './verify.js';

/** Options of {@link importSeed}. */
export interface ImportOptions extends Target {
  /** Write the key into the seed too; default false: keys stay out of files unless asked. */
  keepKey?: boolean;
}

async function getJson<T>(target: Target, path: string): Promise<T> {
  let answer: Awaited<ReturnType<typeof send>>;
  try {
    answer = await send(target, { method: 'GET', path, accept: 'application/json' });
  } catch (error) {
    // An answer, if not one to import: refused as the other bad answers are.
    if (error instanceof AnswerTooLargeError || error instanceof UnusableAnswerError)
      throw new InvalidOptionError(error.message);
    throw error;
  }
  if (answer.status !== 200) {
    // Hidden whole, before it is cut: a server may quote the path, and with it a key put there.
    const body = keyHider(target.key)(answer.body);
    throw new InvalidOptionError(`GET ${path} answered ${answer.status}: ${body.slice(0, 200)}`);
  }
  return JSON.parse(answer.body) as T;
}

/**
 * Reads an account's lists, custom fields and content into a seed, checked by the seed rules.
 * The API cannot list contacts, so the seed has none.
 */
export async function importSeed(options: ImportOptions): Promise<Seed> {
  checkTarget(options);
  const lists = await getJson<{ id: number; name: string }[]>(options, '/lists');
  const fields = await getJson<{ customFieldNameId: number; name: string }[]>(
    options,
    '/customfields',
  );
  const content = await getJson<{ id: number; name: string; created: string; updated: string }[]>(
    options,
    '/content',
  );
  const server: ServerSeed = {
    serverId: options.serverId,
    ...(options.keepKey ? { key: options.key } : {}),
    customFields: fields.map(({ customFieldNameId, name }) => ({ customFieldNameId, name })),
    lists: lists.map(({ id, name }) => ({ id, name })),
    content: content.map(({ id, name, created, updated }) => ({ id, name, created, updated })),
  };
  const seed: Seed = { servers: [server] };
  // The seed rules themselves: an account the fake could not hold is a SeedError here, not later.
  new Store({ defaultMaxContacts: 10_000, now: Date.now }).seed(seed);
  return seed;
}
