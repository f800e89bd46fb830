/**
 * Crypto as facts. The pure core never signs or verifies: when a step needs a signature, a
 * verification or a parsed certificate, it asks `CryptoFacts`. A fact the driver has not
 * established yet is recorded as a need and answered provisionally; the driver then discards that
 * pass, establishes the needed facts at the edge (jose, @peculiar/x509) and runs the same step
 * again. Facts are pure functions of their inputs (Ed25519 signatures are deterministic), so the
 * second pass is the same computation with the real answers filled in.
 */

/** Signature check of a compact JWS against the simulation's service-account keys. */
export type JwsSignatureFact = 'valid' | 'unknownKey' | 'invalid';

export interface CertificateSubject {
  readonly commonName: string;
  readonly organizations: readonly string[];
}

/** What the edge learns from a PEM certificate chain presented by a client. */
export type CertificateChainFact =
  | {
      readonly ok: true;
      readonly subject: CertificateSubject;
      /** Validity of the leaf, epoch milliseconds: the core checks them at virtual time. */
      readonly notBefore: number;
      readonly notAfter: number;
      /** Hex SHA-256 of the leaf's DER (Kubernetes' `X509SHA256=` credential id). */
      readonly sha256: string;
      /** The leaf allows client authentication (no extended key usage, or clientAuth among them). */
      readonly clientAuth: boolean;
      /** Trust roots the chain verifies against ('client': the simulation CA, clientCA, clusterSigning). */
      readonly trustedBy: readonly ('client' | 'requestHeader')[];
    }
  | { readonly ok: false; readonly message: string };

/** A PKCS#10 request: parsed and its self-signature checked. */
export type CertificateRequestFact =
  | {
      readonly ok: true;
      readonly subject: CertificateSubject;
      readonly dnsNames: readonly string[];
      readonly ipAddresses: readonly string[];
      readonly emailAddresses: readonly string[];
      readonly uris: readonly string[];
      /** 'Ed25519', 'ECDSA', 'RSA', … */
      readonly keyAlgorithm: string;
    }
  | { readonly ok: false; readonly message: string };

/** One certificate of a parsed DER run: what trust-bundle validation needs to know. */
export interface ParsedCertificate {
  /** Basic constraints present and valid (Go's BasicConstraintsValid). */
  readonly basicConstraintsValid: boolean;
  /** Basic constraints say CA (Go's IsCA). */
  readonly isCA: boolean;
}

/**
 * DER bytes read as Go's `x509.ParseCertificates` reads them: zero or more concatenated
 * certificates, or the parser's error. (`x509.ParseCertificate` succeeds exactly when this
 * yields one certificate.)
 */
export type ParsedCertificatesFact =
  | { readonly ok: true; readonly certificates: readonly ParsedCertificate[] }
  | { readonly ok: false; readonly message: string };

/** What a built-in signer asks the edge to issue (certificates.md §6.4), decided in the core. */
export interface CertificateIssue {
  /** The request's bytes as a binary string (the CSR's `spec.request`, base64-decoded). */
  readonly request: string;
  readonly usages: readonly string[];
  /** Validity, epoch milliseconds. */
  readonly notBefore: number;
  readonly notAfter: number;
  /** A stable identity of the issuance (the CSR's uid): the edge derives the serial from it and the seed. */
  readonly serialSeed: string;
}

export type IssuedCertificateFact = { readonly ok: true; readonly pem: string } | { readonly ok: false; readonly message: string };

/**
 * What a fact not established yet reads as (the step asks the edge for it and runs again): a
 * failure no real input produces. A controller that keeps what it worked out must not keep a
 * result made from it.
 */
export const pendingFact = { ok: false, message: 'crypto fact pending' } as const;

export function isPendingFact(fact: unknown): boolean {
  return fact === pendingFact;
}

export interface CryptoFacts {
  jwsSignature(token: string): JwsSignatureFact;
  /**
   * A compact JWS of exactly these claims bytes, signed with the service-account signing key
   * (header `{"alg":…,"kid":…}`). The core chooses the claims; the edge only signs.
   */
  serviceAccountToken(claimsJson: string): string;
  certificateChain(pem: string): CertificateChainFact;
  /** `pem`: the CSR's `spec.request`, decoded from base64 (the PEM text). */
  certificateRequest(pem: string): CertificateRequestFact;
  /** `der`: standard base64 of the DER bytes of one PEM block (CSR certificates, trust bundles). */
  parsedCertificates(der: string): ParsedCertificatesFact;
  /** A certificate issued by the cluster signing CA. */
  issuedCertificate(issue: CertificateIssue): IssuedCertificateFact;
}
