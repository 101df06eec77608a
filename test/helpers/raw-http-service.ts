import { createServer, type Socket } from 'node:net';

/** A service on raw sockets, for answers no HTTP server library sends (a 1xx final, a lie). */
export interface RawHttpService {
  /** `http://127.0.0.1:<port>/marketing/v1`. */
  readonly baseUrl: string;
  /** The head of each request, in the order they came. */
  readonly heads: string[];
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
}

/** What a raw service writes: a status line and headers, a blank line, then the body. */
export const rawReply = (lines: readonly string[], body = '') =>
  `${lines.join('\r\n')}\r\n\r\n${body}`;

/**
 * Listens on 127.0.0.1: for each connection, once the request head has come, `answer` writes what
 * it likes on the socket (or nothing, or drips).
 */
export async function rawHttpService(
  answer: (socket: Socket, head: string) => void,
): Promise<RawHttpService> {
  const heads: string[] = [];
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    let text = '';
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!answered && text.includes('\r\n\r\n')) {
        answered = true;
        heads.push(text);
        answer(socket, text);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/marketing/v1`,
    heads,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
