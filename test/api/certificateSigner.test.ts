/**
 * The built-in signers: an approved request is issued by the cluster CA with the real contents
 * and validity, or failed with the signer's reason; the issued client certificate logs in. Every
 * issued certificate is checked with node:crypto and `openssl verify` (issuedCertificates.ts).
 */
import { describe, expect, it } from 'vitest';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { toPem, x509 } from '../../src/edges/crypto/x509.ts';
import { sim, type Body } from '../helpers.ts';
import { expectVerifies } from '../issuedCertificates.ts';

const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';
const b64 = (text: string): string => bytesToBase64(utf8Encode(text));

async function csrPem(name: string, extensions: x509.Extension[] = []): Promise<string> {
  const keys = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  return (await x509.Pkcs10CertificateRequestGenerator.create({ name, keys, signingAlgorithm: { name: 'Ed25519' }, extensions })).toString('pem');
}

type Sim = Awaited<ReturnType<typeof sim>>;

/** The certificate of an issued request, verified against the CA that signed it. */
async function issued(s: Sim, csr: Body, caPem?: string): Promise<x509.X509Certificate> {
  const pem = Buffer.from(csr.status.certificate, 'base64').toString('utf8');
  expectVerifies(pem, caPem ?? (await s.caCertificate()), s.now());
  return new x509.X509Certificate(pem);
}

/** Creates and approves a request; a certificate the signer then issues is verified at once. */
async function submitAndApprove(s: Sim, name: string, spec: Body, caPem?: string): Promise<Body> {
  const created = (await s.request({ method: 'POST', path: csrs, body: { metadata: { name }, spec } })).body as Body;
  expect(created.metadata?.name, JSON.stringify(created)).toBe(name);
  await s.request({ method: 'PUT', path: `${csrs}/${name}/approval`, body: { ...created, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }] } } });
  const csr = (await s.request({ method: 'GET', path: `${csrs}/${name}` })).body as Body;
  if (csr.status.certificate !== undefined) await issued(s, csr, caPem);
  return csr;
}

