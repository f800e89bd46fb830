/**
 * A request path's segments: empty ones dropped, escapes decoded, a malformed escape null (the
 * caller answers it as a plain 404 or a non-resource request); the last path's kept and shared.
 */
import { describe, expect, it } from 'vitest';
import { pathSegments } from '../../../src/core/pathSegments.ts';

describe('pathSegments', () => {
  it('drops empty segments and decodes escapes', () => {
    expect(pathSegments('/api/v1//namespaces/default/serviceaccounts/a%2Db')).toEqual(['api', 'v1', 'namespaces', 'default', 'serviceaccounts', 'a-b']);
    expect(pathSegments('/')).toEqual([]);
  });

  it('is null for a malformed escape, also when asked again', () => {
    expect(pathSegments('/api/v1/namespaces/%zz')).toBeNull();
    expect(pathSegments('/api/v1/namespaces/%zz')).toBeNull();
  });

  it('splits a path once when asked twice in a row (authorization, then routing)', () => {
    const first = pathSegments('/apis/apps/v1/statefulsets');
    expect(pathSegments('/apis/apps/v1/statefulsets')).toBe(first);
    expect(pathSegments('/api/v1/pods')).toEqual(['api', 'v1', 'pods']);
    expect(pathSegments('/apis/apps/v1/statefulsets')).not.toBe(first);
    expect(pathSegments('/apis/apps/v1/statefulsets')).toEqual(first);
  });
});
