import { describe, expect, it } from 'vitest';
import { AUTH } from '../helpers/fake.js';
import { exchange, statusOf } from '../helpers/raw-socket.js';
import { listeningFake, OVER_HTTP_AND_HTTPS } from '../helpers/socket-fake.js';

/**
 * No header field is dropped unseen (without the limit, past Node's 2,000th field, a second Host,
 * an Origin or a Sec-Fetch-Site goes unread and the request gets 200). At most 100 fields, all
 * read; more get 431 on every route, whatever their size under the 16 KiB limit.
 */
describe.each(OVER_HTTP_AND_HTTPS)(
  'header fields over %s, through a real socket',
  (_name, https) => {
    const on = listeningFake(https);

    /** A request head with the given lines after the request line, closed after one answer. */
    const head = (requestLine: string, lines: readonly string[]) =>
      `${[requestLine, ...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`;
    /** `count` filler fields, 4 bytes each. */
    const fill = (count: number) => Array.from({ length: count }, () => 'a:');
    const send = async (requestLine: string, lines: readonly string[]) => {
      const { text } = await exchange(on.target, head(requestLine, lines));
      return { status: statusOf(text), text };
    };
    /** Something a reset would undo, so that a reset that went through shows. */
    const markState = () => on.fake.addServer({ serverId: 4321 });
    const stateHasMark = () =>
      on.fake.exportState().servers.some((server) => server.serverId === 4321);

    const CONTROL = 'GET /__admin/state HTTP/1.1';
    const API = 'GET /marketing/v1/lists HTTP/1.1';
    const auth = `Authorization: ${AUTH}`;

    it('two Host headers next to each other: 400 on the control and emulated APIs', async () => {
      expect((await send(CONTROL, ['Host: 127.0.0.1', 'Host: evil.example'])).status).toBe(400);
      expect((await send(API, ['Host: 127.0.0.1', auth, 'Host: evil.example'])).status).toBe(400);
    });

    it('a second Host as the 100th field is seen: 400', async () => {
      // Host, 97 fillers, the second Host, Connection: 100 fields.
      const control = await send(CONTROL, ['Host: 127.0.0.1', ...fill(97), 'Host: evil.example']);
      expect(control.status).toBe(400);
      const api = await send(API, ['Host: 127.0.0.1', auth, ...fill(96), 'Host: evil.example']);
      expect(api.status).toBe(400);
    });

    it('100 fields are answered as usual; 101 get 431 with the error body', async () => {
      expect((await send(API, ['Host: 127.0.0.1', auth, ...fill(97)])).status).toBe(200);
      const over = await send(API, ['Host: 127.0.0.1', auth, ...fill(98)]);
      expect(over.status).toBe(431);
      expect(over.text).toContain(
        'The request has more than 100 header fields, the most accepted.',
      );
      expect((await send(CONTROL, ['Host: 127.0.0.1', ...fill(98)])).status).toBe(200);
      expect((await send(CONTROL, ['Host: 127.0.0.1', ...fill(99)])).status).toBe(431);
    });

    it('a second Host after 2,100 fields: 431, never 200 (control and emulated APIs)', async () => {
      const control = await send(CONTROL, ['Host: 127.0.0.1', ...fill(2100), 'Host: evil.example']);
      expect(control.status).toBe(431);
      const api = await send(API, ['Host: 127.0.0.1', auth, ...fill(2100), 'Host: evil.example']);
      expect(api.status).toBe(431);
    });

    it('3,500 fields under the 16 KiB limit: 431', async () => {
      const lines = ['Host: 127.0.0.1', auth, ...fill(3500)];
      expect(head(API, lines).length).toBeLessThan(16 * 1024);
      expect((await send(API, lines)).status).toBe(431);
    });

    it('a cross-site control call hidden after 2,100 fields resets nothing (431)', async () => {
      await markState();
      const reset = await send('POST /__admin/reset HTTP/1.1', [
        'Host: 127.0.0.1',
        ...fill(2100),
        'Sec-Fetch-Site: cross-site',
        'Origin: https://evil.example',
      ]);
      expect(reset.status).toBe(431);
      expect(stateHasMark()).toBe(true);
      on.fake.reset();
    });

    it('Sec-Fetch-Site and Origin as the last of 100 fields are read: 403, nothing reset', async () => {
      await markState();
      const reset = await send('POST /__admin/reset HTTP/1.1', [
        'Host: 127.0.0.1',
        ...fill(96),
        'Sec-Fetch-Site: cross-site',
        'Origin: https://evil.example',
      ]);
      expect(reset.status).toBe(403);
      expect(stateHasMark()).toBe(true);
      on.fake.reset();
    });
  },
);
