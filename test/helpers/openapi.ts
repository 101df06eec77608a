import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createFakeMarketingServer } from '../../src/index.js';

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};

let documentPromise: Promise<Document> | undefined;

/** The OpenAPI document as the fake serves it. */
export function openApiDocument(): Promise<Document> {
  documentPromise ??= (async () => {
    const fake = await createFakeMarketingServer();
    const response = await fake.inject({ url: '/__admin/openapi.json' });
    await fake.close();
    return JSON.parse(response.body) as Document;
  })();
  return documentPromise;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (target: Ajv2020) => void)(ajv);
const validators = new Map<unknown, ValidateFunction>();

function resolve(document: Document, schema: unknown): unknown {
  const ref = (schema as { $ref?: string }).$ref;
  return ref ? document.components.schemas[ref.split('/').pop()!] : schema;
}

function templateMatches(template: string, path: string): boolean {
  const pattern = template.replace(/\{\w+\}/g, '[^/]+');
  return new RegExp(`^${pattern}/?$`).test(path);
}

/**
 * Checks a JSON answer against the document, with ajv (independent of fastify's serializer):
 * every API test's answers go through here. Answers the document does not describe (unknown
 * routes, wrong methods) are left alone.
 */
export async function checkAgainstOpenApi(
  method: string,
  url: string,
  status: number,
  contentType: string | undefined,
  body: string,
  contentLength?: string,
): Promise<void> {
  if (!contentType?.startsWith('application/json') || body === '') return;
  // A body cut short on purpose (fault `malformed`) is not an answer to check.
  if (contentLength !== undefined && Number(contentLength) > Buffer.byteLength(body)) return;
  const document = await openApiDocument();
  const path = url.split('?')[0]!;
  const template = Object.keys(document.paths).find((candidate) =>
    templateMatches(candidate, path),
  );
  const operation = template ? document.paths[template]![method.toLowerCase()] : undefined;
  if (!operation) return;
  const response =
    operation.responses[String(status)] ??
    operation.responses[`${String(status)[0]}XX`] ??
    operation.responses.default;
  if (!response)
    throw new Error(
      `${method} ${path} answered ${status}, which the OpenAPI document does not list`,
    );
  const schema = response.content?.['application/json']?.schema;
  if (schema === undefined)
    throw new Error(
      `${method} ${path} answered ${status} with a body the document does not describe`,
    );
  const resolved = resolve(document, schema);
  let validate = validators.get(resolved);
  if (!validate) {
    validate = ajv.compile(resolved as object);
    validators.set(resolved, validate);
  }
  if (!validate(JSON.parse(body))) {
    throw new Error(
      `${method} ${path} ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}`,
    );
  }
}
