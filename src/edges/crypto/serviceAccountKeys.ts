/**
 * Service-account signing keys: the seeded Ed25519 key by default (deterministic signatures), or
 * PEM keys the user supplies (RSA → RS256, EC P-256/384/521 → ES256/384/512, as Kubernetes maps
 * them). `kid` is base64url(SHA-256(DER SubjectPublicKeyInfo)), as kube-apiserver computes it.
 */
import { exportJWK, importPKCS8 } from 'jose';
import type { ServiceAccountKey } from '../../auth/identityConfig.ts';
import type { JsonObject } from '../../core/json.ts';
import { seededEd25519Keys, seededEd25519Pkcs8, subtle } from './webKeys.ts';
import { base64UrlEncode } from '../../core/base64.ts';
import { fastEd25519, type FastSigner } from './nodeEd25519.ts';
import { getOwn } from '../../core/json.ts';
import { sha256 } from '@noble/hashes/sha2.js';

export interface SigningKey extends ServiceAccountKey {
  /**
   * The WebCrypto keys jose signs and verifies with, made when first asked for: where `fast` is
   * there (Node), nothing asks, and a fresh process does not pay for importing them (about 4 ms
   * of its first simulation: WebCrypto's calls each wait for the thread pool).
   */
  readonly cryptoKeys: () => Promise<CryptoKeyPair>;
  /** Synchronous signing and verification where the platform has it (nodeEd25519.ts). */
  readonly fast?: FastSigner;
}

async function describe(privateKey: CryptoKey, publicKey: CryptoKey, alg: string): Promise<SigningKey> {
  const spki = await subtle().exportKey('spki', publicKey);
  const kid = base64UrlEncode(new Uint8Array(await subtle().digest('SHA-256', spki)));
  const jwk = (await exportJWK(publicKey)) as unknown as JsonObject;
  const keys = Promise.resolve({ privateKey, publicKey });
  return { kid, alg, jwk, cryptoKeys: () => keys };
}

const privateJwkMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'];

/** The public half of an extractable private key, through its JWK. */
async function publicOf(privateKey: CryptoKey, alg: string): Promise<CryptoKey> {
  const jwk = await subtle().exportKey('jwk', privateKey);
  for (const m of privateJwkMembers) delete (jwk as Record<string, unknown>)[m];
  delete jwk.key_ops;
  const params =
    alg === 'RS256'
      ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
      : { name: 'ECDSA', namedCurve: jwk.crv ?? 'P-256' };
  return subtle().importKey('jwk', jwk, params, true, ['verify']);
}

const curveAlgs: Record<string, string> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

/** Imports a PKCS#8 PEM key: RSA or EC. */
export async function importSigningKey(pem: string): Promise<SigningKey> {
  try {
    const rsa = (await importPKCS8(pem, 'RS256', { extractable: true })) as CryptoKey;
    return describe(rsa, await publicOf(rsa, 'RS256'), 'RS256');
  } catch {
    // not RSA: try the EC curves in turn
  }
  for (const alg of ['ES256', 'ES384', 'ES512']) {
    try {
      const ec = (await importPKCS8(pem, alg, { extractable: true })) as CryptoKey;
      const pub = await publicOf(ec, alg);
      const crv = (ec.algorithm as EcKeyAlgorithm).namedCurve;
      return describe(ec, pub, getOwn(curveAlgs, crv) ?? alg);
    } catch {
      // next curve
    }
  }
  throw new Error('signing key: not an RSA or EC (P-256, P-384, P-521) private key in PKCS#8 PEM (BEGIN PRIVATE KEY)');
}

const purpose = 'service-account-signing';

export async function serviceAccountKeys(seed: string, pems: readonly string[] | undefined): Promise<SigningKey[]> {
  if (pems !== undefined && pems.length > 0) return Promise.all(pems.map(importSigningKey));
  const fast = fastEd25519(seededEd25519Pkcs8(seed, purpose));
  if (fast === null) {
    const keys = await seededEd25519Keys(seed, purpose);
    return [await describe(keys.privateKey, keys.publicKey, 'EdDSA')];
  }
  // The kid and JWK from node:crypto's public key: the same SPKI and JWK WebCrypto exports.
  let web: Promise<CryptoKeyPair> | undefined;
  const cryptoKeys = (): Promise<CryptoKeyPair> => (web ??= seededEd25519Keys(seed, purpose));
  return [{ kid: base64UrlEncode(sha256(fast.publicSpki)), alg: 'EdDSA', jwk: fast.publicJwk, cryptoKeys, fast }];
}
