import type { Drift, ProxiedAnswer, ProxiedRequest } from '../drift-proxy.js';

/** Small pieces the drift catalogue is written with. */

export const isXml = (answer: ProxiedAnswer) => /xml/.test(answer.headers['content-type'] ?? '');
export const isJson = (answer: ProxiedAnswer) => /json/.test(answer.headers['content-type'] ?? '');
export const wantsXml = (request: ProxiedRequest) => /xml/.test(request.headers.accept ?? '');

/** True when the request is `method` on an API path matching `path`. */
export function on(request: ProxiedRequest, method: string, path: RegExp): boolean {
  return request.method === method && path.test(request.apiPath.split('?')[0] ?? '');
}

/** The answer with its JSON body changed by `change` (left alone when it is not JSON). */
export function mapJson(answer: ProxiedAnswer, change: (value: unknown) => unknown): ProxiedAnswer {
  if (!isJson(answer) || answer.body === '') return answer;
  return { ...answer, body: JSON.stringify(change(JSON.parse(answer.body))) };
}

/** Applies `change` to every object of a JSON array answer (or to the one object). */
export function mapItems(
  answer: ProxiedAnswer,
  change: (item: Record<string, unknown>) => Record<string, unknown>,
): ProxiedAnswer {
  return mapJson(answer, (value) =>
    Array.isArray(value)
      ? value.map((item) => change(item as Record<string, unknown>))
      : change(value as Record<string, unknown>),
  );
}

/** The answer with its XML body changed by a text replacement (left alone when not XML). */
export function mapXml(answer: ProxiedAnswer, change: (text: string) => string): ProxiedAnswer {
  return isXml(answer) ? { ...answer, body: change(answer.body) } : answer;
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/** A JSON answer made up by the proxy. */
export function jsonAnswer(status: number, value: unknown): ProxiedAnswer {
  return { status, headers: JSON_TYPE, body: value === undefined ? '' : JSON.stringify(value) };
}

/** An empty answer made up by the proxy (e.g. 204). */
export function emptyAnswer(status: number): ProxiedAnswer {
  return { status, headers: {}, body: '' };
}

/** The JSON body of a request, or undefined. */
export function requestJson(request: ProxiedRequest): Record<string, unknown> | undefined {
  try {
    return JSON.parse(request.body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The custom field object a drifted service would answer a create with (nothing is created). */
export function madeUpField(request: ProxiedRequest): ProxiedAnswer {
  const name = decodeURIComponent(request.apiPath.split('/')[2] ?? '');
  return jsonAnswer(200, {
    customFieldNameId: 900_000 + name.length,
    name,
    serverId: Number(basicUser(request)),
    customFieldType: 'String',
  });
}

/** The Basic username (the server id) of a request. */
export function basicUser(request: ProxiedRequest): string {
  const encoded = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
  return Buffer.from(encoded, 'base64').toString('utf8').split(':')[0] ?? '';
}

/** A membership result a drifted service would answer with (nothing is changed). */
export function madeUpMembership(request: ProxiedRequest): ProxiedAnswer {
  const listId = Number(request.apiPath.split('/')[2]);
  return jsonAnswer(200, { serverId: Number(basicUser(request)), contactId: 1, listId });
}

/** Helps the catalogue stay data: the same shape for every entry. */
export const drift = (entry: Drift): Drift => entry;

/**
 * An error a drifted service makes up, in the format the request's Accept chose (the fake's
 * envelope: `{"message"}` or `<Error><Message>`), so that only the drift's own difference shows.
 */
export function errorAnswer(
  request: ProxiedRequest,
  status: number,
  message: string,
): ProxiedAnswer {
  if (!wantsXml(request)) return jsonAnswer(status, { message });
  const text = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return {
    status,
    headers: { 'content-type': 'text/xml; charset=utf-8' },
    body: `<Error><Message>${text}</Message></Error>`,
  };
}

/**
 * The checks that provoke an error answer and judge its Content-Type, in the plan's order (after
 * `auth.wrong-key` and the format checks): a drift that mislabels every error fails them all.
 */
export const ERROR_CHECKS: readonly string[] = [
  'errors.missing-address',
  'errors.malformed-address',
  'errors.unknown-list',
  'errors.unknown-list-by-email',
  'errors.unknown-contact',
  'errors.unknown-custom-field',
  'errors.unsubscribe-unknown',
  'errors.unsubscribe-unknown-id',
  'errors.unknown-field',
  'errors.reserved-name',
  'errors.name-too-long',
  'errors.forbidden-characters',
  'writes.field-duplicate',
  'writes.field-delete',
  'writes.field-limit',
  'writes.contact-cap',
];

/** Those of {@link ERROR_CHECKS} whose error is a 409 with the description's `message`. */
export const CONFLICT_CHECKS: readonly string[] = [
  'errors.reserved-name',
  'errors.name-too-long',
  'writes.field-duplicate',
  'writes.field-limit',
];
