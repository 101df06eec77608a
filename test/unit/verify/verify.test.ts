import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../../src/domain/errors.js';
import {
  type CheckResult,
  checkTarget,
  verifyPlan,
  verifyService,
} from '../../../src/verify/verify.js';
import { closeUpstream, listenUpstream } from '../../helpers/upstream.js';

const SERVER_ID = 1234;
const KEY = 'verify-key-1234';
const BASE = 'https://api.example.com/marketing/v1';

const refusal = (judge: () => unknown): string => {
  try {
    judge();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    return (error as Error).message;
  }
  return expect.unreachable();
};

describe('the target verify and import use', () => {
  it.each([
    ['0', 0],
    ['a negative id', -1],
    ['a fraction', 1.5],
    ['a text', '12'],
  ])('refuses %s for a server id', (_what, serverId) => {
    expect(
      refusal(() => checkTarget({ baseUrl: BASE, serverId: serverId as number, key: KEY })),
    ).toBe('serverId must be the server id (the Basic username)');
  });

  it.each([
    ['a query', `${BASE}?apikey=${KEY}`],
    ['a fragment', `${BASE}#${KEY}`],
    ['an empty query', `${BASE}?`],
    ['an empty fragment', `${BASE}#`],
  ])('refuses a base URL with %s, showing its base without the key', (_what, baseUrl) => {
    const message = refusal(() => checkTarget({ baseUrl, serverId: 1, key: KEY }, '--base-url'));
    expect(message).toBe(
      "--base-url must be the API's base alone, without a query or fragment (the API's paths are added after it): give 'https://api.example.com/marketing/v1'.",
    );
    expect(message).not.toContain(KEY);
  });

  it('accepts server id 1', () => {
    expect(() => checkTarget({ baseUrl: BASE, serverId: 1, key: KEY })).not.toThrow();
  });

  it.each([
    ['an empty key', ''],
    ['no key', undefined],
  ])('refuses %s', (_what, key) => {
    expect(refusal(() => checkTarget({ baseUrl: BASE, serverId: 1, key: key as string }))).toBe(
      'key must be the server key (or FMS_VERIFY_KEY for the CLI)',
    );
  });

  it('quotes a base URL that is no URL whole when there is no key to hide', () => {
    expect(
      refusal(() =>
        checkTarget(
          { baseUrl: 'api.example.com', serverId: 1, key: undefined as never },
          '--base-url',
        ),
      ),
    ).toBe(
      "--base-url must be an http(s) URL such as https://host/marketing/v1, got 'api.example.com'",
    );
  });
});

describe('the checks a run makes', () => {
  it('leaves the writing checks out unless asked', () => {
    const plan = verifyPlan();
    expect(plan.length).toBeGreaterThan(10);
    expect(plan.filter((check) => check.writes)).toEqual([]);
    expect(verifyPlan(true).some((check) => check.writes)).toBe(true);
  });

  it('names every unknown id', () => {
    expect(refusal(() => verifyPlan(false, ['lists.json', 'nope', 'nada']))).toBe(
      'unknown check id(s): nope, nada (verify --list shows them)',
    );
  });

  it('names every writing id asked without allowWrites', () => {
    expect(
      refusal(() => verifyPlan(false, ['writes.add-creates', 'lists.json', 'writes.field-create'])),
    ).toBe('writes.add-creates, writes.field-create write(s) to the account: add --allow-writes');
  });
});

describe('the contact maximum a run may reach', () => {
  // Nothing listens on port 1: the run stops at its first request, after the options are judged.
  const target = { baseUrl: 'http://127.0.0.1:1/marketing/v1', serverId: 1, key: KEY, only: [] };

  it('accepts 0 new contacts', async () => {
    const report = await verifyService({ ...target, maxNewContacts: 0 });
    expect(report.couldNotRun?.problem).toMatch(/^cannot reach 127\.0\.0\.1:1/);
  });

  it.each([-1, 1.5])('refuses %s', async (maxNewContacts) => {
    await expect(verifyService({ ...target, maxNewContacts })).rejects.toThrow(
      new InvalidOptionError('maxNewContacts must be a whole number, 0 or more'),
    );
  });
});

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server | undefined;
afterEach(async () => {
  if (server) await closeUpstream(server);
  server = undefined;
});

const LISTS = JSON.stringify([{ id: 1, serverId: SERVER_ID, name: 'News' }]);

/**
 * A service whose first GET /lists (the run's preflight) is a plain list, and whose other answers
 * come from `handler`. The base URL.
 */
