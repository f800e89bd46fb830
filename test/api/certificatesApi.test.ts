/**
 * CertificateSigningRequests through the API: create records the requesting user, byte fields
 * must be base64, approval through /approval, a certificate through /status only once approved,
 * the spec frozen (contract divergence), subject restriction for system:masters, kubectl-style
 * Table columns.
 */
import { describe, expect, it } from 'vitest';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { x509 } from '../../src/edges/crypto/x509.ts';
import { sim, type Body } from '../helpers.ts';

const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';
const b64 = (text: string): string => bytesToBase64(utf8Encode(text));

async function csrPem(cn: string, o: string[] = []): Promise<string> {
  const keys = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const name = [`CN=${cn}`, ...o.map((g) => `O=${g}`)].join(', ');
  const req = await x509.Pkcs10CertificateRequestGenerator.create({ name, keys, signingAlgorithm: { name: 'Ed25519' } });
  return req.toString('pem');
}

const body = (name: string, request: string, signerName = 'example.com/signer') => ({
  metadata: { name },
  spec: { request: b64(request), signerName, usages: ['client auth'] },
});

describe('CertificateSigningRequest API', () => {
  it('records the requesting user and starts with an empty status', async () => {
    const s = await sim();
    const pem = await csrPem('alice');
    const res = await s.request({ method: 'POST', path: csrs, body: { ...body('c1', pem), spec: { ...body('c1', pem).spec, username: 'mallory' }, status: { conditions: [{ type: 'Approved', status: 'True' }] } }, as: { user: 'alice', uid: 'u1', groups: ['system:masters', 'dev'] } });
    expect(res.status).toBe(201);
    const csr = res.body as Body;
    expect(csr.spec).toMatchObject({ username: 'alice', uid: 'u1', groups: ['system:masters', 'dev', 'system:authenticated'] });
    expect(csr.status).toEqual({});
  });

  it('refuses a request field that is not base64, as the decoder does', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'c' }, spec: { request: 'not base64!', signerName: 'example.com/s', usages: ['client auth'] } } });
    expect(res.status).toBe(400);
    expect((res.body as Body).message).toBe('CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: illegal base64 data at input byte 3');
  });

  it('refuses a request that is not a signed PKCS#10 request (422)', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: csrs, body: body('c', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n') });
    expect(res.status).toBe(422);
    expect((res.body as Body).details.causes[0]).toMatchObject({ field: 'spec.request', reason: 'FieldValueInvalid' });
  });

  it('approves through /approval and takes a certificate through /status only once approved', async () => {
    const s = await sim();
    const created = (await s.request({ method: 'POST', path: csrs, body: body('c1', await csrPem('alice')) })).body as Body;
    const cert = (await s.issueClientCertificate({ user: 'alice' })).certificate;
    const early = await s.request({ method: 'PUT', path: `${csrs}/c1/status`, body: { ...created, status: { certificate: b64(cert) } } });
    expect(early.status).toBe(422);
    expect((early.body as Body).details.causes[0].field).toBe('status.certificate');
    const approved = await s.request({
      method: 'PUT',
      path: `${csrs}/c1/approval`,
      body: { ...created, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'AdminApproval', message: 'ok' }] } },
    });
    expect(approved.status).toBe(200);
    expect((approved.body as Body).status.conditions[0]).toEqual({ type: 'Approved', status: 'True', reason: 'AdminApproval', message: 'ok', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' });
    const issued = await s.request({ method: 'PUT', path: `${csrs}/c1/status`, body: { ...(approved.body as Body), status: { ...(approved.body as Body).status, certificate: b64(cert) } } });
    expect(issued.status).toBe(200);
    const table = (await s.request({ method: 'GET', path: csrs, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).body as Body;
    expect(table.columnDefinitions.map((c: Body) => c.name)).toEqual(expect.arrayContaining(['Name', 'Age', 'SignerName', 'Requestor', 'Condition']));
    expect(table.rows[0].cells).toEqual(expect.arrayContaining(['c1', 'example.com/signer', 'system:admin', 'Approved,Issued']));
  });

  it('rejects spec changes with field is immutable on the resource, /approval and /status alike (contract divergence)', async () => {
    const s = await sim();
    const created = (await s.request({ method: 'POST', path: csrs, body: body('c1', await csrPem('alice')) })).body as Body;
    const changed = { ...created.spec, signerName: 'example.com/other' };
    const invalid = {
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: 'CertificateSigningRequest.certificates.platform.io "c1" is invalid: spec.signerName: Invalid value: "example.com/other": field is immutable',
      details: { name: 'c1', group: 'certificates.platform.io', kind: 'CertificateSigningRequest', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "example.com/other": field is immutable', field: 'spec.signerName' }] },
    };
    const approval = { conditions: [{ type: 'Approved', status: 'True', reason: 'AdminApproval' }] };
    const put = (sub: string, status: Body) => s.request({ method: 'PUT', path: `${csrs}/c1${sub}`, body: { ...created, spec: changed, status } });
    for (const res of [await put('', {}), await put('/approval', approval), await put('/status', { conditions: [{ type: 'Failed', status: 'True' }] })]) {
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject(invalid);
    }
    const patched = await s.request({ method: 'PATCH', path: `${csrs}/c1/approval`, headers: { 'content-type': 'application/merge-patch+json' }, body: { spec: { usages: ['server auth'] }, status: approval } });
    expect(patched.status).toBe(422);
    expect((patched.body as Body).details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: ["server auth"]: field is immutable', field: 'spec.usages' }]);
    const after = (await s.request({ method: 'GET', path: `${csrs}/c1` })).body as Body;
    expect(after.spec).toEqual(created.spec);
    expect(after.status).toEqual({});
    expect((await s.request({ method: 'PUT', path: `${csrs}/c1/approval`, body: { ...created, status: approval } })).status).toBe(200);
  });

  it('lets a node create node-agent CSRs only for its own name (NodeRestriction, before validation)', async () => {
    const s = await sim();
    const rbac = '/apis/rbac.authorization.platform.io/v1';
    await s.request({ method: 'POST', path: `${rbac}/clusterroles`, body: { metadata: { name: 'csr-creator' }, rules: [{ verbs: ['create'], apiGroups: ['certificates.platform.io'], resources: ['certificatesigningrequests'] }] } });
    await s.request({ method: 'POST', path: `${rbac}/clusterrolebindings`, body: { metadata: { name: 'nodes' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'csr-creator' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:nodes' }] } });
    const n1 = { user: 'system:node:n1', groups: ['system:nodes'] };
    const create = async (name: string, cn: string, signerName: string, as: { user: string; groups?: string[] } = n1, request?: string) =>
      s.request({ method: 'POST', path: csrs, as, body: { metadata: { name }, spec: { request: request ?? b64(await csrPem(cn, ['system:nodes'])), signerName, usages: ['digital signature', 'client auth'] } } });
    const forbidden = (name: string, message: string) => ({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: `certificatesigningrequests.certificates.platform.io "${name}" is forbidden: ${message}`,
      details: { name, group: 'certificates.platform.io', kind: 'certificatesigningrequests' },
    });
    const client = 'platform.io/apiserver-client-nodeagent';
    const serving = 'platform.io/nodeagent-serving';
    expect((await create('own', 'system:node:n1', client)).status).toBe(201);
    expect((await create('own-serving', 'system:node:n1', serving)).status).toBe(201);
    for (const [name, cn, signer] of [['other', 'system:node:n2', client], ['plain', 'mike', client], ['other-serving', 'system:node:n2', serving]] as const) {
      const res = await create(name, cn, signer);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject(forbidden(name, 'can only create a node CSR with CN=system:node:n1'));
    }
    // Other signers and callers that are not node identities are not restricted.
    expect((await create('custom', 'system:node:n2', 'example.com/signer')).status).toBe(201);
    expect((await create('admin', 'system:node:n2', client, { user: 'admin', groups: ['system:masters'] })).status).toBe(201);
    expect((await create('no-group', 'system:node:n2', client, { user: 'system:node:n1', groups: ['system:masters'] })).status).toBe(201);
    // A mutating plugin upstream: its 403 comes before validation's 422.
    const garbage = await create('garbage', '', client, n1, b64('not a request'));
    expect(garbage.body).toMatchObject(forbidden('garbage', 'unable to parse csr: PEM block type must be CERTIFICATE REQUEST'));
    const nameless = await create('nameless', 'system:node:', 'example.com/signer', { user: 'system:node:', groups: ['system:nodes'] });
    expect(nameless.body).toMatchObject(forbidden('nameless', 'could not determine node from user "system:node:"'));
  });

  it('refuses system:masters for the API-server client signer (403)', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: csrs, body: body('c1', await csrPem('eve', ['system:masters']), 'platform.io/apiserver-client') });
    expect(res.status).toBe(403);
    expect((res.body as Body).message).toBe('certificatesigningrequests.certificates.platform.io "c1" is forbidden: use of platform.io/apiserver-client signer with system:masters group is not allowed');
  });
});

describe('certificate admission: approve, sign, attest', () => {
  const rbac = '/apis/rbac.authorization.platform.io/v1';
  async function grant(s: Awaited<ReturnType<typeof sim>>, name: string, rules: Body[]) {
    await s.request({ method: 'POST', path: `${rbac}/clusterroles`, body: { metadata: { name }, rules } });
    await s.request({ method: 'POST', path: `${rbac}/clusterrolebindings`, body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'bob' }] } });
  }

  it('needs approve on the signer for /approval, exactly or by domain wildcard', async () => {
    const s = await sim();
    const created = (await s.request({ method: 'POST', path: csrs, body: body('c1', await csrPem('alice')) })).body as Body;
    await grant(s, 'csr-writer', [{ verbs: ['get', 'update'], apiGroups: ['certificates.platform.io'], resources: ['certificatesigningrequests/approval', 'certificatesigningrequests/status'] }]);
    const approve = () => s.request({ method: 'PUT', path: `${csrs}/c1/approval`, as: { user: 'bob' }, body: { ...created, status: { conditions: [{ type: 'Approved', status: 'True' }] } } });
    const denied = await approve();
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      reason: 'Forbidden',
      message: 'certificatesigningrequests.certificates.platform.io "c1" is forbidden: user not permitted to approve requests with signerName "example.com/signer"',
      details: { name: 'c1', group: 'certificates.platform.io', kind: 'certificatesigningrequests' },
    });
    await grant(s, 'approver', [{ verbs: ['approve'], apiGroups: ['certificates.platform.io'], resources: ['signers'], resourceNames: ['example.com/*'] }]);
    const approved = await approve();
    expect(approved.status).toBe(200);
    const cert = (await s.issueClientCertificate({ user: 'alice' })).certificate;
    const sign = await s.request({ method: 'PUT', path: `${csrs}/c1/status`, as: { user: 'bob' }, body: { ...(approved.body as Body), status: { ...(approved.body as Body).status, certificate: b64(cert) } } });
    expect((sign.body as Body).message).toBe('certificatesigningrequests.certificates.platform.io "c1" is forbidden: user not permitted to sign requests with signerName "example.com/signer"');
    await grant(s, 'signer', [{ verbs: ['sign'], apiGroups: ['certificates.platform.io'], resources: ['signers'], resourceNames: ['example.com/signer'] }]);
    const signed = await s.request({ method: 'PUT', path: `${csrs}/c1/status`, as: { user: 'bob' }, body: { ...(approved.body as Body), status: { ...(approved.body as Body).status, certificate: b64(cert) } } });
    expect(signed.status).toBe(200);
  });

  it('needs attest on the signer for a linked ClusterTrustBundle', async () => {
    const s = await sim();
    const ctbs = '/apis/certificates.platform.io/v1beta1/clustertrustbundles';
    await grant(s, 'ctb-writer', [{ verbs: ['create', 'update'], apiGroups: ['certificates.platform.io'], resources: ['clustertrustbundles'] }]);
    const bundle = { spec: { trustBundle: await s.caCertificate() } };
    expect((await s.request({ method: 'POST', path: ctbs, as: { user: 'bob' }, body: { metadata: { name: 'plain' }, ...bundle } })).status).toBe(201);
    const linked = await s.request({ method: 'POST', path: ctbs, as: { user: 'bob' }, body: { metadata: { name: 'example.com:signer:a' }, spec: { ...bundle.spec, signerName: 'example.com/signer' } } });
    expect(linked.status).toBe(403);
    expect((linked.body as Body).message).toBe('clustertrustbundles.certificates.platform.io "example.com:signer:a" is forbidden: user not permitted to attest for signerName "example.com/signer"');
    await grant(s, 'attester', [{ verbs: ['attest'], apiGroups: ['certificates.platform.io'], resources: ['signers'], resourceNames: ['example.com/*'] }]);
    expect((await s.request({ method: 'POST', path: ctbs, as: { user: 'bob' }, body: { metadata: { name: 'example.com:signer:a' }, spec: { ...bundle.spec, signerName: 'example.com/signer' } } })).status).toBe(201);
  });
});
