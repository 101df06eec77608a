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

  allows(hostname: string): boolean {
    const folded = hostname.toLowerCase().replace(/\.$/, '');
    if (isIP(folded) !== 0 || folded === 'localhost' || folded.endsWith('.localhost')) return true;
    return this.names.has(folded) || this.suffixes.some((suffix) => folded.endsWith(suffix));
  }
}