async function serve(handler: Handler): Promise<string> {
  let preflight = true;
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (preflight && request.method === 'GET') {
        preflight = false;
        response.writeHead(200, { 'content-type': 'application/json' }).end(LISTS);
        return;
      }
      handler(request, Buffer.concat(chunks).toString(), response);
    });
  });
  return listenUpstream(server);
}

async function runOne(
  id: string,
  handler: Handler,
  options: { key?: string; timeoutMs?: number } = {},
): Promise<{ result: CheckResult; leftBehind: string[] }> {
  const baseUrl = await serve(handler);
  const report = await verifyService({
    baseUrl,
    serverId: SERVER_ID,
    key: options.key ?? KEY,
    allowWrites: true,
    only: [id],
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  expect(report.results).toHaveLength(1);
  return { result: report.results[0]!, leftBehind: report.leftBehind };
}

/**
 * A service adding contacts to list 1: each address gets an id of its own, kept; each answer
 * has the fields `extras(n)` returns for the nth write besides the described ones. Removing
 * a contact from the list answers `removal`.
 */
function contacts(
  extras: (n: number) => Record<string, unknown>,
  removal: (response: ServerResponse) => void = (response) => response.writeHead(200).end(),
): Handler {
  const ids = new Map<string, number>();
  let writes = 0;
  return (request, body, response) => {
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(LISTS);
      return;
    }
    if (request.method === 'DELETE') return removal(response);
    const address = (JSON.parse(body) as { emailAddress: string }).emailAddress;
    if (!ids.has(address)) ids.set(address, ids.size + 10);
    writes += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        serverId: SERVER_ID,
        contactId: ids.get(address),
        listId: 1,
        ...extras(writes),
      }),
    );
  };
}

const tenFields = (prefix: string) =>
  Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`${prefix}${i}`, 1]));
const note = (name: string) =>
  `result: the field ${name}, which the description does not list (accepted)`;

describe("a check's notes", () => {
  // writes.second-contact judges three answers; each has ten fields the description does not list.
  it('shows 20 notes at most, then how many more there were', async () => {
    const { result } = await runOne(
      'writes.second-contact',
      contacts((n) => tenFields(`w${n}_`)),
    );
    expect(result.status).toBe('pass');
    expect(result.notes).toHaveLength(21);
    expect(result.notes.slice(0, 3)).toEqual([note('w2_0'), note('w2_1'), note('w2_2')]);
    expect(result.notes[19]).toBe(note('w3_9'));
    expect(result.notes[20]).toBe('10 more note(s), not shown');
  });

  it('shows a note said twice once', async () => {
    const { result } = await runOne(
      'writes.second-contact',
      contacts(() => tenFields('same')),
    );
    expect(result.notes).toEqual(Array.from({ length: 10 }, (_, i) => note(`same${i}`)));
  });

  it('cuts a note past 300 characters, saying how long it was', async () => {
    const room = 300 - note('').length;
    const exact = 'e'.repeat(room);
    const longer = 'l'.repeat(room + 1);
    const { result } = await runOne(
      'writes.add-creates',
      contacts(() => ({ [exact]: 1, [longer]: 2 })),
    );
    expect(note(exact)).toHaveLength(300);
    expect(result.notes).toEqual([
      note(exact),
      `${note(longer).slice(0, 300)}... (301 characters)`,
    ]);
  });
});

describe('what a check leaves behind', () => {
  const cannotDelete = (address: string, id: number) =>
    `the contact ${address} (id ${id} as the service answered it; contacts cannot be deleted through the API)`;

  it('leaves nothing on a list when taking the contact off succeeds', async () => {
    const { result, leftBehind } = await runOne(
      'writes.add-creates',
      contacts(() => ({})),
    );
    expect(result.status).toBe('pass');
    // Undone in reverse: the second address, added to tell the ids apart, comes first.
    const address = leftBehind[1]!.split(' ')[2]!;
    expect(address).toMatch(/^fms-verify-[0-9a-f]{12}@example\.com$/);
    expect(leftBehind).toEqual([
      cannotDelete(address.replace('@', '-2@'), 11),
      cannotDelete(address, 10),
    ]);
  });

  it.each([
    ['is refused', (response: ServerResponse) => response.writeHead(500).end()],
    ['gets no answer', (response: ServerResponse) => response.socket?.destroy()],
  ])('says the contact stays on the list when taking it off %s', async (_what, removal) => {
    const { result, leftBehind } = await runOne(
      'writes.add-creates',
      contacts(() => ({}), removal),
    );
    expect(result.status).toBe('pass');
    const address = leftBehind[1]!.split(' ')[2]!;
    const second = address.replace('@', '-2@');
    expect(leftBehind).toEqual([
      `the contact ${second} on list 1`,
      `the contact ${address} on list 1`,
      cannotDelete(second, 11),
      cannotDelete(address, 10),
    ]);
  });
});

