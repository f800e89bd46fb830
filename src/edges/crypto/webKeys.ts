/**
 * Seeded Ed25519 keys with WebCrypto only (no `node:` imports: the main entry runs in browsers
 * too). The PKCS#8 form of an Ed25519 key is a fixed prefix followed by the 32-byte seed, so the
 * same seed and purpose always give the same key; exporting the private key as a JWK yields its
 * public half.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

const pkcs8Prefix = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];

export function seedBytes(seed: string, purpose: string, length = 32): Uint8Array {
  return sha256(utf8ToBytes(`platform-sim\u0000${seed}\u0000${purpose}`)).slice(0, length);
}

export function subtle(): SubtleCrypto {
  return globalThis.crypto.subtle;
}

/** The PKCS#8 DER of the seeded Ed25519 key for a purpose. */
export function seededEd25519Pkcs8(seed: string, purpose: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array([...pkcs8Prefix, ...seedBytes(seed, purpose)]);
}

export async function seededEd25519Keys(seed: string, purpose: string): Promise<CryptoKeyPair> {
  const der = seededEd25519Pkcs8(seed, purpose);
  const privateKey = await subtle().importKey('pkcs8', der, { name: 'Ed25519' }, true, ['sign']);
  const jwk = await subtle().exportKey('jwk', privateKey);
  const publicKey = await subtle().importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x! }, { name: 'Ed25519' }, true, ['verify']);
  return { privateKey, publicKey };
}

/** A positive, fixed-length certificate serial number (hex) drawn from the seed. */
export function seededSerialHex(seed: string, purpose: string): string {
  const b = seedBytes(seed, `serial/${purpose}`, 16);
  b[0] = (b[0]! & 0x7f) | 0x01;
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export function hex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (x) => x.toString(16).padStart(2, '0')).join('');
}

