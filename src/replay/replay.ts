import { SeedError } from '../domain/errors.js';
import type { Seed, ServerSeed } from '../domain/seed-types.js';
import { loadSeed } from '../files.js';
import { LearnedSecrets } from '../record/learned-secrets.js';
import { secretHider } from '../redaction/hide-secrets.js';
import { createFakeMarketingServer, type FakeMarketingServer } from '../server.js';
import { UnreadableBodyError } from './body.js';
import { compareAnswers } from './compare.js';
import {
  type HarExchanges,
  HarInputError,
  type RecordedExchange,
  readHarExchanges,
} from './har-input.js';
import { IdMaps } from './ids.js';
import { inferServers, type ServerFacts } from './infer-seed.js';
import { type Operation, operationOf, pathForFake, serverIdOf } from './operations.js';

/** Options of {@link replayHar}. */
export interface ReplayOptions {
  /**
   * The starting state (a seed object or a seed file path). Without it, the state is inferred from
   * the recording: lists, fields and content from the answers that show them, contacts from the
   * add answers. Either way, each recorded server id gets a key the replay knows.
   */
  seed?: Seed | string;
}

/** What replay found for one recorded exchange. */
export interface ExchangeResult {
  /** The entry's index in the HAR's `log.entries`, from 0. */
  readonly index: number;
  readonly method: string;
  /** As recorded, from `/marketing/...`, with the query string. */
  readonly path: string;
  readonly outcome: 'match' | 'drift' | 'not comparable';
  /** For a drift: one line per difference, recorded against the fake's. */
  readonly differences: readonly string[];
  /** For "not comparable": why the recorded answer cannot be judged. */
  readonly reason?: string;
  /**
   * What replay sent differently from the recording, and why: an id it substituted for one the
   * recording never paired, a wrong key for a request the service refused with 401.
   */
  readonly notes?: readonly string[];
}

/** The result of a replay: one result per API exchange, in the recording's order. */
export interface ReplayReport {
  /** Entries in the HAR, API or not. */
  readonly entries: number;
  /** Entries outside the API (pages, scripts, the control API), not replayed. */
  readonly ignored: number;
  readonly startingState: 'seed' | 'inferred';
  readonly results: readonly ExchangeResult[];
  readonly matched: number;
  readonly drifted: number;
  readonly notComparable: number;
}

/** The replay could not start the fake on the state it was given or inferred (exit 3). */
export class ReplayCannotRunError extends Error {
  override name = 'ReplayCannotRunError';
}

const keyOf = (serverId: number) => `replay-key-${serverId}`;
const WRONG_KEY = 'replay-wrong-key';
/** How many exchanges replay sends between two turns of the event loop. */
const YIELD_EVERY = 64;
// Answers that say the service did not handle the request at all: not replayed.
const UNAVAILABLE = new Set([502, 503, 504]);

/**
 * Replays the API requests of a HAR 1.2 recording, in order, against a fresh in-process fake and
 * compares each answer with the recorded one: status, Content-Type, body (JSON by deep equality,
 * XML by elements and their order), with the documented normalisation (assigned ids paired by
 * first appearance, timestamps and thumbnail URLs by format). Accepts the HAR as text or as a
 * parsed object. Throws HarInputError for a HAR it cannot use (not JSON, not HAR 1.2, no API
 * entries; the message names the entry index), SeedError for a bad `seed`, and
 * ReplayCannotRunError when the fake cannot start.
 */
export async function replayHar(
  har: string | object,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  let read: HarExchanges;
  try {
    read = readHarExchanges(typeof har === 'string' ? har : JSON.stringify(har));
  } catch (error) {
    // A malformed entry is named with what it holds (its URL): a key there is hidden too.
    if (error instanceof HarInputError) throw scrubbed(error, keysHider(error.credentials));
    throw error;
  }
  const hide = keysHider(read.credentials);
  try {
    return await replayExchanges(read, options, hide);
  } catch (error) {
    // Whatever went wrong, the message (and the stack "could not run" prints) shows no key.
    throw scrubbed(error, hide);
  }
}

