/**
 * Discovery documents built from the served kinds: /version, /api, /api/v1 (resources sorted,
 * subresources after their parent, sorted verbs, short names), and aggregated discovery v2 when
 * the client asks for it.
 */
import { describe, expect, it } from 'vitest';
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
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

  it('sends a quoted SHA-512 ETag with aggregated discovery and answers a matching If-None-Match with 304 and no body', async () => {
    const s = await sim();
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    for (const path of ['/api', '/apis']) {
      const first = await s.respond({ method: 'GET', path, headers: { accept } });
      expect(first.status).toBe(200);
      const etag = first.headers['etag'] as string;
      const hash = bytesToHex(sha512(utf8ToBytes(JSON.stringify(JSON.parse(first.body))))).toUpperCase();
      expect(etag).toBe(`"${hash}"`);
      expect(first.headers).toMatchObject({ vary: 'Accept', 'cache-control': 'public' });
      // Pretty output is the same document: the same ETag.
      expect((await s.respond({ method: 'GET', path: `${path}?pretty=true`, headers: { accept } })).headers['etag']).toBe(etag);
      const cached = await s.respond({ method: 'GET', path, headers: { accept, 'if-none-match': etag } });
      expect(cached).toEqual({ status: 304, headers: { etag, vary: 'Accept', 'cache-control': 'public' }, body: '' });
      // The unquoted hash or another ETag is no match (Go compares the quoted string exactly).
      expect((await s.respond({ method: 'GET', path, headers: { accept, 'if-none-match': hash } })).status).toBe(200);
      expect((await s.respond({ method: 'GET', path, headers: { accept, 'if-none-match': '"0"' } })).status).toBe(200);
    }
    const core = (await s.respond({ method: 'GET', path: '/api', headers: { accept } })).headers['etag'];
    const named = (await s.respond({ method: 'GET', path: '/apis', headers: { accept } })).headers['etag'];
    expect(core).not.toBe(named);
    // The legacy documents carry no ETag.
    expect((await s.respond({ method: 'GET', path: '/apis' })).headers['etag']).toBeUndefined();
  });
});