describe('built-in signers', () => {
  it('issue an approved API-server client certificate with the real contents', async () => {
    const s = await sim();
    const csr = await submitAndApprove(s, 'alice', { request: b64(await csrPem('CN=alice, O=dev')), signerName: 'platform.io/apiserver-client', usages: ['digital signature', 'client auth'] });
    const cert = await issued(s, csr);
    expect(cert.subjectName.getField('CN')).toEqual(['alice']);
    expect(cert.subjectName.getField('O')).toEqual(['dev']);
    expect(cert.issuerName.getField('CN')).toEqual(['platform-sim-ca']);
    expect(cert.notBefore.toISOString()).toBe('2025-12-31T23:55:00.000Z');
    expect(cert.notAfter.toISOString()).toBe('2026-12-31T23:55:00.000Z');
    expect(cert.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(false);
    expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages.map(String)).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.digitalSignature);
    // Issued by the simulation's CA: the certificate logs its holder in.
    const who = await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/selfsubjectreviews', body: {}, clientCertificate: cert.toString('pem') });
    expect((who.body as Body).status.userInfo).toMatchObject({ username: 'alice', groups: ['dev', 'system:authenticated'] });
  });

  it('write no KeyUsage extension when the usages set no key-usage bit, as Go x509 (OpenSSL and Node refuse an empty one)', async () => {
    const s = await sim();
    const csr = await submitAndApprove(s, 'bare', { request: b64(await csrPem('CN=bare')), signerName: 'platform.io/apiserver-client', usages: ['client auth'] });
    const cert = await issued(s, csr);
    expect(cert.extensions.map((e) => e.type)).not.toContain('2.5.29.15');
    expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages.map(String)).toEqual(['1.3.6.1.5.5.7.3.2']);
    const both = await issued(s, await submitAndApprove(s, 'both', { request: b64(await csrPem('CN=both')), signerName: 'platform.io/apiserver-client', usages: ['key encipherment', 'client auth'] }));
    expect(both.getExtension(x509.KeyUsagesExtension)).toMatchObject({ critical: true, usages: x509.KeyUsageFlags.keyEncipherment });
  });

  it('sign with a clusterSigning CA of another key type (ECDSA P-256), verifiable by OpenSSL and Node', async () => {
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
    const keys = (await globalThis.crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
    const ca = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '0a',
      name: 'CN=ecdsa-signing-ca',
      notBefore: new Date('2025-01-01T00:00:00Z'),
      notAfter: new Date('2030-01-01T00:00:00Z'),
      keys,
      signingAlgorithm: alg,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    const caPem = ca.toString('pem');
    const privateKey = toPem(await globalThis.crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
    const s = await sim({ clusterSigning: { certificate: caPem, privateKey } });
    const spec = async (cn: string, usages: string[]) => ({ request: b64(await csrPem(`CN=${cn}`)), signerName: 'platform.io/apiserver-client', usages });
    for (const [name, usages] of [['ec-bare', ['client auth']], ['ec-full', ['digital signature', 'key encipherment', 'client auth']]] as const) {
      const cert = await issued(s, await submitAndApprove(s, name, await spec(name, [...usages]), caPem), caPem);
      expect(cert.issuerName.getField('CN')).toEqual(['ecdsa-signing-ca']);
      expect(cert.signatureAlgorithm).toMatchObject({ name: 'ECDSA', hash: { name: 'SHA-256' } });
    }
  });

  it('honours expirationSeconds within clusterSigningDuration, with the 5-minute backdate', async () => {
    const s = await sim({ clusterSigningDuration: '24h' });
    const hours = async (name: string, seconds?: number): Promise<number> => {
      const csr = await submitAndApprove(s, name, { request: b64(await csrPem(`CN=${name}`)), signerName: 'platform.io/apiserver-client', usages: ['client auth'], ...(seconds === undefined ? {} : { expirationSeconds: seconds }) });
      const c = await issued(s, csr);
      return (c.notAfter.getTime() - c.notBefore.getTime()) / 3600_000;
    };
    expect(await hours('none')).toBe(24);
    expect(await hours('long', 48 * 3600)).toBe(24);
    expect(await hours('ten', 10 * 3600)).toBe(10);
    expect(await hours('two', 2 * 3600)).toBe(2 + 5 / 60);
    expect(await hours('short', 600)).toBe(0.25);
  });

  it('fail requests their signer refuses, with the real reasons', async () => {
    const s = await sim();
    const failedWith = async (name: string, subject: string, signerName: string, usages: string[], extensions: x509.Extension[] = []) => {
      const csr = await submitAndApprove(s, name, { request: b64(await csrPem(subject, extensions)), signerName, usages });
      expect(csr.status.certificate).toBeUndefined();
      return csr.status.conditions.find((c: Body) => c.type === 'Failed');
    };
    expect(await failedWith('a', 'CN=a', 'platform.io/apiserver-client', ['server auth', 'client auth'])).toMatchObject({ status: 'True', reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' });
    expect((await failedWith('b', 'CN=system:node:n1, O=dev', 'platform.io/apiserver-client-nodeagent', ['digital signature', 'client auth'])).message).toBe('subject organization is not system:nodes');
    expect((await failedWith('c', 'CN=n1, O=system:nodes', 'platform.io/apiserver-client-nodeagent', ['digital signature', 'client auth'])).message).toBe('subject common name does not begin with system:node:');
    expect((await failedWith('d', 'CN=system:node:n1, O=system:nodes', 'platform.io/nodeagent-serving', ['digital signature', 'server auth'])).message).toBe('DNS or IP subjectAltName is required');
    const serving = await submitAndApprove(s, 'e', {
      request: b64(await csrPem('CN=system:node:n1, O=system:nodes', [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'n1.local' }])])),
      signerName: 'platform.io/nodeagent-serving',
      usages: ['digital signature', 'key encipherment', 'server auth'],
    });
    const cert = await issued(s, serving);
    expect(cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.items.map((n) => n.value)).toEqual(['n1.local']);
  });

  it('leaves custom signers and pending requests alone; issues byte-identical certificates per seed', async () => {
    const pem = await csrPem('CN=x');
    const run = async () => {
      const s = await sim();
      const custom = await submitAndApprove(s, 'custom', { request: b64(pem), signerName: 'example.com/custom', usages: ['client auth'] });
      expect(custom.status.certificate).toBeUndefined();
      const pending = (await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'pending' }, spec: { request: b64(pem), signerName: 'platform.io/apiserver-client', usages: ['client auth'] } } })).body as Body;
      expect(pending.status).toEqual({});
      const csr = await submitAndApprove(s, 'det', { request: b64(pem), signerName: 'platform.io/apiserver-client', usages: ['client auth'] });
      return { certificate: csr.status.certificate as string, serial: (await issued(s, csr)).serialNumber };
    };
    const a = await run();
    expect(a.serial).toMatch(/^[0-9a-f]{32}$/);
    expect((await run()).certificate).toBe(a.certificate);
  });
});