async function replayExchanges(
  { exchanges, entries, ignored }: HarExchanges,
  options: ReplayOptions,
  hide: (text: string) => string,
): Promise<ReplayReport> {
  const serverIds = new Set(exchanges.map(serverIdOf).filter((id) => id !== undefined));
  const inferred = options.seed === undefined ? inferServers(exchanges) : undefined;
  const seed: { servers: ServerSeed[] } = inferred
    ? { servers: [...serverIds].map((serverId) => ({ serverId, ...inferred.get(serverId)?.seed })) }
    : givenSeed(options.seed as Seed | string, serverIds);
  for (const server of seed.servers) server.key = keyOf(server.serverId);
  let fake: FakeMarketingServer;
  try {
    fake = await createFakeMarketingServer({ seed, journalSize: 0 });
  } catch (error) {
    if (inferred && error instanceof SeedError)
      throw new ReplayCannotRunError(
        `the starting state inferred from the recording is not a valid seed (${error.message}); give one with --seed.`,
      );
    throw error;
  }
  try {
    const ids = new Map<number, IdMaps>();
    // Ids that are the same on both sides: every id of a given seed (it is the service's state),
    // but of an inferred one only those the recording showed (a contact seeded from its address
    // alone gets an id from the fake, paired when an answer first shows the service's).
    for (const server of (inferred ? seed : fake.exportState()).servers) {
      const maps = new IdMaps();
      maps.keep(
        'contact',
        (server.contacts ?? []).flatMap((contact) => contact.contactId ?? []),
      );
      maps.keep(
        'field',
        (server.customFields ?? []).flatMap((field) => field.customFieldNameId ?? []),
      );
      ids.set(server.serverId, maps);
    }
    const shared = new IdMaps();
    const results: ExchangeResult[] = [];
    for (const exchange of exchanges) {
      const serverId = serverIdOf(exchange);
      const maps = (serverId === undefined ? undefined : ids.get(serverId)) ?? shared;
      const facts = serverId === undefined ? undefined : inferred?.get(serverId);
      const result = await replayOne(fake, exchange, maps, {
        inferred: inferred !== undefined,
        facts,
        hide,
      });
      results.push(withoutKeys(result, hide));
      // An injected request settles without leaving the microtask queue, and each one leaves an
      // immediate (holding its request, answer and mock socket, ~10 KB) that only runs once the
      // loop yields: without this, a 50 000-entry HAR held all of them at once (0.5 GB).
      if (results.length % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const count = (outcome: ExchangeResult['outcome']) =>
      results.filter((result) => result.outcome === outcome).length;
    return {
      entries,
      ignored,
      startingState: inferred ? 'inferred' : 'seed',
      results,
      matched: count('match'),
      drifted: count('drift'),
      notComparable: count('not comparable'),
    };
  } finally {
    await fake.close();
  }
}

/**
 * A HAR from a browser or Playwright holds the keys in clear in `Authorization`, and a client may
 * have put one in a path, a query or a body too: the report takes out every key the recording's
 * credentials show (every credential header of every entry, API or not), in every form, by the
 * recorder's own means (learned from the credentials, redacted as the journal redacts).
 */
function keysHider(credentials: readonly string[]): (text: string) => string {
  try {
    const learned = new LearnedSecrets();
    learned.learn({ authorization: [...credentials] });
    return secretHider(learned.secrets());
  } catch (error) {
    // Never its message: what failed was built of the keys.
    throw new ReplayCannotRunError(
      `could not prepare the hiding of the recording's keys from the report (${(error as Error).name})`,
    );
  }
}

/** `error` with the recording's keys taken out of its message and of its stack. */
function scrubbed(error: unknown, hide: (text: string) => string): Error {
  if (!(error instanceof Error)) return new Error(hide(String(error)));
  error.message = hide(error.message);
  if (typeof error.stack === 'string') error.stack = hide(error.stack);
  return error;
}

function withoutKeys(result: ExchangeResult, hide: (text: string) => string): ExchangeResult {
  return {
    ...result,
    path: hide(result.path),
    differences: result.differences.map(hide),
    ...(result.reason === undefined ? {} : { reason: hide(result.reason) }),
    ...(result.notes === undefined ? {} : { notes: result.notes.map(hide) }),
  };
}

function givenSeed(seed: Seed | string, serverIds: Set<number>): { servers: ServerSeed[] } {
  const loaded = structuredClone(loadSeed(seed)) as Partial<Seed>;
  if (typeof loaded !== 'object' || loaded === null || !Array.isArray(loaded.servers))
    throw new SeedError('servers', 'a seed needs a "servers" array');
  const servers = loaded.servers;
  const seeded = new Set(servers.map((server) => server.serverId));
  for (const serverId of serverIds) if (!seeded.has(serverId)) servers.push({ serverId });
  return { servers };
}

interface Knowledge {
  readonly inferred: boolean;
  /** What the recording shows of the server's state (inferred state only). */
  readonly facts: ServerFacts | undefined;
  /** Takes the recording's keys out of what the report shows. */
  readonly hide: (text: string) => string;
}

async function replayOne(
  fake: FakeMarketingServer,
  exchange: RecordedExchange,
  ids: IdMaps,
  knowledge: Knowledge,
): Promise<ExchangeResult> {
  const base = {
    index: exchange.index,
    method: exchange.method,
    path: `/marketing/${exchange.version}${exchange.path}${exchange.search}`,
    differences: [],
  };
  const notSent = unsentReason(exchange);
  if (notSent) return { ...base, outcome: 'not comparable', reason: notSent };
  const operation = operationOf(exchange);
  ids.takeSubstitutions();
  const path = pathForFake(exchange, operation, ids);
  const notes = ids.takeSubstitutions();
  if (exchange.response.status === 401 && exchange.headers.authorization !== undefined) {
    notes.push(
      'sent with a wrong key: the recording was answered 401, and a HAR holds no key to tell a wrong one from a right one',
    );
  }
  const noted = notes.length > 0 ? { notes } : {};
  const answer = await fake.inject({
    method: exchange.method as 'GET',
    url: `/marketing/${exchange.version}${path}${exchange.search}`,
    headers: requestHeaders(exchange),
    ...(exchange.body === undefined ? {} : { payload: exchange.body }),
  });
  const unseen = unseenState(exchange, operation, knowledge);
  if (unseen) return { ...base, ...noted, outcome: 'not comparable', reason: unseen };
  let differences: string[];
  try {
    differences = compareAnswers(
      exchange.response,
      {
        status: answer.statusCode,
        contentType: String(answer.headers['content-type'] ?? ''),
        body: answer.statusCode >= 400 ? withRecordedIds(answer.body, operation, ids) : answer.body,
      },
      ids,
      knowledge.hide,
      { exactDates: !knowledge.inferred },
    );
  } catch (error) {
    // One body no reader can walk is that exchange's matter, not the whole HAR's.
    if (!(error instanceof UnreadableBodyError)) throw error;
    return { ...base, ...noted, outcome: 'not comparable', reason: error.message };
  }
  return differences.length === 0
    ? { ...base, ...noted, outcome: 'match' }
    : { ...base, ...noted, outcome: 'drift', differences };
}

/**
 * An error message quotes the id it was sent ("Contact 7 does not exist."): the id in the path
 * as the recording has it, so that the message compares like for like.
 */
function withRecordedIds(body: string, operation: Operation, ids: IdMaps): string {
  const pairs: [number, number][] = [];
  if ('contactId' in operation)
    pairs.push([ids.toFake('contact', operation.contactId), operation.contactId]);
  if ('fieldId' in operation)
    pairs.push([ids.toFake('field', operation.fieldId), operation.fieldId]);
  let text = body;
  for (const [sent, recorded] of pairs) {
    if (sent !== recorded) text = text.replace(new RegExp(`\\b${sent}\\b`, 'g'), String(recorded));
  }
  return text;
}

/** Why an exchange is not sent at all: it never reached the service, or failed inside it. */
function unsentReason(exchange: RecordedExchange): string | undefined {
  if (exchange.noAnswerReason) return exchange.noAnswerReason;
  if (exchange.bodyTruncated)
    return 'the recorded request body is cut off: replaying it would send something else';
  const { status } = exchange.response;
  if (UNAVAILABLE.has(status))
    return `the service answered ${status} (unavailable or a gateway's failure): it did not handle the request, and the fake emulates that only as a fault`;
  return undefined;
}

/** Why a recorded answer depends on state the recording never showed (inferred state only). */
function unseenState(
  exchange: RecordedExchange,
  operation: Operation,
  knowledge: Knowledge,
): string | undefined {
  const { status, body, truncated, unreadable } = exchange.response;
  if (unreadable) return unreadable;
  if (truncated) return 'the recorded answer body is cut off';
  const { facts } = knowledge;
  if (!knowledge.inferred || !facts) return undefined;
  if (operation.name === 'addByEmail' && status === 403)
    return "the recording does not show the server's contact cap (give --seed with maxContacts)";
  if (
    operation.name === 'createField' &&
    status === 409 &&
    /maximum number/i.test(body ?? '') &&
    !facts.fieldsShown
  )
    return "the recording never lists the server's custom fields, so how many it had is unknown";
  // Which error a request to an unknown list gets first (404 for the list, 400 for the address)
  // is the implementation's order: any error there depends on whether the list exists.
  if (
    'listId' in operation &&
    status >= 400 &&
    !facts.listsShown &&
    !facts.knownLists.has(operation.listId)
  )
    return `the recording never lists the server's lists, so whether list ${operation.listId} existed is unknown`;
  return undefined;
}

function requestHeaders(exchange: RecordedExchange): Record<string, string> {
  const headers: Record<string, string> = {};
  const { accept, authorization } = exchange.headers;
  const contentType = exchange.headers['content-type'];
  if (accept !== undefined) headers.accept = accept;
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (authorization !== undefined) {
    const serverId = serverIdOf(exchange);
    // The recording never holds the key: whether it was right shows only in the answer.
    const key =
      exchange.response.status === 401
        ? WRONG_KEY
        : serverId === undefined
          ? undefined
          : keyOf(serverId);
    headers.authorization =
      key === undefined
        ? authorization
        : `Basic ${Buffer.from(`${serverId}:${key}`).toString('base64')}`;
  }
  return headers;
}
