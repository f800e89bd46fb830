/**
 * The simulation's CA, Ed25519, derived from the seed, valid from a day before the virtual start
 * time for ten years: it signs the HTTPS serving certificate and client certificates, and is
 * trusted for client authentication. Same seed and start → byte-identical certificate.
 */
import { seededEd25519Keys, seededSerialHex, subtle } from './webKeys.ts';
import { pemBlocks, toPem, x509 } from './x509.ts';
import { seededCaValidity } from './caValidity.ts';

export interface ClusterCa {
  readonly certificate: x509.X509Certificate;
  readonly keys: CryptoKeyPair;
  readonly pem: string;
}

const day = 86_400_000;
const ed25519 = { name: 'Ed25519' };

export async function clusterCa(seed: string, start: number): Promise<ClusterCa> {
  const keys = await seededEd25519Keys(seed, 'cluster-ca');
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: seededSerialHex(seed, 'cluster-ca'),
    name: 'CN=platform-sim-ca',
    notBefore: new Date(seededCaValidity(start).notBefore),
    notAfter: new Date(seededCaValidity(start).notAfter),
    keys,
    signingAlgorithm: ed25519,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, keys, pem: certificate.toString('pem') };
}

export interface ClientCertificateRequest {
  readonly user: string;
  readonly groups?: readonly string[];
  /** Validity, RFC 3339 or epoch ms; default: the CA's validity start, one year long. */
  readonly notBefore?: number;
  readonly notAfter?: number;
  /** Distinguishes several certificates of one user (different key and serial). */
  readonly name?: string;
}

export interface ClientCertificate {
  readonly certificate: string;
  readonly privateKey: string;
}

function escapeRdn(v: string): string {
  return v.replace(/([,+"\\<>;=])/g, '\\$1');
}

export async function issueClientCertificate(ca: ClusterCa, seed: string, req: ClientCertificateRequest): Promise<ClientCertificate> {
  const purpose = `client/${req.user}/${(req.groups ?? []).join(',')}/${req.name ?? ''}`;
  const keys = await seededEd25519Keys(seed, purpose);
  const notBefore = req.notBefore ?? ca.certificate.notBefore.getTime();
  const subject = [`CN=${escapeRdn(req.user)}`, ...(req.groups ?? []).map((g) => `O=${escapeRdn(g)}`)].join(', ');
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: seededSerialHex(seed, purpose),
    subject,
    issuer: ca.certificate.subject,
    notBefore: new Date(notBefore),
    notAfter: new Date(req.notAfter ?? notBefore + 365 * day),
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: ed25519,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
    ],
  });
  const pkcs8 = await subtle().exportKey('pkcs8', keys.privateKey);
  return { certificate: cert.toString('pem'), privateKey: toPem(pkcs8, 'PRIVATE KEY') };
}

/** A CA given as PEM (`clusterSigning`): the certificate and its PKCS#8 private key. */
export async function importSigningCa(certificatePem: string, privateKeyPem: string): Promise<{ certificate: x509.X509Certificate; privateKey: CryptoKey }> {
  const certificate = new x509.X509Certificate(certificatePem);
  const alg = certificate.publicKey.algorithm as Algorithm & { namedCurve?: string };
  const params: AlgorithmIdentifier | EcKeyImportParams | RsaHashedImportParams =
    alg.name === 'ECDSA' ? { name: 'ECDSA', namedCurve: alg.namedCurve ?? 'P-256' } : alg.name.startsWith('RSA') ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: alg.name };
  const der = pemBlocks(privateKeyPem, 'PRIVATE KEY')[0];
  if (der === undefined) throw new Error('the private key is not a PKCS#8 PEM (BEGIN PRIVATE KEY)');
  const bytes = Uint8Array.from(atob(der.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  const privateKey = await subtle().importKey('pkcs8', bytes, params, false, ['sign']);
  return { certificate, privateKey };
}

export interface CertificateRequestSpec {
  readonly commonName: string;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
}

/** A PKCS#10 request with an Ed25519 key derived from the seed and the subject (test material). */
export async function createCertificateRequest(seed: string, spec: CertificateRequestSpec): Promise<{ request: string; privateKey: string }> {
  const purpose = `csr/${spec.commonName}/${(spec.organizations ?? []).join(',')}/${(spec.dnsNames ?? []).join(',')}/${(spec.ipAddresses ?? []).join(',')}`;
  const keys = await seededEd25519Keys(seed, purpose);
  const name = [`CN=${escapeRdn(spec.commonName)}`, ...(spec.organizations ?? []).map((o) => `O=${escapeRdn(o)}`)].join(', ');
  const sans = [...(spec.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })), ...(spec.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value }))];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: ed25519,
    extensions: sans.length === 0 ? [] : [new x509.SubjectAlternativeNameExtension(sans)],
  });
  return { request: csr.toString('pem'), privateKey: toPem(await subtle().exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY') };
}
