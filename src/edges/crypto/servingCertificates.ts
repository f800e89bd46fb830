/**
 * The simulation's CA and the HTTPS serving certificate, Ed25519, derived from the seed with
 * validity taken from the virtual start time (never the wall clock), so a seeded server presents
 * byte-identical certificates every run.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { seededEd25519, seededSerial } from './seededKeys.ts';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface ServingMaterial {
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
}

const day = 86_400_000;

export async function servingMaterial(seed: string, start: number, hosts: readonly string[]): Promise<ServingMaterial> {
  const caKeys = await seededEd25519(seed, 'cluster-ca');
  const alg = { name: 'Ed25519' };
  const notBefore = new Date(start - day);
  const notAfter = new Date(start + 3650 * day);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: seededSerial(seed, 'cluster-ca'),
    name: 'CN=platform-sim-ca',
    notBefore,
    notAfter,
    keys: caKeys.cryptoKeys,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.cryptoKeys.publicKey),
    ],
  });
  const serverKeys = await seededEd25519(seed, 'serving');
  const names = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: seededSerial(seed, 'serving'),
    subject: 'CN=platform-sim',
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: serverKeys.cryptoKeys.publicKey,
    signingKey: caKeys.cryptoKeys.privateKey,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.cryptoKeys.publicKey),
    ],
  });
  return {
    caPem: ca.toString('pem'),
    certPem: cert.toString('pem'),
    keyPem: serverKeys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}
