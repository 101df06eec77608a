import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HarWriteError } from './har-file.js';

/**
 * 503 while the HAR cannot be written and the entries waiting for it have reached their bound: the
 * request is neither forwarded nor recorded (an exchange the recorder cannot keep must not reach
 * the service, nor hang until the disk comes back). Taken again once a write succeeds.
 */
export function refuseUnwritable(
  req: IncomingMessage,
  res: ServerResponse,
  failure: HarWriteError,
): void {
  const body = JSON.stringify({
    message: `fake-marketing-server record: the HAR cannot be written: ${failure.reason} (${failure.path}); the exchanges waiting to be written have reached their bound, so this request was neither forwarded nor recorded: retry it once the HAR can be written.`,
  });
  req.resume();
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': '1',
    connection: 'close',
  });
  res.end(body);
}
