/**
 * Issue 13, certificates: a CertificateSigningRequest created, approved and issued by the built-in
 * signer, one after another, in process (each request a different key, so nothing comes from the
 * fact cache), beside raw @peculiar/x509 issuance from a parsed PKCS#10 request with the same key
 * types and extensions in the same run (≥ 0.6 of it).
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createSimulation } from './package.ts';
import { fmt, rate } from './measure.ts';
import type { Row } from './store.bench.ts';

x509.cryptoProvider.set(globalThis.crypto);
const ed25519 = { name: 'Ed25519' };
const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';
const signerName = 'platform.io/apiserver-client';

/** Ready-made requests (their keys made before timing), handed out one per round trip. */
async function requests(n: number, make: (i: number) => Promise<string>): Promise<() => string> {
  const pems: string[] = [];
  for (let i = 0; i < n; i++) pems.push(await make(i));
  let next = 0;
  return () => pems[next++ % pems.length]!;
}

export async function certsBench(progress: (msg: string) => void): Promise<Row[]> {
  progress('certs: raw @peculiar/x509 issuance from a parsed request');
  const caKeys = (await crypto.subtle.generateKey(ed25519, false, ['sign', 'verify'])) as CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({ serialNumber: '01', name: 'CN=bench-ca', notBefore: new Date(0), notAfter: new Date(4e12), keys: caKeys, signingAlgorithm: ed25519 });
  const rawPem = await requests(64, async (i) => {
    const keys = (await crypto.subtle.generateKey(ed25519, true, ['sign', 'verify'])) as CryptoKeyPair;
    return (await x509.Pkcs10CertificateRequestGenerator.create({ name: `CN=user-${i}, O=bench`, keys, signingAlgorithm: ed25519 })).toString('pem');
  });
  let serial = 1;
  const raw = await rate(async () => {
    const csr = new x509.Pkcs10CertificateRequest(rawPem());
    await csr.verify();
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: (serial++).toString(16).padStart(2, '0'),
      subject: csr.subject,
      issuer: ca.subject,
      notBefore: new Date(1e12),
      notAfter: new Date(1e12 + 86_400_000),
      publicKey: csr.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: ed25519,
      extensions: [
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
        new x509.BasicConstraintsExtension(false, undefined, true),
        await x509.AuthorityKeyIdentifierExtension.create(ca),
      ],
    });
    return cert.toString('pem');
  }, 500, 5);

  progress('certs: CSR create → approve → issued through the simulation');
  const sim = await createSimulation({ seed: 1 });
  const simPem = await requests(64, async (i) => (await sim.createCertificateRequest({ commonName: `user-${i}`, organizations: ['bench'] })).request);
  let n = 0;
  const issued = await rate(async () => {
    const name = `bench-${n++}`;
    const spec = { request: Buffer.from(simPem()).toString('base64'), signerName, usages: ['digital signature', 'client auth'] };
    const created = await sim.request({ method: 'POST', path: csrs, body: { metadata: { name }, spec } });
    await sim.request({ method: 'PUT', path: `${csrs}/${name}/approval`, body: { ...(created.body as object), status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Bench' }] } } });
    const csr = (await sim.request({ method: 'GET', path: `${csrs}/${name}` })).body as { status: { certificate?: string } };
    if (csr.status.certificate === undefined) throw new Error('certs bench: the request was not issued');
  }, 500, 5);
  const share = issued.opsPerSecond / raw.opsPerSecond;
  return [
    {
      what: 'CSR create → approve → issued, one after another (/s)',
      value: `${fmt(issued.opsPerSecond)} (${share.toFixed(2)} of raw)`,
      baseline: `${fmt(raw.opsPerSecond)} (raw @peculiar/x509: parse, verify, issue)`,
      target: '≥ 0.6 of raw',
      ok: share >= 0.6,
    },
  ];
}
