import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { dropRestOfBody } from './pipeline/body.js';
import { afterBodyRead } from './pipeline/journal.js';

/**
 * Sends a finished body: every answer of the fake (success, error, rendered page) goes out here,
 * and is recorded here, once sent, so the journal records exactly what was sent without a hook
 * or a copy.
 */
export function answer(
  reply: FastifyReply,
  contentType: string | undefined,
  body?: string | Buffer | Readable,
): FastifyReply {
  if (contentType !== undefined) reply.type(contentType);
  const { request } = reply;
  // Sent at once, unless the journal must first read a body nothing read. fastify waits for a
  // returned reply (it is thenable) until it is sent.
  afterBodyRead(request, reply, () => {
    reply.send(body);
    // A body that nothing read (a refused one) is read and dropped now, within bounds.
    dropRestOfBody(request);
    // Recorded as soon as it is sent, not from an onResponse hook: fastify's hook runner and the
    // socket's `finish` event cost more than the recording itself (0.6 µs a request, measured on
    // GET /lists). With no onSend hook, send() has written the status line and headers already.
    // A stream is sent by the control API only, which the journal does not record.
    if (request.journalPending) {
      request.server.journal.answered(request, reply, body instanceof Readable ? undefined : body);
    }
  });
  return reply;
}
