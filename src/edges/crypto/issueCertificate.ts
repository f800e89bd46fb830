/**
 * The built-in signers' certificate (certificates.md §6.4), made at the edge: the request's
 * subject, public key and SANs; key usages (no extension when none is set) and extended key
 * usages from `spec.usages`; basic constraints CA=false; the authority key identifier of the
 * signing CA; validity and a serial decided by the core (the serial derived from the seed and
 * the request's uid). With the seeded Ed25519 CA the same inputs give the same certificate, byte
 * for byte.
 */
import type { CertificateIssue, IssuedCertificateFact } from '../../api/crypto.ts';
import { decodePem } from '../../registry/certificates/pem.ts';
import { rememberedRequest } from './certificateRequestFact.ts';
import { seededSerialHex } from './webKeys.ts';
import { x509 } from './x509.ts';
import { getOwn } from '../../core/json.ts';

export interface SigningCa {
  readonly certificate: x509.X509Certificate;
  readonly privateKey: CryptoKey;
}

const keyUsages: Readonly<Record<string, number>> = {
  signing: x509.KeyUsageFlags.digitalSignature,
  'digital signature': x509.KeyUsageFlags.digitalSignature,
  'content commitment': x509.KeyUsageFlags.nonRepudiation,
  'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'key agreement': x509.KeyUsageFlags.keyAgreement,
  'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign,
  'crl sign': x509.KeyUsageFlags.cRLSign,
  'encipher only': x509.KeyUsageFlags.encipherOnly,
  'decipher only': x509.KeyUsageFlags.decipherOnly,
};

const extendedUsages: Readonly<Record<string, string>> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

/** The signature algorithm that goes with the CA's key. */
function signingAlgorithm(key: CryptoKey): Algorithm | EcdsaParams | RsaHashedImportParams {
  const name = key.algorithm.name;
  if (name === 'ECDSA') return { name, hash: 'SHA-256' } as EcdsaParams;
  if (name === 'RSASSA-PKCS1-v1_5') return { name, hash: 'SHA-256' } as RsaHashedImportParams;
  return { name };
}

/** The authority key identifier of each signing CA, worked out (a digest) once. */
const authorityKeyIds = new WeakMap<x509.X509Certificate, Promise<x509.AuthorityKeyIdentifierExtension>>();

function authorityKeyId(ca: x509.X509Certificate): Promise<x509.AuthorityKeyIdentifierExtension> {
  let id = authorityKeyIds.get(ca);
  if (id === undefined) {
    authorityKeyIds.set(ca, (id = x509.AuthorityKeyIdentifierExtension.create(ca)));
    // A failure is not kept: the next issuance tries again.
    id.catch(() => authorityKeyIds.delete(ca));
  }
  return id;
}

/**
 * Extensions are immutable values the generator only reads (their DER): made once per content,
 * as encoding one costs more than signing. Bounded: usages come from clients, in any order.
 */
const extensionsKeptMax = 64;
const keyUsageExtensions = new Map<number, x509.KeyUsagesExtension>();
const extendedKeyUsageExtensions = new Map<string, x509.ExtendedKeyUsageExtension>();
let notCaExtension: x509.BasicConstraintsExtension | undefined;

function kept<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= extensionsKeptMax) map.delete(map.keys().next().value!);
    map.set(key, (value = make()));
  }
  return value;
}

const keyUsageExtension = (flags: number): x509.KeyUsagesExtension => kept(keyUsageExtensions, flags, () => new x509.KeyUsagesExtension(flags, true));

const extendedKeyUsageExtension = (oids: readonly string[]): x509.ExtendedKeyUsageExtension => kept(extendedKeyUsageExtensions, oids.join(' '), () => new x509.ExtendedKeyUsageExtension([...oids]));

const notCa = (): x509.BasicConstraintsExtension => (notCaExtension ??= new x509.BasicConstraintsExtension(false, undefined, true));

function parseRequest(pem: string): x509.Pkcs10CertificateRequest | string {
  const remembered = rememberedRequest(pem);
  if (remembered !== undefined) return remembered;
  const found = decodePem(pem);
  if (found === null || found.block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    return new x509.Pkcs10CertificateRequest(new Uint8Array(found.block.bytes));
  } catch {
    return 'x509: malformed certificate request';
  }
}

/**
 * The fact and, when issued, the certificate as the issuance parsed it and the extended key
 * usages written into it (factsOfIssued reads them). Basic constraints are always CA=false.
 */
export type Issued = IssuedLeafCertificate | { readonly fact: IssuedCertificateFact & { readonly ok: false } };

export interface IssuedLeafCertificate {
  readonly fact: IssuedCertificateFact & { readonly ok: true };
  readonly certificate: x509.X509Certificate;
  readonly extendedKeyUsages: readonly string[] | null;
}

export async function issueCertificate(ca: SigningCa, seed: string, issue: CertificateIssue): Promise<Issued> {
  const csr = parseRequest(issue.request);
  if (typeof csr === 'string') return { fact: { ok: false, message: csr } };
  let flags = 0;
  for (const u of issue.usages) flags |= getOwn(keyUsages, u) ?? 0;
  const ekus = [...new Set(issue.usages.map((u) => getOwn(extendedUsages, u)).filter((o): o is string => o !== undefined))];
  const san = csr.extensions.find((e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension);
  // Go's x509 writes no KeyUsage extension when no bit is set (usages like `client auth` alone):
  // an empty critical one is refused by OpenSSL 3 and Node.
  const extensions: x509.Extension[] = [
    ...(flags === 0 ? [] : [keyUsageExtension(flags)]),
    ...(ekus.length > 0 ? [extendedKeyUsageExtension(ekus)] : []),
    notCa(),
    await authorityKeyId(ca.certificate),
    ...(san === undefined ? [] : [new x509.SubjectAlternativeNameExtension(san.names.toJSON())]),
  ];
  try {
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: seededSerialHex(seed, `csr/${issue.serialSeed}`),
      subject: csr.subjectName,
      issuer: ca.certificate.subjectName,
      notBefore: new Date(issue.notBefore),
      notAfter: new Date(issue.notAfter),
      publicKey: csr.publicKey,
      signingKey: ca.privateKey,
      signingAlgorithm: signingAlgorithm(ca.privateKey),
      extensions,
    });
    return { fact: { ok: true, pem: cert.toString('pem') }, certificate: cert, extendedKeyUsages: ekus.length > 0 ? ekus : null };
  } catch (e) {
    return { fact: { ok: false, message: `failed to sign certificate: ${(e as Error).message}` } };
  }
}

