/** Where each part of the fake lives on its port: defined once, used by routes, faults and the journal. */

/** Everything of the emulated service (every version) starts with this. */
export const PUBLIC_PREFIX = '/marketing/';
/** The emulated API. */
export const API_PREFIX = '/marketing/v1';
/** The service's own unsubscribe examples use `beta` for the version segment. */
export const BETA_PREFIX = '/marketing/beta';
/** The control API and the inspector page. */
export const ADMIN_PREFIX = '/__admin';
/** Thumbnail images: no credentials, the signed URL is the ticket. */
export const THUMBNAILS_PREFIX = '/thumbnails';

/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** True for every URL of the emulated service: faulted and journaled. */
export function isPublicApi(url: string): boolean {
  return url.startsWith(PUBLIC_PREFIX);
}

/** True for every URL of the control API: JSON errors, never faulted or journaled. */
export function isControlApi(url: string): boolean {
  return (
    url.startsWith(ADMIN_PREFIX) &&
    (url.length === ADMIN_PREFIX.length || '/?'.includes(url[ADMIN_PREFIX.length]!))
  );
}
