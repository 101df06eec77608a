import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** Where a test fake listens, for raw sockets: TLS (trusting only `ca`) or plain TCP. */
export interface Target {
  readonly url: string;
  readonly ca: string | undefined;
}

/** A connected raw socket to the fake: for requests no HTTP client would send. */
export function openSocket(target: Target): Promise<Socket> {
  const { hostname, port } = new URL(target.url);
  return new Promise((resolve, reject) => {
    const socket = target.ca
      ? connectTls({ host: hostname, port: Number(port), ca: target.ca, servername: 'localhost' })
      : connectTcp({ host: hostname, port: Number(port) });
    socket.once(target.ca ? 'secureConnect' : 'connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Writes raw bytes and reads until the server closes the connection or `quietMs` pass without
 * data; returns what came back as text, and whether the server closed.
 */
export async function exchange(
  target: Target,
  raw: string | Buffer,
  quietMs = 1500,
): Promise<{ text: string; closed: boolean }> {
  const socket = await openSocket(target);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed });
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), quietMs);
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      arm();
    });
    socket.once('close', () => finish(true));
    socket.once('error', () => finish(true));
    arm();
    socket.write(raw);
  });
}

/** The status code of the first response in a raw exchange, or 0 when none came. */
export function statusOf(text: string): number {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return match ? Number(match[1]) : 0;
}
