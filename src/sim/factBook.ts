/**
 * The crypto facts of one pass of a step. Known facts (established by the edge in earlier
 * passes, or cached from earlier steps) are answered; an unknown one is recorded as a need and
 * answered provisionally, which makes the whole pass provisional: the driver discards it,
 * establishes the needs and runs the step again (api/crypto.ts).
 */
import type { CertificateChainFact, CertificateRequestFact, CryptoFacts, JwsSignatureFact, ParsedCertificatesFact } from '../api/crypto.ts';

export type Need =
  | { readonly kind: 'jwsSignature'; readonly token: string }
  | { readonly kind: 'serviceAccountToken'; readonly claims: string }
  | { readonly kind: 'certificateChain'; readonly pem: string }
  | { readonly kind: 'certificateRequest'; readonly pem: string }
  | { readonly kind: 'parsedCertificates'; readonly der: string };

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
  }
}

const pending = { ok: false, message: 'crypto fact pending' } as const;

export class FactBook implements CryptoFacts {
  readonly needs: Need[] = [];
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
    return this.#ask({ kind: 'serviceAccountToken', claims }, '');
  }

  certificateChain(pem: string): CertificateChainFact {
    return this.#ask<CertificateChainFact>({ kind: 'certificateChain', pem }, pending);
  }

  certificateRequest(pem: string): CertificateRequestFact {
    return this.#ask<CertificateRequestFact>({ kind: 'certificateRequest', pem }, pending);
  }

  parsedCertificates(der: string): ParsedCertificatesFact {
    return this.#ask<ParsedCertificatesFact>({ kind: 'parsedCertificates', der }, pending);
  }
}