describe("a check's outcome when the answer is none to judge", () => {
  it('fails on an answer too large to read: it is an answer, not an outage', async () => {
    const { result } = await runOne('lists.json', (_request, _body, response) => {
      response.writeHead(200, { 'content-length': String(64 * 1024 * 1024) });
      response.write('[');
    });
    expect(result.status).toBe('fail');
    expect(result.got).toMatch(/^the answer to GET \/lists is larger than \d+ bytes/);
  });

  it('could not run on a switch to another protocol', async () => {
    const { result } = await runOne('lists.json', (request) => {
      request.socket.write(
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n',
      );
    });
    expect(result.status).toBe('error');
    expect(result.got).toMatch(/^GET \/lists answered 101 \(Switching Protocols\)/);
  });

  it('could not run when the connection is cut, saying so as the preflight would', async () => {
    const { result } = await runOne('lists.json', (request) => {
      request.socket.destroy();
    });
    expect(result.status).toBe('error');
    expect(result.got).toMatch(/^cannot reach 127\.0\.0\.1:\d+: ECONNRESET /);
  });

  it('could not run when no answer comes in time, saying so as the preflight would', async () => {
    const { result } = await runOne('lists.json', () => {}, { timeoutMs: 300 });
    expect(result.status).toBe('error');
    expect(result.got).toMatch(/^cannot reach 127\.0\.0\.1:\d+: no whole answer within 300 ms; /);
  });
});

describe('a short key in a failing answer', () => {
  // A key shorter than the journal's minimum is left in the answers the checks judge, and taken
  // out of the report: its Content-Type as well as its body.
  it('is taken out of the Content-Type and the body the report shows', async () => {
    const { result } = await runOne(
      'lists.json',
      (_request, _body, response) => {
        response.writeHead(500, { 'content-type': 'text/plain; k3y' }).end('refused k3y');
      },
      { key: 'k3y' },
    );
    expect(result.status).toBe('fail');
    expect(result.answer?.status).toBe(500);
    expect(result.answer?.contentType).toMatch(/^text\/plain; /);
    expect(result.answer?.contentType).not.toContain('k3y');
    expect(result.answer?.body).toMatch(/^refused /);
    expect(result.answer?.body).not.toContain('k3y');
  });
});

describe("a run's counts and exit code", () => {
  const answer = (response: ServerResponse, status: number, type: string, body: string) =>
    response.writeHead(status, { 'content-type': type }).end(body);

  /** lists.json passes, lists.xml fails, customfields.json skips, content.json gets no answer. */
  const mixed: Handler = (request, _body, response) => {
    if (request.url?.endsWith('/customfields'))
      return answer(response, 200, 'application/json', '[]');
    if (request.url?.endsWith('/content')) return request.socket.destroy();
    if (request.headers.accept === 'text/xml') return answer(response, 500, 'text/plain', 'down');
    answer(response, 200, 'application/json', LISTS);
  };

  async function run(only: string[], handler: Handler) {
    const baseUrl = await serve(handler);
    return verifyService({ baseUrl, serverId: SERVER_ID, key: KEY, only });
  }

  it('counts each status and exits 1 on drift', async () => {
    const report = await run(
      ['lists.json', 'lists.xml', 'customfields.json', 'content.json'],
      mixed,
    );
    expect(report.results.map((result) => result.status)).toEqual([
      'pass',
      'fail',
      'skipped',
      'error',
    ]);
    expect([report.passed, report.failed, report.skipped, report.errors]).toEqual([1, 1, 1, 1]);
    expect(report.exitCode).toBe(1);
    expect(report.results[1]?.wanted).toBe('status 200');
    expect(report).not.toHaveProperty('couldNotRun');
  });

  it('exits 3 when a check got no answer and none drifted', async () => {
    const report = await run(['lists.json', 'customfields.json', 'content.json'], mixed);
    expect([report.passed, report.failed, report.skipped, report.errors]).toEqual([1, 0, 1, 1]);
    expect(report.exitCode).toBe(3);
  });

  it('exits 0 when every check passed or skipped, naming the target', async () => {
    const report = await run(['lists.json', 'customfields.json'], mixed);
    expect([report.passed, report.failed, report.skipped, report.errors]).toEqual([1, 0, 1, 0]);
    expect(report.exitCode).toBe(0);
    expect(report.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/marketing\/v1$/);
    expect(report.serverId).toBe(SERVER_ID);
  });

  it('exits 3 with no results when nothing could be judged', async () => {
    const report = await verifyService({
      baseUrl: 'http://127.0.0.1:1/marketing/v1',
      serverId: 1,
      key: KEY,
    });
    expect(report.results).toEqual([]);
    expect(report.exitCode).toBe(3);
    expect(report.couldNotRun?.fix).toBe(
      'check --base-url (scheme, host, port) and that the service is up',
    );
  });

  it('skips the contact maximum when no new contacts are allowed', async () => {
    const { result } = await runOne(
      'writes.contact-cap',
      contacts(() => ({})),
    );
    expect(result.status).toBe('skipped');
    expect(result.got).toMatch(/^the maximum is not given \(8\)/);
  });
});

