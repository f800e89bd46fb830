/**
 * Establishes the crypto facts a step asked for (api/crypto.ts): signs service-account tokens,
 * checks JWS signatures, parses and verifies client certificate chains against the trusted CAs,
 * parses certificate requests. Facts are pure functions of their inputs, so they are cached
 * (bounded) across steps: the same token presented again is not verified again.
 */
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import { limits } from '../../core/limits.ts';
import { factKey, type Need } from '../../sim/factBook.ts';
import type { SigningCa } from './issueCertificate.ts';
import type { SigningKey } from './serviceAccountKeys.ts';
import { base64UrlDecode, base64UrlEncode, utf8Decode } from '../../core/base64.ts';
import type { TrustRoots } from './certificateChainFact.ts';

/**
 * The X.509 side (@peculiar/x509 and what uses it) is loaded the first time a certificate fact is
 * needed: a simulation that never sees a certificate never loads it.
 */
let loaded: Promise<typeof import('./certificateFacts.ts')> | undefined;
const certificates = (): Promise<typeof import('./certificateFacts.ts')> => (loaded ??= import('./certificateFacts.ts'));

export interface FactResolver {
  readonly facts: ReadonlyMap<string, unknown>;
  resolve(needs: readonly Need[]): Promise<void>;
}

const encoder = new TextEncoder();

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

/**
 * `roots` and `signing.ca` are asked for when a certificate is verified or issued: the trusted CAs
 * and the signing CA are made (or read) on first use.
 */
export function createFactResolver(keys: readonly SigningKey[], roots: () => Promise<TrustRoots>, signing: { readonly ca: () => Promise<SigningCa>; readonly seed: string }): FactResolver {
  const facts = new Map<string, unknown>();
  const signer = keys[0]!;

  /** `followUps`: facts that come with this one (an issued certificate's). */
  async function establish(need: Need, followUps: (readonly [Need, unknown])[]): Promise<unknown> {
    switch (need.kind) {
      case 'serviceAccountToken':
        if (signer.fast !== undefined) return compactSignFast(signer, need.claims);
        return new CompactSign(encoder.encode(need.claims)).setProtectedHeader({ alg: signer.alg, kid: signer.kid }).sign((await signer.cryptoKeys()).privateKey);
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
            await compactVerify(need.token, (await k.cryptoKeys()).publicKey, { algorithms: [k.alg] });
            return 'valid';
          } catch {
            // try the next key
          }
        }
        return 'invalid';
      }
      case 'certificateChain':
        return (await certificates()).certificateChainFact(need.pem, await roots());
      case 'certificateRequest':
        return (await certificates()).certificateRequestFact(need.pem);
      case 'parsedCertificates':
        return (await certificates()).parsedCertificatesFact(need.der);
      case 'issuedCertificate': {
        const x509Facts = await certificates();
        const ca = await signing.ca();
        const issued = await x509Facts.issueCertificate(ca, signing.seed, need.issue);
        if ('certificate' in issued) followUps.push(...(await x509Facts.factsOfIssued(issued, ca.certificate, await roots())));
        return issued.fact;
      }
    }
  }

  return {
    facts,
    async resolve(needs) {
      // Follow-ups kept per need, so the cache fills in the same order whichever finishes first.
      const followUps = needs.map((): (readonly [Need, unknown])[] => []);
      const values = await Promise.all(needs.map((need, i) => establish(need, followUps[i]!)));
      const established: (readonly [Need, unknown])[] = [...needs.map((need, i) => [need, values[i]] as const), ...followUps.flat()];
      for (const [need, value] of established) {
        // Bounded: the oldest facts go first (a Map iterates in insertion order).
        if (facts.size >= limits.cryptoFactsCachedMax) facts.delete(facts.keys().next().value!);
        facts.set(factKey(need), value);
      }
    },
  };
}
