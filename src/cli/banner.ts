import type { Credentials } from '../domain/store.js';
import { isLoopbackHost } from '../listen.js';

export interface BannerFacts {
  readonly version: string;
  readonly baseUrl: string;
  readonly url: string;
  /** The address given to listen (`--host`). */
  readonly host: string;
  readonly port: number;
  /** The address clients use (`--public-url`), when the listen address is not it. */
  readonly publicUrl?: string | undefined;
  readonly caFile: string | undefined;
  readonly adminToken: boolean;
  readonly localControlOnly?: boolean;
  readonly servers: readonly Credentials[];
  readonly stateFile?: string | undefined;
}

const API_PATH = '/marketing/v1';

/**
 * The startup block: everything a person or a script needs to start calling the sandbox, with
 * addresses that work from where they stand. On loopback it shows the keys (only this machine can
 * use them); beyond loopback it does not, since its output lands in container and CI logs that
 * others read, and it says where the keys are instead.
 */
export function banner(facts: BannerFacts): string {
  const local = isLoopbackHost(facts.host);
  const url = facts.publicUrl ?? facts.url;
  const baseUrl = facts.publicUrl === undefined ? facts.baseUrl : `${facts.publicUrl}${API_PATH}`;
  const lines = [`fake-marketing-server ${facts.version} is listening`, ''];
  if (!local) lines.push(`  Listening    ${listenAddress(facts.host, facts.port)}`);
  lines.push(`  Base URL     ${baseUrl}`);
  if (!local && facts.publicUrl === undefined) {
    lines.push(
      '               (from this machine; from elsewhere use its address, and from the host of a',
      `               container the port Docker publishes, e.g. -p ${facts.port}:${facts.port} gives`,
      `               ${facts.url.replace('127.0.0.1', 'localhost')}${API_PATH}; --public-url or`,
      '               FMS_PUBLIC_URL prints the address your clients use)',
    );
  }
  if (facts.caFile) {
    lines.push(
      `  CA file      ${facts.caFile}${local ? '' : `  (also served at ${url}/__admin/ca.pem)`}`,
    );
  }
  if (facts.stateFile)
    lines.push(`  State file   ${facts.stateFile}  (saved on exit and on POST /__admin/save)`);
  lines.push(`  Control API  ${url}/__admin${controlNote(facts)}`);
  lines.push('');
  const first = facts.servers[0];
  if (!first) {
    lines.push('  No servers yet: add one with', `  curl -X POST ${url}/__admin/servers`);
  } else if (local) {
    const width = Math.max(...facts.servers.map((server) => String(server.serverId).length));
    for (const { serverId, key } of facts.servers) {
      lines.push(`  Server ${String(serverId).padEnd(width)}  key ${key}`);
    }
  } else {
    lines.push(
      `  Servers      ${facts.servers.map((server) => server.serverId).join(', ')}`,
      '  Keys         not printed: this address is reachable from the network and logs are',
      `               shared. They are in your seed, or GET ${url}/__admin/state${facts.adminToken ? ' with the token' : ''}`,
    );
  }
  if (first) {
    const trust = facts.caFile ? ` --cacert ${quote(facts.caFile)}` : '';
    const key = local ? first.key : '<key>';
    lines.push(
      '',
      '  Try:',
      `  curl${trust} -u ${quote(`${first.serverId}:${key}`)} ${baseUrl}/lists`,
    );
  }
  lines.push('', 'Press Ctrl+C to stop.');
  return lines.join('\n');
}

function listenAddress(host: string, port: number): string {
  const every = host === '0.0.0.0' || host === '::';
  const shown = host.includes(':') ? `[${host}]` : host;
  return `${shown}:${port}${every ? ' (every interface)' : ''}`;
}

function controlNote(facts: BannerFacts): string {
  if (facts.adminToken) return '  (Authorization: Bearer <admin token>)';
  if (facts.localControlOnly)
    return '  (only over loopback: set an admin token to use it from elsewhere)';
  return '';
}

/** Quotes a shell word only when it needs it. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
