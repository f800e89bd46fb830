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

function sameDer(a: x509.X509Certificate, b: x509.X509Certificate): boolean {
  if (a === b) return true;
  const x = new Uint8Array(a.rawData);
  const y = new Uint8Array(b.rawData);
  return x.length === y.length && x.every((byte, i) => byte === y[i]);
}

/**
 * `signer`: the CA that has just signed `cert` itself (an issuance), whose signature on it needs
 * no checking.
 */
async function signedBy(cert: x509.X509Certificate, issuer: x509.X509Certificate, signer?: x509.X509Certificate): Promise<boolean> {
  if (cert.issuer !== issuer.subject) return false;
  if (signer !== undefined && sameDer(issuer, signer)) return true;
  try {
    return await cert.verify({ publicKey: issuer, signatureOnly: true });
  } catch {
    return false;
  }
}

/** Whether the leaf chains to one of `roots`, possibly through the presented intermediates. */
async function chainsTo(leaf: x509.X509Certificate, intermediates: readonly x509.X509Certificate[], roots: readonly x509.X509Certificate[], leafSigner?: x509.X509Certificate): Promise<boolean> {
  let current = leaf;
  for (let depth = 0; depth < limits.certificateChainDepthMax; depth++) {
    const signer = current === leaf ? leafSigner : undefined;
    for (const root of roots) if (await signedBy(current, root, signer)) return true;
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
  return chainFactOf(certs, roots);
}

/** What the issuance of a leaf knows of it without reading it back. */
export interface IssuedLeaf {
  /** The CA that has just signed it. */
  readonly signer: x509.X509Certificate;
  /** The extended key usages it was written with (null: no such extension). */
  readonly extendedKeyUsages: readonly string[] | null;
}

/** The fact of parsed certificates; `issued` when the leaf is one the signer has just made. */
export async function chainFactOf(certs: readonly x509.X509Certificate[], roots: TrustRoots, issued?: IssuedLeaf): Promise<CertificateChainFact> {
  const [leaf, ...rest] = certs;
  if (leaf === undefined) return { ok: false, message: 'x509: no certificate found' };
  const trustedBy: ('client' | 'requestHeader')[] = [];
  if (await chainsTo(leaf, rest, roots.client, issued?.signer)) trustedBy.push('client');
  if (await chainsTo(leaf, rest, roots.requestHeader, issued?.signer)) trustedBy.push('requestHeader');
  // Reading extensions back costs a parse of each; an issuance knows what it wrote.
  const usages = issued !== undefined ? issued.extendedKeyUsages : (leaf.getExtension(x509.ExtendedKeyUsageExtension)?.usages.map(String) ?? null);
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

