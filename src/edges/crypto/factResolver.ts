/**
 * Establishes the crypto facts a step asked for (api/crypto.ts): signs service-account tokens,
 * checks JWS signatures, parses and verifies client certificate chains against the trusted CAs,
 * parses certificate requests. Facts are pure functions of their inputs, so they are cached
 * (bounded) across steps: the same token presented again is not verified again.
 */
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import type { CertificateChainFact } from '../../api/crypto.ts';
import { limits } from '../../core/limits.ts';
import { factKey, type Need } from '../../sim/factBook.ts';
import { certificateRequestFact } from './certificateRequestFact.ts';
import { parsedCertificatesFact } from './parsedCertificatesFact.ts';
import { issueCertificate, type SigningCa } from './issueCertificate.ts';
import type { SigningKey } from './serviceAccountKeys.ts';
import { hex, subtle } from './webKeys.ts';
import { base64UrlDecode, base64UrlEncode, utf8Decode } from '../../core/base64.ts';
import { pemBlocks, x509 } from './x509.ts';

export interface TrustRoots {
  readonly client: readonly x509.X509Certificate[];
  readonly requestHeader: readonly x509.X509Certificate[];
}

export interface FactResolver {
  readonly facts: ReadonlyMap<string, unknown>;
  resolve(needs: readonly Need[]): Promise<void>;
}

const encoder = new TextEncoder();
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

async function certificateChainFact(pem: string, roots: TrustRoots): Promise<CertificateChainFact> {
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

/** A compact JWS exactly as jose's CompactSign writes it, signed synchronously. */
function compactSignFast(key: SigningKey, claims: string): string {
  const input = `${base64UrlEncode(encoder.encode(JSON.stringify({ alg: key.alg, kid: key.kid })))}.${base64UrlEncode(encoder.encode(claims))}`;
  return `${input}.${base64UrlEncode(key.fast!.sign(encoder.encode(input)))}`;
}

/** jose's compactVerify checks, synchronously: the header names this key's algorithm and nothing critical. */
function compactVerifyFast(key: SigningKey, token: string): boolean {
  const parts = token.split('.');
  const decoded = parts.map(base64UrlDecode);
  if (parts.length !== 3 || decoded.some((d) => d === null)) return false;
  let header: unknown;
  try {
    header = JSON.parse(utf8Decode(decoded[0]!) ?? '');
  } catch {
    return false;
  }
  if (typeof header !== 'object' || header === null || (header as { alg?: unknown }).alg !== key.alg || 'crit' in header || 'b64' in header) return false;
  return key.fast!.verify(encoder.encode(`${parts[0]}.${parts[1]}`), decoded[2]!);
}

export function createFactResolver(keys: readonly SigningKey[], roots: TrustRoots, signing: { readonly ca: SigningCa; readonly seed: string }): FactResolver {
  const facts = new Map<string, unknown>();
  const signer = keys[0]!;

  async function establish(need: Need): Promise<unknown> {
    switch (need.kind) {
      case 'serviceAccountToken':
        if (signer.fast !== undefined) return compactSignFast(signer, need.claims);
        return new CompactSign(encoder.encode(need.claims)).setProtectedHeader({ alg: signer.alg, kid: signer.kid }).sign(signer.privateKey);
      case 'jwsSignature': {
        let kid: unknown;
        try {
          kid = decodeProtectedHeader(need.token).kid;
        } catch {
          return 'invalid';
        }
        const candidates = kid === undefined ? keys : keys.filter((k) => k.kid === kid);
        if (candidates.length === 0) return 'unknownKey';
        for (const k of candidates) {
          if (k.fast !== undefined) {
            if (compactVerifyFast(k, need.token)) return 'valid';
            continue;
          }
          try {
            await compactVerify(need.token, k.publicKey, { algorithms: [k.alg] });
            return 'valid';
          } catch {
            // try the next key
          }
        }
        return 'invalid';
      }
      case 'certificateChain':
        return certificateChainFact(need.pem, roots);
      case 'certificateRequest':
        return certificateRequestFact(need.pem);
      case 'parsedCertificates':
        return parsedCertificatesFact(need.der);
      case 'issuedCertificate':
        return issueCertificate(signing.ca, signing.seed, need.issue);
    }
  }

  return {
    facts,
    async resolve(needs) {
      const values = await Promise.all(needs.map(establish));
      needs.forEach((need, i) => {
        // Bounded: the oldest facts go first (a Map iterates in insertion order).
        if (facts.size >= limits.cryptoFactsCachedMax) facts.delete(facts.keys().next().value!);
        facts.set(factKey(need), values[i]);
      });
    },
  };
}