describe('CSR cleaner', () => {
  const submit = async (s: Sim, name: string, extra: Body = {}) =>
    (await s.request({ method: 'POST', path: csrs, body: { metadata: { name }, spec: { request: b64(await csrPem(`CN=${name}`)), signerName: 'example.com/s', usages: ['client auth'], ...extra } } })).body as Body;
  const exists = async (s: Sim, name: string) => (await s.request({ method: 'GET', path: `${csrs}/${name}` })).status === 200;

  it('deletes pending requests after 24 h and decided ones an hour after the decision, at that moment', async () => {
    const s = await sim();
    await submit(s, 'pending');
    const denied = await submit(s, 'denied');
    await s.request({ method: 'PUT', path: `${csrs}/denied/approval`, body: { ...denied, status: { conditions: [{ type: 'Denied', status: 'True' }] } } });
    await s.advance('1h');
    expect(await exists(s, 'denied')).toBe(true);
    await s.advance('1s');
    expect(await exists(s, 'denied')).toBe(false);
    await s.advance('22h59m59s');
    expect(s.now()).toBe('2026-01-02T00:00:00Z');
    expect(await exists(s, 'pending')).toBe(true);
    await s.advance('1s');
    expect(await exists(s, 'pending')).toBe(false);
  });

  it('deletes an issued request when its certificate expires, and approved ones after an hour', async () => {
    const s = await sim();
    await submitAndApprove(s, 'brief', { request: b64(await csrPem('CN=brief')), signerName: 'platform.io/apiserver-client', usages: ['client auth'], expirationSeconds: 600 });
    await submitAndApprove(s, 'long', { request: b64(await csrPem('CN=long')), signerName: 'platform.io/apiserver-client', usages: ['client auth'] });
    await s.advance('10m');
    expect(await exists(s, 'brief')).toBe(true);
    await s.advance('1s');
    expect(await exists(s, 'brief')).toBe(false);
    expect(await exists(s, 'long')).toBe(true);
    await s.advance('50m');
    expect(await exists(s, 'long')).toBe(false);
  });
});

describe('node-agent client approver', () => {
  it('approves node client requests whose creator may create nodeclient CSRs; the signer then issues', async () => {
    const s = await sim();
    const rbac = '/apis/rbac.authorization.platform.io/v1';
    await s.request({ method: 'POST', path: `${rbac}/clusterroles`, body: { metadata: { name: 'nodeclient' }, rules: [{ verbs: ['create'], apiGroups: ['certificates.platform.io'], resources: ['certificatesigningrequests/nodeclient'] }] } });
    await s.request({ method: 'POST', path: `${rbac}/clusterrolebindings`, body: { metadata: { name: 'bootstrappers' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'nodeclient' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:bootstrappers' }] } });
    await s.request({ method: 'POST', path: `${rbac}/clusterroles`, body: { metadata: { name: 'csr-creator' }, rules: [{ verbs: ['create', 'get'], apiGroups: ['certificates.platform.io'], resources: ['certificatesigningrequests'] }] } });
    await s.request({ method: 'POST', path: `${rbac}/clusterrolebindings`, body: { metadata: { name: 'csr-creators' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'csr-creator' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:bootstrappers' }, { kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'stranger' }] } });
    const spec = async (cn: string) => ({ request: b64(await csrPem(`CN=${cn}, O=system:nodes`)), signerName: 'platform.io/apiserver-client-nodeagent', usages: ['digital signature', 'client auth'] });
    await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'boot' }, spec: await spec('system:node:n1') }, as: { user: 'system:bootstrap:abc', groups: ['system:bootstrappers'] } });
    await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'nope' }, spec: await spec('system:node:n2') }, as: { user: 'stranger' } });
    const boot = (await s.request({ method: 'GET', path: `${csrs}/boot` })).body as Body;
    expect(boot.status.conditions[0]).toMatchObject({ type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' });
    expect((await issued(s, boot)).subjectName.getField('CN')).toEqual(['system:node:n1']);
    const nope = (await s.request({ method: 'GET', path: `${csrs}/nope` })).body as Body;
    expect(nope.status).toEqual({});
  });
});
