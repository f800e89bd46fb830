/**
 * The crypto facts of one pass of a step. Known facts (established by the edge in earlier
 * passes, or cached from earlier steps) are answered; an unknown one is recorded as a need and
 * answered provisionally, which makes the whole pass provisional: the driver discards it,
 * establishes the needs and runs the step again (api/crypto.ts).
 *
 * One kind of fact never decides anything: a signature only ends up in a response body. An
 * unknown signature is answered with a placeholder instead; a pass whose only needs are
 * signatures is kept, and the driver puts the signed tokens in place of the placeholders.
 */
import { pendingFact, type CertificateChainFact, type CertificateIssue, type CertificateRequestFact, type CryptoFacts, type IssuedCertificateFact, type JwsSignatureFact, type ParsedCertificatesFact } from '../api/crypto.ts';
import { canonicalJson } from '../core/json.ts';

export type Need =
  | { readonly kind: 'jwsSignature'; readonly token: string }
  | { readonly kind: 'serviceAccountToken'; readonly claims: string }
  | { readonly kind: 'certificateChain'; readonly pem: string }
  | { readonly kind: 'certificateRequest'; readonly pem: string }
  | { readonly kind: 'parsedCertificates'; readonly der: string }
  | { readonly kind: 'issuedCertificate'; readonly issue: CertificateIssue };

/** The key a fact is stored under. */
export function factKey(need: Need): string {
  switch (need.kind) {
    case 'jwsSignature':
      return `jws\u0000${need.token}`;
    case 'serviceAccountToken':
      return `sign\u0000${need.claims}`;
    case 'certificateChain':
      return `chain\u0000${need.pem}`;
    case 'certificateRequest':
      return `csr\u0000${need.pem}`;
    case 'parsedCertificates':
      return `der\u0000${need.der}`;
    case 'issuedCertificate':
      return `issue\u0000${canonicalJson(need.issue)}`;
  }
}

const pending = pendingFact;

/** Stands for a token until it is signed: characters that every encoding leaves as they are. */
export function tokenPlaceholder(index: number): string {
  return `psim-token-pending-${index}-7c1f3e9a`;
}

export class FactBook implements CryptoFacts {
  readonly needs: Need[] = [];
  /** Signatures asked for and not yet known, in order: the i-th stands behind tokenPlaceholder(i). */
  readonly pendingTokens: string[] = [];
  readonly #known: ReadonlyMap<string, unknown>;

  constructor(known: ReadonlyMap<string, unknown>) {
    this.#known = known;
  }

  #ask<T>(need: Need, provisional: T): T {
    const key = factKey(need);
    if (this.#known.has(key)) return this.#known.get(key) as T;
    if (!this.needs.some((n) => factKey(n) === key)) this.needs.push(need);
    return provisional;
  }

  jwsSignature(token: string): JwsSignatureFact {
    return this.#ask<JwsSignatureFact>({ kind: 'jwsSignature', token }, 'valid');
  }

  serviceAccountToken(claims: string): string {
    const key = factKey({ kind: 'serviceAccountToken', claims });
    if (this.#known.has(key)) return this.#known.get(key) as string;
    this.pendingTokens.push(claims);
    return tokenPlaceholder(this.pendingTokens.length - 1);
  }

  certificateChain(pem: string): CertificateChainFact {
    return this.#ask<CertificateChainFact>({ kind: 'certificateChain', pem }, pending);
  }

  certificateRequest(pem: string): CertificateRequestFact {
    return this.#ask<CertificateRequestFact>({ kind: 'certificateRequest', pem }, pending);
  }

  issuedCertificate(issue: CertificateIssue): IssuedCertificateFact {
    return this.#ask<IssuedCertificateFact>({ kind: 'issuedCertificate', issue }, pending);
  }

  parsedCertificates(der: string): ParsedCertificatesFact {
    return this.#ask<ParsedCertificatesFact>({ kind: 'parsedCertificates', der }, pending);
  }
}
