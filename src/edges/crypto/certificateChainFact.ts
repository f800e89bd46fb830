/**
 * The CertificateChainFact (api/crypto.ts) of a PEM chain presented for client authentication: the
 * leaf's subject, validity, SHA-256 and client-auth usage, and which trusted CA sets it chains to
 * (through the presented intermediates).
 */
import type { CertificateChainFact } from '../../api/crypto.ts';
import { limits } from '../../core/limits.ts';
import { hex, subtle } from './webKeys.ts';
import { pemBlocks, x509 } from './x509.ts';

export interface TrustRoots {
  readonly client: readonly x509.X509Certificate[];
  readonly requestHeader: readonly x509.X509Certificate[];
}

const clientAuthOid = '1.3.6.1.5.5.7.3.2';
const anyUsageOid = '2.5.29.37.0';

export function parseCertificates(pem: string): x509.X509Certificate[] {
  return pemBlocks(pem, 'CERTIFICATE').map((b) => new x509.X509Certificate(b));
}

async function signedBy(cert: x509.X509Certificate, issuer: x509.X509Certificate): Promise<boolean> {
  if (cert.issuer !== issuer.subject) return false;
  try {
    return await cert.verify({ publicKey: issuer, signatureOnly: true });
  } catch {
    return false;
  }
}

/** Whether the leaf chains to one of `roots`, possibly through the presented intermediates. */
async function chainsTo(leaf: x509.X509Certificate, intermediates: readonly x509.X509Certificate[], roots: readonly x509.X509Certificate[]): Promise<boolean> {
  let current = leaf;
  for (let depth = 0; depth < limits.certificateChainDepthMax; depth++) {
    for (const root of roots) if (await signedBy(current, root)) return true;
    let next: x509.X509Certificate | undefined;
    for (const c of intermediates) if (c !== current && (await signedBy(current, c))) next = c;
    if (next === undefined) return false;
    current = next;
  }
  return false;
}

export async function certificateChainFact(pem: string, roots: TrustRoots): Promise<CertificateChainFact> {
  let certs: x509.X509Certificate[];
  try {
    certs = parseCertificates(pem);
  } catch (e) {
    return { ok: false, message: `x509: malformed certificate: ${(e as Error).message}` };
  }
  const [leaf, ...rest] = certs;
  if (leaf === undefined) return { ok: false, message: 'x509: no certificate found' };
  const trustedBy: ('client' | 'requestHeader')[] = [];
  if (await chainsTo(leaf, rest, roots.client)) trustedBy.push('client');
  if (await chainsTo(leaf, rest, roots.requestHeader)) trustedBy.push('requestHeader');
  const eku = leaf.getExtension(x509.ExtendedKeyUsageExtension);
  const usages = eku === null ? null : eku.usages.map(String);
  return {
    ok: true,
    subject: { commonName: leaf.subjectName.getField('CN')[0] ?? '', organizations: leaf.subjectName.getField('O') },
    notBefore: leaf.notBefore.getTime(),
    notAfter: leaf.notAfter.getTime(),
    sha256: hex(await subtle().digest('SHA-256', leaf.rawData)),
    clientAuth: usages === null || usages.includes(clientAuthOid) || usages.includes(anyUsageOid),
    trustedBy,
  };
}

