/**
 * Ed25519 keys derived from the simulation seed and a purpose name: the PKCS#8 form of an
 * Ed25519 key is a fixed 16-byte prefix followed by the 32-byte seed, so the same seed always
 * gives the same key (and Ed25519 signatures are deterministic).
 */
import { createPrivateKey, createPublicKey, webcrypto, type KeyObject } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface SeededKeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly cryptoKeys: CryptoKeyPair;
}

export function seededBytes(seed: string, purpose: string, length = 32): Uint8Array {
  return sha256(utf8ToBytes(`platform-sim\u0000${seed}\u0000${purpose}`)).slice(0, length);
}

export async function seededEd25519(seed: string, purpose: string): Promise<SeededKeyPair> {
  const der = Buffer.concat([pkcs8Prefix, Buffer.from(seededBytes(seed, purpose))]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const subtle = webcrypto.subtle;
  const cryptoKeys: CryptoKeyPair = {
    privateKey: (await subtle.importKey('pkcs8', der, { name: 'Ed25519' }, true, ['sign'])) as CryptoKey,
    publicKey: (await subtle.importKey('spki', publicKey.export({ format: 'der', type: 'spki' }), { name: 'Ed25519' }, true, ['verify'])) as CryptoKey,
  };
  return { privateKey, publicKey, cryptoKeys };
}

/** A positive, fixed-length certificate serial number drawn from the seed. */
export function seededSerial(seed: string, purpose: string): string {
  const b = seededBytes(seed, `serial/${purpose}`, 16);
  b[0] = (b[0]! & 0x7f) | 0x01;
  return Buffer.from(b).toString('hex');
}
