import type { Headers } from '../control/journal.js';
import type { SecretSource } from '../control/redact.js';
import { parseServerId } from '../domain/rules.js';

/**
 * The keys a recorder has seen go by. A recording proxy stands in front of a service whose keys
 * it is never told, so it learns them from the traffic: the key half of every Basic
 * `Authorization` header (both halves when the first is not a server id: a client that swapped
 * them). The journal's redactor then takes each one out wherever it appears, in this exchange and
 * every later one: another header, the query string, either body.
 */
export class LearnedSecrets implements SecretSource {
  private readonly known = new Set<string>();
  private changes = 0;

  /** `known`: secrets to redact before any request taught them. */
  constructor(known: Iterable<string> = []) {
    for (const secret of known) this.add(secret);
  }

  /** Learns the secrets of one request's credential headers; call it before redacting it. */
  learn(headers: Headers): void {
    for (const name of ['authorization', 'proxy-authorization']) {
      const value = headers[name];
      for (const one of Array.isArray(value) ? value : [value]) {
        if (typeof one === 'string') this.learnCredentials(one);
      }
    }
  }

  revision(): number {
    return this.changes;
  }

  secrets(): Iterable<string> {
    return this.known;
  }

  private learnCredentials(value: string): void {
    const space = value.indexOf(' ');
    if (space === -1) return;
    const token = value.slice(space + 1).trim();
    if (value.slice(0, space).toLowerCase() !== 'basic') {
      this.add(token);
      return;
    }
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) {
      this.add(decoded);
      return;
    }
    const username = decoded.slice(0, colon);
    if (parseServerId(username) === undefined) this.add(username);
    this.add(decoded.slice(colon + 1));
  }

  private add(secret: string): void {
    if (secret.length === 0 || this.known.has(secret)) return;
    this.known.add(secret);
    this.changes += 1;
  }
}