describe('the fields on the account before a writing run', () => {
  /**
   * A service that gives a new field FirstName's id 1, in its create answer and in its list, and
   * then lists the new field alone: only what the account held before the run shows id 1 is not
   * verify's. `reads` counts the lists asked for; `deleted` the ids deleted.
   */
  function givesFirstNamesId() {
    const state = { created: undefined as string | undefined, reads: 0, deleted: [] as string[] };
    const handler: Handler = (request, _body, response) => {
      const json = (status: number, value: unknown) =>
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify(value));
      const path = request.url ?? '';
      if (request.method === 'GET' && path.endsWith('/customfields')) {
        state.reads += 1;
        return json(
          200,
          state.created === undefined
            ? [{ name: 'FirstName', customFieldNameId: 1 }]
            : [{ name: state.created, customFieldNameId: 1 }],
        );
      }
      if (request.method === 'POST') {
        state.created = decodeURIComponent(path.split('/').pop() ?? '');
        return json(200, { name: state.created, customFieldNameId: 1 });
      }
      if (request.method === 'DELETE') {
        state.deleted.push(path);
        return json(200, {});
      }
      json(404, { message: 'no' });
    };
    return { state, handler };
  }

  it('are read once, and a field among them is never deleted, whatever id the list gives', async () => {
    const { state, handler } = givesFirstNamesId();
    const { result, leftBehind } = await runOne('writes.field-create', handler);
    expect(state.deleted).toEqual([]);
    expect(result.id).toBe('writes.field-create');
    expect(leftBehind).toEqual([
      expect.stringMatching(/^the custom field FmsVerify[0-9a-f]{12}C \(id 1\)$/),
    ]);
    // Once before the run, then the check's own reads and the undo's.
    expect(state.reads).toBeGreaterThanOrEqual(2);
  });

  it('are read before a run that mixes reading and writing checks, whichever comes first', async () => {
    const { state, handler } = givesFirstNamesId();
    const baseUrl = await serve(handler);
    const report = await verifyService({
      baseUrl,
      serverId: SERVER_ID,
      key: KEY,
      allowWrites: true,
      only: ['customfields.json', 'writes.field-create'],
    });
    expect(report.results.map((result) => result.id)).toEqual([
      'customfields.json',
      'writes.field-create',
    ]);
    expect(state.deleted).toEqual([]);
  });

  it('lets verify delete its own field, one the account did not hold, by the id listed under its name', async () => {
    let created: string | undefined;
    const deleted: string[] = [];
    const { result, leftBehind } = await runOne(
      'writes.field-create',
      (request, _body, response) => {
        const json = (status: number, value: unknown) =>
          response
            .writeHead(status, { 'content-type': 'application/json' })
            .end(JSON.stringify(value));
        const path = request.url ?? '';
        if (request.method === 'GET' && path.endsWith('/customfields'))
          return json(200, [
            { name: 'FirstName', customFieldNameId: 1 },
            ...(created === undefined ? [] : [{ name: created, customFieldNameId: 21 }]),
          ]);
        if (request.method === 'POST') {
          created = decodeURIComponent(path.split('/').pop() ?? '');
          return json(200, { name: created, customFieldNameId: 21 });
        }
        if (request.method === 'DELETE') {
          deleted.push(path);
          created = undefined;
          return json(200, {});
        }
        json(404, { message: 'no' });
      },
    );
    expect(result.id).toBe('writes.field-create');
    expect(deleted).toEqual(['/marketing/v1/customfields/21']);
    expect(leftBehind).toEqual([]);
  });

  it('are not read by a run that writes nothing', async () => {
    const { state, handler } = givesFirstNamesId();
    await runOne('customfields.json', handler);
    expect(state.reads).toBe(1);
  });
});
