/**
 * Identity over HTTPS with real clients: a service account's token from client-node, used as a
 * bearer token (403 until a RoleBinding allows), verified from outside with jose's
 * createRemoteJWKSet against the issuer discovery endpoints; mTLS client certificates; the
 * typed AuthenticationV1Api in k8s.io mode.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request as httpsRequest } from 'node:https';
import * as k8s from '@kubernetes/client-node';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';
import { createSimulation } from '../../src/index.ts';

let server: RunningServer;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'psim-id-')), 'kubeconfig');
  server = await serve({ port: 0, clock: 'manual', seed: 21, kubeconfig, groupDomain: 'k8s.io' });
  kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
});
afterAll(async () => {
  await server.close();
});

/** A kubeconfig for the same server that logs in with a bearer token or a client certificate. */
function configAs(user: { token?: string; certData?: string; keyData?: string }): k8s.KubeConfig {
  const c = new k8s.KubeConfig();
  const cluster = kc.getCurrentCluster()!;
  c.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'u', ...(user.token === undefined ? {} : { token: user.token }), ...(user.certData === undefined ? {} : { certData: Buffer.from(user.certData).toString('base64'), keyData: Buffer.from(user.keyData!).toString('base64') }) }],
    contexts: [{ name: 'c', cluster: cluster.name, user: 'u' }],
    currentContext: 'c',
  });
  return c;
}

describe('identity over HTTPS', () => {
  it('issues a token that logs in, and is refused until a RoleBinding allows', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'reader' } } });
    const tr = await core.createNamespacedServiceAccountToken({ namespace: 'default', name: 'reader', body: { spec: { audiences: [] } } as k8s.AuthenticationV1TokenRequest });
    const token = tr.status!.token;
    const asReader = configAs({ token }).makeApiClient(k8s.CoreV1Api);
    await expect(asReader.listNamespacedServiceAccount({ namespace: 'default' })).rejects.toMatchObject({ code: 403 });
    const rbac = kc.makeApiClient(k8s.RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({ namespace: 'default', body: { metadata: { name: 'sa-reader' }, rules: [{ verbs: ['list'], apiGroups: [''], resources: ['serviceaccounts'] }] } });
    await rbac.createNamespacedRoleBinding({ namespace: 'default', body: { metadata: { name: 'reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'sa-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'reader' }] } });
    const list = await asReader.listNamespacedServiceAccount({ namespace: 'default' });
    expect(list.items.map((i) => i.metadata?.name)).toContain('reader');
  });

  it('reviews tokens with the typed AuthenticationV1Api', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const auth = kc.makeApiClient(k8s.AuthenticationV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'reviewed' } } });
    const token = (await core.createNamespacedServiceAccountToken({ namespace: 'default', name: 'reviewed', body: { spec: { audiences: ['vault'] } } as k8s.AuthenticationV1TokenRequest })).status!.token;
    const review = await auth.createTokenReview({ body: { spec: { token, audiences: ['vault'] } } });
    expect(review.status?.authenticated).toBe(true);
    expect(review.status?.user?.username).toBe('system:serviceaccount:default:reviewed');
    expect(review.status?.user?.extra?.['authentication.kubernetes.io/credential-id']?.[0]).toMatch(/^JTI=/);
    const self = await auth.createSelfSubjectReview({ body: {} });
    expect(self.status?.userInfo?.username).toBe('system:admin');
  });

  it('serves issuer discovery: a token verifies against the JWKS from outside', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'oidc' } } });
    const token = (await core.createNamespacedServiceAccountToken({ namespace: 'default', name: 'oidc', body: { spec: {} } as k8s.AuthenticationV1TokenRequest })).status!.token;
    const agent = new Agent({ ca: server.caPem });
    const get = async (path: string, t: string) => {
      const { request } = await import('node:https');
      return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        request(`${server.url}${path}`, { agent, headers: { authorization: `Bearer ${t}` } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
        }).on('error', reject).end();
      });
    };
    const config = await get('/.well-known/openid-configuration', token);
    expect(config.status).toBe(200);
    const doc = JSON.parse(config.body) as { issuer: string; jwks_uri: string; id_token_signing_alg_values_supported: string[] };
    expect(Object.keys(doc)).toEqual(['issuer', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported']);
    expect(doc.id_token_signing_alg_values_supported).toEqual(['EdDSA']);
    const jwks = await get('/openid/v1/jwks', token);
    expect(jwks.type).toBe('application/jwk-set+json');
    // jose fetches the key set itself; its fetch trusts the simulation's CA and sends the token.
    const fetchWithCa = async (url: string, options: { headers: Headers }): Promise<Response> => {
      const res = await get(new URL(url).pathname, options.headers.get('authorization')!.slice('Bearer '.length));
      return new Response(res.body, { status: res.status, headers: { 'content-type': res.type } });
    };
    const keySet = createRemoteJWKSet(new URL(doc.jwks_uri.replace(/^https:\/\/[^/]+/, server.url)), { headers: { authorization: `Bearer ${token}` }, [customFetch]: fetchWithCa });
    const verified = await jwtVerify(token, keySet, { issuer: doc.issuer, currentDate: new Date('2025-01-01T00:00:10Z') });
    expect(verified.payload.sub).toBe('system:serviceaccount:default:oidc');
  });

  it('logs in with a client certificate over mTLS', async () => {
    const cert = await server.sim.issueClientCertificate({ user: 'carol', groups: ['system:masters'] });
    const asCarol = configAs({ certData: cert.certificate, keyData: cert.privateKey }).makeApiClient(k8s.AuthenticationV1Api);
    const self = await asCarol.createSelfSubjectReview({ body: {} });
    expect(self.status?.userInfo?.username).toBe('carol');
    expect(self.status?.userInfo?.groups).toEqual(['system:masters', 'system:authenticated']);
  });

  it('lets an admin by client certificate put back a snapshot larger than the request limit', async () => {
    const cert = await server.sim.issueClientCertificate({ user: 'carol', groups: ['system:masters'] });
    const snapshot = server.sim.snapshot();
    // Padded past 3 MiB with whitespace, which JSON ignores: the world is the same.
    const body = `${JSON.stringify(snapshot)}${' '.repeat(3 * 1024 * 1024)}`;
    const ca = kc.getCurrentCluster()!.caData!;
    const put = (agent: Agent) =>
      new Promise<number>((resolve, reject) => {
        const req = httpsRequest(`${server.url}/sim/v1/snapshot`, { method: 'PUT', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      });
    const withCert = new Agent({ ca: Buffer.from(ca, 'base64'), cert: cert.certificate, key: cert.privateKey });
    expect(await put(withCert)).toBe(200);
    // Without a certificate (or a token) the edge keeps the request limit; so it does for a
    // certificate of another CA (another seed's), which the simulation would refuse anyway.
    expect(await put(new Agent({ ca: Buffer.from(ca, 'base64') }))).toBe(413);
    const foreign = await (await createSimulation({ seed: 99 })).issueClientCertificate({ user: 'mallory', groups: ['system:masters'] });
    expect(await put(new Agent({ ca: Buffer.from(ca, 'base64'), cert: foreign.certificate, key: foreign.privateKey }))).toBe(413);
  });
});
