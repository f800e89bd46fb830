/**
 * Robustness: random requests — methods, paths of every served kind and subresource, credentials
 * (bearer junk, JWT-shaped junk, impersonation headers, front-proxy headers), content types
 * (JSON, YAML, protobuf, patches) and bodies (random JSON, random bytes, bodies of another kind) —
 * never make the simulation throw or answer 5xx, and a 4xx never changes the world.
 * A failure prints the seed; replay with FC_SEED=<seed> npx vitest run test/model/fuzz.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sim } from '../helpers.ts';

const paths = [
  '/api/v1/namespaces/default/serviceaccounts',
  '/api/v1/namespaces/default/serviceaccounts/default',
  '/api/v1/namespaces/default/serviceaccounts/default/token',
  '/api/v1/namespaces/default/pods',
  '/api/v1/namespaces/default/secrets/x',
  '/api/v1/nodes/n1/status',
  '/api/v1/namespaces/default/services',
  '/api/v1/namespaces/default/persistentvolumeclaims',
  '/api/v1/namespaces/default/events',
  '/apis/authentication.platform.io/v1/tokenreviews',
  '/apis/authentication.platform.io/v1/selfsubjectreviews',
  '/apis/authorization.platform.io/v1/selfsubjectaccessreviews',
  '/apis/rbac.authorization.platform.io/v1/clusterroles',
  '/apis/rbac.authorization.platform.io/v1/namespaces/default/rolebindings',
  '/apis/certificates.platform.io/v1/certificatesigningrequests',
  '/apis/certificates.platform.io/v1/certificatesigningrequests/c/approval',
  '/apis/certificates.platform.io/v1beta1/clustertrustbundles',
  '/apis/apps/v1/namespaces/default/statefulsets',
  '/apis/apps/v1/namespaces/default/statefulsets/web/scale',
  '/apis/apps/v1/namespaces/default/controllerrevisions',
  '/openid/v1/jwks',
  '/.well-known/openid-configuration',
  '/version',
  '/api/v1/namespaces/default/serviceaccounts?watch=true&timeoutSeconds=1',
  '/api/v1/namespaces/%zz/pods',
];

const contentTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml', 'text/plain'];

const jwtLike = fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map(([a, b, c]) => `${a}.${b}.${c}`.replaceAll('=', ''));

const headers = fc.record(
  {
    authorization: fc.oneof(fc.constant('Bearer '), fc.string().map((s) => `Bearer ${s}`), jwtLike.map((t) => `Bearer ${t}`), fc.constant('Basic abc')),
    'impersonate-user': fc.constantFrom('alice', 'system:serviceaccount:default:default', 'system:anonymous', ''),
    'impersonate-group': fc.array(fc.constantFrom('g', 'system:masters', ''), { maxLength: 2 }),
    'impersonate-extra-scopes%zz': fc.constantFrom('x'),
    'x-remote-user': fc.constantFrom('mallory'),
    'content-type': fc.constantFrom(...contentTypes),
    accept: fc.constantFrom('application/json', 'application/yaml', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/vnd.kubernetes.protobuf', 'text/html'),
  },
  { requiredKeys: [] },
);

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.record({ metadata: fc.record({ name: fc.constantFrom('x', 'web', 'c', 'UPPER', '') }, { requiredKeys: [] }), spec: fc.jsonValue({ maxDepth: 3 }), status: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
);

const body = fc.oneof(
  jsonBody.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 60 }).map((b) => new Uint8Array([0x6b, 0x38, 0x73, 0, ...b])),
);

const request = fc.record({ method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), path: fc.constantFrom(...paths), headers, body });

describe('robustness', () => {
  it('answers every random request with a non-5xx status and changes nothing on 4xx', async () => {
    const s = await sim({ users: [{ token: 'good', user: 'alice', groups: ['dev'] }] });
    await fc.assert(
      fc.asyncProperty(request, fc.boolean(), async (req, http) => {
        const before = s.hash();
        const res = await s.request({ method: req.method, path: req.path, headers: req.headers as Record<string, string | string[]>, body: req.body, ...(http ? { transport: 'http' as const } : {}) });
        res.watch?.close();
        expect(res.status, `${req.method} ${req.path} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (res.status >= 400) expect(s.hash()).toBe(before);
      }),
      { numRuns: 400 },
    );
  });
});
