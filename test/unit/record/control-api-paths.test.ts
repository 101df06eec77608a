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
  ])('%s is refused', (target) => {
    expect(namesControlApi(target)).toBe(true);
  });

  it.each([
    '/marketing/v1/lists',
    '/marketing/v1/lists?name=__admin',
    '/marketing/v1/lists/__administrator',
    '/marketing/v1/content/x__admin',
    '/%zz/lists',
  ])('%s is the API', (target) => {
    expect(namesControlApi(target)).toBe(false);
  });
});
