/**
 * The HTTPS serving certificate, Ed25519, issued by the simulation's CA with validity taken from
 * the virtual start time (never the wall clock), so a seeded server presents byte-identical
 * certificates every run.
 */
import { clusterCa } from './clusterCa.ts';
import { seededEd25519Keys, seededSerialHex, subtle } from './webKeys.ts';
import { toPem, x509 } from './x509.ts';

export interface ServingMaterial {
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
}

export async function servingMaterial(seed: string, start: number, hosts: readonly string[]): Promise<ServingMaterial> {
  const ca = await clusterCa(seed, start);
  const serverKeys = await seededEd25519Keys(seed, 'serving');
  const names = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: seededSerialHex(seed, 'serving'),
    subject: 'CN=platform-sim',
    issuer: ca.certificate.subject,
    notBefore: ca.certificate.notBefore,
    notAfter: ca.certificate.notAfter,
    publicKey: serverKeys.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: { name: 'Ed25519' },
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
    ],
  });
  return { caPem: ca.pem, certPem: cert.toString('pem'), keyPem: toPem(await subtle().exportKey('pkcs8', serverKeys.privateKey), 'PRIVATE KEY') };
}
