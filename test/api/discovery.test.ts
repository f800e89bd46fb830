/**
 * Discovery documents built from the served kinds: /version, /api, /api/v1 (resources sorted,
 * subresources after their parent, sorted verbs, short names), and aggregated discovery v2 when
 * the client asks for it.
 */
import { describe, expect, it } from 'vitest';
import { sim, type Body } from '../helpers.ts';

describe('discovery', () => {
  it('serves /version and /api', async () => {
    const s = await sim();
    expect(((await s.request({ method: 'GET', path: '/version' })).body as Body).gitVersion).toMatch(/^v1\.35\./);
    const api = (await s.request({ method: 'GET', path: '/api', headers: { host: 'sim:6443' } })).body as Body;
    expect(api).toEqual({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: 'sim:6443' }] });
  });

  it('lists core resources with their verbs and subresources', async () => {
    const s = await sim();
    const list = (await s.request({ method: 'GET', path: '/api/v1' })).body as Body;
    expect(list.kind).toBe('APIResourceList');
    expect(list.groupVersion).toBe('v1');
    expect(list.resources.map((r: Body) => r.name)).toEqual(expect.arrayContaining(['configmaps', 'namespaces', 'namespaces/status', 'pods', 'pods/status', 'secrets', 'serviceaccounts', 'serviceaccounts/token']));
    expect(list.resources.find((r: Body) => r.name === 'serviceaccounts/token')).toEqual({
      name: 'serviceaccounts/token',
      singularName: '',
      namespaced: true,
      group: 'authentication.platform.io',
      version: 'v1',
      kind: 'TokenRequest',
      verbs: ['create'],
    });
    expect(list.resources.find((r: Body) => r.name === 'serviceaccounts')).toEqual({
      name: 'serviceaccounts',
      singularName: 'serviceaccount',
      namespaced: true,
      kind: 'ServiceAccount',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['sa'],
    });
    expect((await s.request({ method: 'GET', path: '/api/v2' })).status).toBe(404);
  });

  it('answers aggregated discovery with its media type when asked', async () => {
    const s = await sim();
    const res = await s.request({ method: 'GET', path: '/api', headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' } });
    expect(res.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const body = JSON.parse(JSON.stringify(res.body)) as Body;
    expect(body.kind).toBe('APIGroupDiscoveryList');
    const sa = body.items[0].versions[0].resources.find((r: Body) => r.resource === 'serviceaccounts');
    expect(sa).toMatchObject({ responseKind: { group: '', version: 'v1', kind: 'ServiceAccount' }, scope: 'Namespaced', singularResource: 'serviceaccount' });
  });
});
