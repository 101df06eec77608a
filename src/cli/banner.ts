import type { Credentials } from '../domain/store.js';

export interface BannerFacts {
  readonly version: string;
  readonly baseUrl: string;
  readonly url: string;
  readonly caFile: string | undefined;
  readonly adminToken: boolean;
  readonly servers: readonly Credentials[];
  readonly stateFile?: string | undefined;
}

/** The startup block: everything a person or a script needs to start calling the sandbox. */
export function banner(facts: BannerFacts): string {
  const lines = [
    `fake-marketing-server ${facts.version} is listening`,
    '',
    `  Base URL     ${facts.baseUrl}`,
  ];
  if (facts.caFile) lines.push(`  CA file      ${facts.caFile}`);
  if (facts.stateFile)
    lines.push(`  State file   ${facts.stateFile}  (saved on exit and on POST /__admin/save)`);
  lines.push(
    `  Control API  ${facts.url}/__admin${facts.adminToken ? '  (Authorization: Bearer <admin token>)' : ''}`,
  );
  lines.push('');
  const width = Math.max(...facts.servers.map((server) => String(server.serverId).length), 0);
  for (const { serverId, key } of facts.servers) {
    lines.push(`  Server ${String(serverId).padEnd(width)}  key ${key}`);
  }
  const first = facts.servers[0];
  if (first) {
    const trust = facts.caFile ? ` --cacert ${quote(facts.caFile)}` : '';
    lines.push(
      '',
      '  Try:',
      `  curl${trust} -u ${quote(`${first.serverId}:${first.key}`)} ${facts.baseUrl}/lists`,
    );
  } else {
    lines.push('  No servers yet: add one with', `  curl -X POST ${facts.url}/__admin/servers`);
  }
  lines.push('', 'Press Ctrl+C to stop.');
  return lines.join('\n');
}

/** Quotes a shell word only when it needs it. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
