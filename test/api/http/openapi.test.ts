import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { makeFake } from '../../helpers/fake.js';
import { openApiDocument } from '../../helpers/openapi.js';

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (checked by an independent validator)', async () => {
    const result = await new Validator().validate(
      structuredClone(await openApiDocument()) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is what the package ships as openapi.json (built from the same routes)', async () => {
    const shipped = JSON.parse(
      readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'),
    );
    expect(shipped).toEqual(await openApiDocument());
  });

  it('describes every route, both media types, Basic auth and the error responses', async () => {
    const document = (await openApiDocument()) as unknown as {
      paths: Record<
        string,
        Record<
          string,
          { security: unknown; responses: Record<string, { content?: Record<string, unknown> }> }
        >
      >;
      components: { securitySchemes: Record<string, { scheme: string }> };
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /marketing/v1/lists',
        'PUT /marketing/v1/lists/{listId}/contacts/{contactId}',
        'PUT /marketing/v1/lists/{listId}/contacts',
        'DELETE /marketing/v1/lists/{listId}/contacts/{contactId}',
        'DELETE /marketing/v1/lists/{listId}/contacts',
        'POST /marketing/v1/contacts/unsubscribe/{contactId}',
        'POST /marketing/v1/contacts/unsubscribe',
        'POST /marketing/beta/contacts/unsubscribe/{contactId}',
        'POST /marketing/beta/contacts/unsubscribe',
        'GET /marketing/v1/customfields',
        'POST /marketing/v1/customfields/{name}',
        'DELETE /marketing/v1/customfields/{customFieldNameId}',
        'GET /marketing/v1/content',
        'GET /__admin/health',
        'POST /__admin/reset',
        'POST /__admin/seed',
        'GET /__admin/requests',
        'POST /__admin/faults',
        'DELETE /__admin/faults/{id}',
        'PUT /__admin/servers/{serverId}/max-contacts',
      ]),
    );
    expect(document.components.securitySchemes.basic?.scheme).toBe('basic');
    const lists = document.paths['/marketing/v1/lists']!.get!;
    expect(lists.security).toEqual([{ basic: [] }]);
    expect(Object.keys(lists.responses['200']!.content!)).toEqual([
      'application/json',
      'text/xml',
      'application/xml',
    ]);
    expect(
      Object.keys(document.paths['/marketing/v1/lists/{listId}/contacts']!.put!.responses),
    ).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '405', '413', '415', '503']),
    );
    expect(
      Object.keys(document.paths['/marketing/v1/customfields/{name}']!.post!.responses),
    ).toContain('409');
    const save = document.paths['/__admin/save']!.post!.responses;
    expect(Object.keys(save).sort()).toEqual(['200', '4XX', '507']);
    expect(JSON.stringify(save['507'])).toMatch(/state file could not be written/);
  });

  it('is served at GET /__admin/openapi.json', async () => {
    await using fake = await makeFake();
    const response = await fake.inject({ url: '/__admin/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual(await openApiDocument());
  });

  it('catches an answer that drifts from it', async () => {
    const { checkAgainstOpenApi } = await import('../../helpers/openapi.js');
    await expect(
      checkAgainstOpenApi(
        'GET',
        '/marketing/v1/lists',
        200,
        'application/json',
        '[{"id":"1","name":"x"}]',
      ),
    ).rejects.toThrow(/does not match the OpenAPI document/);
    await expect(
      checkAgainstOpenApi('GET', '/marketing/v1/lists', 418, 'application/json', '{"message":"x"}'),
    ).resolves.toBeUndefined();
  });
});
