import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { afterBodyRead } from './pipeline/journal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body the fake sent, kept by reference for the journal (never copied). */
    sentBody: string | Buffer | undefined;
  }
}

/**
 * Sends a finished body: every answer of the fake (success, error, rendered page) goes out here,
 * so the journal records exactly what was sent without a hook or a copy.
 */
export function answer(
  reply: FastifyReply,
  contentType: string | undefined,
  body?: string | Buffer | Readable,
): FastifyReply {
  // A stream is sent by the control API only, which the journal does not record.
  reply.request.sentBody = body instanceof Readable ? undefined : body;
  if (contentType !== undefined) reply.type(contentType);
  // Sent at once, unless the journal must first read a body nothing read. fastify waits for a
  // returned reply (it is thenable) until it is sent.
  afterBodyRead(reply.request, reply, () => reply.send(body));
  return reply;
}
