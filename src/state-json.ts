import { randomUUID } from 'node:crypto';
import type { Seed, ServerSeed } from './domain/seed-types.js';

/**
 * The whole state as JSON text, in pieces: exactly `JSON.stringify(state)` (or, `pretty`, with
 * two spaces as `JSON.stringify(state, null, 2)`), one server and one contact at a time. A state
 * past V8's longest string (about 512 MiB: 540 contacts with 1 MiB values) cannot be one string;
 * in pieces it goes to a socket or a file whatever its size, no piece longer than one contact.
 */
export function* stateJson(state: Seed, pretty = false): Generator<string> {
  const { servers } = state;
  if (servers.length === 0) {
    yield pretty ? '{\n  "servers": []\n}' : '{"servers":[]}';
    return;
  }
  yield pretty ? '{\n  "servers": [\n' : '{"servers":[';
  for (const [index, server] of servers.entries()) {
    if (index > 0) yield pretty ? ',\n' : ',';
    yield* serverJson(server, pretty);
  }
  yield pretty ? '\n  ]\n}' : ']}';
}

function* serverJson(server: ServerSeed, pretty: boolean): Generator<string> {
  // What the server is written with in place of its contacts, which then follow one by one: no
  // name or value can be it by chance.
  const MARK = `\u0000contacts-${randomUUID()}\u0000`;
  const contacts = server.contacts ?? [];
  if (contacts.length === 0 || !('contacts' in server)) {
    yield pretty ? indent(JSON.stringify(server, null, 2), 4) : JSON.stringify(server);
    return;
  }
  const shell = pretty
    ? indent(JSON.stringify({ ...server, contacts: MARK }, null, 2), 4)
    : JSON.stringify({ ...server, contacts: MARK });
  const quoted = JSON.stringify(MARK);
  const at = shell.indexOf(quoted);
  yield `${shell.slice(0, at)}${pretty ? '[\n' : '['}`;
  for (const [index, contact] of contacts.entries()) {
    if (index > 0) yield pretty ? ',\n' : ',';
    yield pretty ? indent(JSON.stringify(contact, null, 2), 8) : JSON.stringify(contact);
  }
  yield `${pretty ? `\n${' '.repeat(6)}]` : ']'}${shell.slice(at + quoted.length)}`;
}

/** Every line of `text` indented by `spaces`. */
function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return pad + text.replaceAll('\n', `\n${pad}`);
}
