import { parseServerId } from '../domain/rules.js';
import type { Headers } from '../journal/journal-entry.js';
import type { SecretSource } from '../redaction/redact.js';

/**
 * The keys a recorder has seen go by. A recording proxy stands in front of a service whose keys
 * it is never told, so it learns them from the traffic: the key half of every Basic
 * `Authorization` header (both halves when the first is not a server id: a client that swapped
 * them), read as leniently as a server reads them. The journal's redactor then takes each one
 * out wherever it appears, in this exchange and every later one: another header, the query
 * string, either body.
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

  /**
   * Read leniently, as a server would take them: any whitespace around and between the scheme and
   * the credentials. Besides the whole token of another scheme, each `name=value` parameter's
   * value (`Token token=KEY`). A Basic secret that is not UTF-8 is taken as Latin-1 bytes.
   */
  private learnCredentials(value: string): void {
    const match = /^\s*(\S+)\s+([\s\S]*?)\s*$/.exec(value);
    if (!match) return;
    const [, scheme, token] = match as unknown as [string, string, string];
    if (scheme.toLowerCase() !== 'basic') {
      this.add(token);
      for (const param of token.matchAll(
        /(?:^|[\s,])[!#$%&'*+.^_`|~\w-]+\s*=\s*("[^"]*"|[^\s,]+)/g,
      ))
        this.add(param[1]!.replace(/^"|"$/g, ''));
      return;
    }
    const base64 = token.replace(/\s+/g, '');
    // The credentials as sent, too: an echo of them is found even when the key's bytes are not
    // UTF-8 (the redactor looks for a key's UTF-8 bytes inside base64).
    this.add(base64);
    const bytes = Buffer.from(base64, 'base64');
    let decoded = bytes.toString('utf8');
    if (decoded.includes('\uFFFD')) decoded = bytes.toString('latin1');
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
