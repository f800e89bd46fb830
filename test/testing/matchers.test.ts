/**
 * The vitest matchers (src/testing/matchers.ts) through `expect.extend`, as a user would install
 * them, with the opt-in type augmentation: each passing, failing with what was expected and seen,
 * and reading well under `.not`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { objectPath, platformSimMatchers, type PlatformSimMatchers } from '../../src/testing/matchers.ts';
import { eventuallyStable } from '../../src/testing/invariants.ts';
import { sim, type Body } from '../helpers.ts';

declare module 'vitest' {
  // The opt-in augmentation a user writes (T must match vitest's own declaration).
  interface Matchers<T = any> extends PlatformSimMatchers<Promise<void>> {}
}

expect.extend(platformSimMatchers);

const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';
const base64 = (s: string) => Buffer.from(s).toString('base64');

async function csr(s: Simulation, name: string): Promise<Body> {
  const { request } = await s.createCertificateRequest({ commonName: name });
  return (await s.create<Body>(csrs, { metadata: { name }, spec: { request: base64(request), signerName: 'platform.io/apiserver-client', usages: ['client auth'] } })).body;
}

async function decide(s: Simulation, created: Body, type: 'Approved' | 'Denied'): Promise<void> {
  await s.update(`${csrs}/${created.metadata.name}/approval`, { ...created, status: { conditions: [{ type, status: 'True', reason: `Test${type}` }] } });
}

/** What an expectation throws (the message vitest prints), or '' when it passes. */
async function failure(assertion: Promise<unknown>): Promise<string> {
  try {
    await assertion;
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('platform-sim matchers', () => {
  let s: Simulation;
  let token: string;
  beforeAll(async () => {
    s = await sim({ podReadyAfter: '10s' });
    await s.create(sets, { metadata: { name: 'web' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx:1' }] } } } });
    await decide(s, await csr(s, 'alice'), 'Approved');
    await decide(s, await csr(s, 'mallory'), 'Denied');
    await csr(s, 'pending');
    await s.create('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } });
    token = (await s.create<Body>('/api/v1/namespaces/default/serviceaccounts/builder/token', { spec: { audiences: ['vault'] } })).body.status.token;
    await eventuallyStable(s);
  });

  it('toHaveReadyReplicas', async () => {
    await expect(s).toHaveReadyReplicas('default/web', 3);
    await expect(s).toHaveReadyReplicas('web', 3);
    await expect(s).not.toHaveReadyReplicas('default/web', 2);
    expect(await failure(expect(s).toHaveReadyReplicas('default/web', 5))).toMatch(/^expected StatefulSet default\/web to have 5 ready replicas, but it has 3 ready of 3 \(status \{.*"readyReplicas":3/);
    expect(await failure(expect(s).not.toHaveReadyReplicas('default/web', 3))).toMatch(/^expected StatefulSet default\/web not to have 3 ready replicas, but it has 3 ready of 3/);
    expect(await failure(expect(s).toHaveReadyReplicas('default/db', 1))).toBe('expected StatefulSet default/db to have 1 ready replicas, but GET /apis/apps/v1/namespaces/default/statefulsets/db answered 404 NotFound: statefulsets.apps "db" not found');
  });

  it('toBeApproved, toBeDenied, toBeIssued', async () => {
    await expect(s).toBeApproved('alice');
    await expect(s).toBeIssued('alice');
    await expect(s).not.toBeDenied('alice');
    await expect(s).toBeDenied('mallory');
    await expect(s).not.toBeIssued('mallory');
    await expect(s).not.toBeApproved('pending');
    expect(await failure(expect(s).toBeApproved('mallory'))).toBe('expected CertificateSigningRequest mallory to be Approved, but its conditions are Denied=True (TestDenied)');
    expect(await failure(expect(s).not.toBeApproved('alice'))).toBe('expected CertificateSigningRequest alice not to be Approved, but its conditions are Approved=True (TestApproved)');
    expect(await failure(expect(s).toBeIssued('pending'))).toBe('expected CertificateSigningRequest pending to be issued, but it has no status.certificate; conditions none');
    expect(await failure(expect(s).not.toBeIssued('alice'))).toMatch(/^expected CertificateSigningRequest alice not to be issued, but it carries a certificate \(\d+ base64 characters\)/);
  });

  it('toAuthenticateAs', async () => {
    await expect(s).toAuthenticateAs(token, 'system:serviceaccount:default:builder', { audiences: ['vault'] });
    await expect(s).toAuthenticateAs(token, { groups: ['system:serviceaccounts:default'] }, { audiences: ['vault'] });
    await expect(s).not.toAuthenticateAs(token, 'system:serviceaccount:default:builder');
    await expect(s).not.toAuthenticateAs('not-a-token', 'alice');
    expect(await failure(expect(s).toAuthenticateAs(token, 'system:serviceaccount:default:other', { audiences: ['vault'] }))).toMatch(
      /^expected the token to authenticate as "system:serviceaccount:default:other", but it authenticated as \{"username":"system:serviceaccount:default:builder".*: username "system:serviceaccount:default:builder" is not "system:serviceaccount:default:other" \(audiences \["vault"\]\)$/,
    );
    expect(await failure(expect(s).toAuthenticateAs(token, 'system:serviceaccount:default:builder'))).toMatch(/^expected the token to authenticate as "system:serviceaccount:default:builder", but it was not authenticated \(error: ".+"\)$/);
  });

  it('toHaveCondition on any object, by path or by kind', async () => {
    await expect(s).toHaveCondition('pod default/web-0', { type: 'Ready', status: 'True' });
    await expect(s).toHaveCondition('/api/v1/namespaces/default/pods/web-2', { type: 'PodScheduled', status: 'True' });
    await expect(s).toHaveCondition('csr/alice', { type: 'Approved', status: 'True', reason: 'TestApproved' });
    await expect(s).not.toHaveCondition('csr/alice', { type: 'Approved', status: 'True', reason: 'Other' });
    expect(await failure(expect(s).toHaveCondition('csr mallory', { type: 'Approved', status: 'True' }))).toBe('expected csr mallory to have condition Approved=True, but its conditions are Denied=True (TestDenied)');
    expect(await failure(expect(s).not.toHaveCondition('pod default/web-0', { type: 'Ready', status: 'True' }))).toMatch(/^expected pod default\/web-0 not to have condition Ready=True, but its conditions are .*Ready=True/);
  });

  it('toExist', async () => {
    await expect(s).toExist('serviceaccount default/builder');
    await expect(s).toExist('sa/builder');
    await expect(s).toExist('namespace default');
    await expect(s).not.toExist('pod default/web-3');
    expect(await failure(expect(s).toExist('pod default/web-3'))).toBe('expected pod default/web-3 to exist, but GET /api/v1/namespaces/default/pods/web-3 answered 404 NotFound: pods "web-3" not found');
    expect(await failure(expect(s).not.toExist('sa default/builder'))).toMatch(/^expected sa default\/builder not to exist, but GET \/api\/v1\/namespaces\/default\/serviceaccounts\/builder answered 200 \(uid [0-9a-f-]+\)$/);
  });

  it('names objects by path, kind and namespace', () => {
    expect(objectPath(s, 'statefulset default/web')).toBe('/apis/apps/v1/namespaces/default/statefulsets/web');
    expect(objectPath(s, 'StatefulSet/web')).toBe('/apis/apps/v1/namespaces/default/statefulsets/web');
    expect(objectPath(s, 'csr alice')).toBe('/apis/certificates.platform.io/v1/certificatesigningrequests/alice');
    expect(objectPath(s, '/api/v1/nodes/n')).toBe('/api/v1/nodes/n');
    expect(() => objectPath(s, 'gizmo default/x')).toThrow('cannot read "gizmo default/x" as an object');
  });

  it('refuses anything but a simulation', async () => {
    await expect(expect({}).toExist('sa/builder')).rejects.toThrow('expect(…) must be given a Simulation, got object');
  });

  it('uses the group names of k8s.io mode', async () => {
    const k = await sim({ groupDomain: 'k8s.io' });
    expect(objectPath(k, 'csr alice')).toBe('/apis/certificates.k8s.io/v1/certificatesigningrequests/alice');
    await k.create('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'b' } });
    const t = (await k.create<Body>('/api/v1/namespaces/default/serviceaccounts/b/token', { spec: {} })).body.status.token;
    await expect(k).toAuthenticateAs(t, { username: 'system:serviceaccount:default:b', groups: ['system:authenticated'] });
  });
});
