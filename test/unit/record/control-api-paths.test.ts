import { describe, expect, it } from 'vitest';
import { namesControlApi } from '../../../src/record/recorder.js';

// The recorder forwards a service's API, never a fake's control API: its answers hold keys
// (GET /__admin/state) and its calls change the fake (POST /__admin/reset).
describe('a request target that reaches a fake control API', () => {
  it.each([
    '/__admin/state',
    '/__admin',
    '/__ADMIN/reset',
    '/marketing/v1/../../__admin/state',
    '/marketing/v1/%2e%2e/%2E%2E/__admin/state',
    '/%5f%5fadmin/state',
    '/%255f%255fadmin/state',
    '/marketing/v1/lists/..%2f..%2f__admin/state',
    '/x/__admin/state?x=1',
    '//__admin/state',
    '/\\__admin/state',
    '/marketing//v1/%2F__admin/state',
    // A slash escaped at the start: unescaped, a run of slashes is one.
    '/%2F__admin/state',
    // Still escaped after three rounds of unescaping: refused if it names __admin anywhere.
    '/x%25255F_admin',
  ])('%s is refused', (target) => {
    expect(namesControlApi(target)).toBe(true);
  });

  it.each([
    '/marketing/v1/lists',
    '/marketing/v1/lists?name=__admin',
    '/marketing/v1/lists/__administrator',
    '/marketing/v1/content/x__admin',
    '/%zz/lists',
    // Dot segments resolved as a server resolves them.
    '/__admin/..',
    '/__admin/state/../../marketing/v1/lists',
    // An escaped slash is one more slash, no more.
    '/%2Fmarketing/v1/lists',
  ])('%s is the API', (target) => {
    expect(namesControlApi(target)).toBe(false);
  });
});
