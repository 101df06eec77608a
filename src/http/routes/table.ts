import type { Route } from '../route.js';
import { Router } from '../router.js';
import { ADMIN_ROUTES } from './admin.js';
import { INSPECTOR_ROUTES } from './admin-inspector.js';
import { TENANT_ROUTES } from './admin-tenants.js';
import { CONTENT_ROUTES } from './content.js';
import { CUSTOM_FIELD_ROUTES } from './custom-fields.js';
import { LIST_ROUTES } from './lists.js';
import { UNSUBSCRIBE_ROUTES } from './unsubscribe.js';

/**
 * Every route of the fake, emulated and control API alike: adding an endpoint means adding one
 * entry to one of these files. Registration, 405 with Allow, parameter checks, the OpenAPI
 * document and the journal's operation names all come from this table.
 */
export const ROUTES: readonly Route[] = [
  ...LIST_ROUTES,
  ...UNSUBSCRIBE_ROUTES,
  ...CUSTOM_FIELD_ROUTES,
  ...CONTENT_ROUTES,
  ...ADMIN_ROUTES,
  ...INSPECTOR_ROUTES,
  ...TENANT_ROUTES,
];

/** The table compiled once per process: every fake shares it (it holds no state). */
export const ROUTER = new Router(ROUTES);

/** The emulated API's operationIds: what the journal names and its filters accept. */
export const OPERATIONS: ReadonlySet<string> = new Set(
  ROUTES.filter((route) => route.auth === 'basic').map((route) => route.operationId),
);
