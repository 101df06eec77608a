import { isIP } from 'node:net';

const HOST_NAME = /^[\w.:-]+$/;

/** A host name or an IP address, as certificates and Host headers carry them. */
export function isHostName(name: unknown): name is string {
  return typeof name === 'string' && HOST_NAME.test(name);
}

/** An allow-list entry: a host name, or a leading dot for every name under one (`.internal`). */
export function isHostPattern(name: unknown): name is string {
  return typeof name === 'string' && isHostName(name.replace(/^\./, ''));
}

/**
 * The names a request's Host may carry on the control API; IP addresses, `localhost` and names
 * under `.localhost` always may. A DNS-rebinding page reaches 127.0.0.1 under a name of its own
 * (evil.example), and that name is what this refuses.
 */
export class HostAllowList {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];

  constructor(allowed: readonly string[]) {
    for (const name of allowed) this.add(name);
  }

  /** A name (`sandbox.internal`), or a leading dot for every name under it (`.internal`). */
  add(name: string): void {
    const folded = name.toLowerCase().replace(/\.$/, '');
    if (folded.startsWith('.')) this.suffixes.push(folded);
    else this.names.add(folded);
  }

  /**
   * Whether a request's `Host` header (`name`, `name:port`, `[v6]:port`) may reach the control
   * API. Anything that is not one host and an optional port (`127.0.0.1:80, evil.example`, a
   * space, a path, an empty value) is refused: two readers of such a value can find two hosts
   * in it. An IP address is taken only in its own form: `127.0.0.1.` is a name, not an address.
   */
  allowsHost(host: string): boolean {
    const hostname = hostnameOf(host);
    return hostname !== undefined && this.allows(hostname);
  }

  allows(hostname: string): boolean {
    if (isIP(hostname) !== 0) return true;
    const folded = hostname.toLowerCase().replace(/\.$/, '');
    // A trailing dot makes a name absolute; on an address it is no canonical form of anything.
    if (isIP(folded) !== 0) return false;
    if (folded === 'localhost' || folded.endsWith('.localhost')) return true;
    return this.names.has(folded) || this.suffixes.some((suffix) => folded.endsWith(suffix));
  }
}

/** `host [ ":" port ]` of RFC 9110 (7.2), for DNS names, IPv4 and bracketed IPv6 addresses. */
const HOST_HEADER =
  /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_.])?))(?::[0-9]{0,5})?$/;

/** A last label a URL parser reads as a number: the name is then an IPv4 address to it. */
const NUMERIC_LABEL = /(?:^|\.)(?:[0-9]+|0[xX][0-9A-Fa-f]*)\.?$/;

/**
 * The host name of a `Host` header value; undefined when it is not one host and a port. A name
 * that ends in a number must be an IPv4 address in its own dotted form: `256.1.1.1`, `1.2.3.4.5`
 * or `a.1` are no host a URL can hold (the URL parser refuses them), and `127.1` or `0x7f.0.0.1`
 * one it would rewrite.
 */
export function hostnameOf(host: string): string | undefined {
  const match = HOST_HEADER.exec(host);
  if (!match) return undefined;
  if (match[1] !== undefined) return isIP(match[1]) === 6 ? match[1] : undefined;
  const name = match[2]!;
  return NUMERIC_LABEL.test(name) && isIP(name) !== 4 ? undefined : name;
}

/**
 * How many Host fields a request's raw headers hold. Node keeps the first; a second one is an
 * ambiguity a proxy in front may read the other way (RFC 9112 3.2: answered 400).
 */
export function hostFieldCount(rawHeaders: readonly string[]): number {
  let hosts = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!;
    if (name.length === 4 && name.toLowerCase() === 'host') hosts += 1;
  }
  return hosts;
}
