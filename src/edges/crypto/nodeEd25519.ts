/**
 * A synchronous Ed25519 path for Node. WebCrypto's sign and verify run on the thread pool and
 * cost a round trip through the event loop each; node:crypto does the same RFC 8032 operation
 * inline, several times faster. `process.getBuiltinModule` (Node ≥ 20.16) reaches node:crypto
 * without a static `node:` import, so the main entry still loads in a browser, where this returns
 * null and jose/WebCrypto do the work. Ed25519 signatures are deterministic: both paths give the
 * same bytes (test/unit/edges/nodeEd25519.test.ts checks the tokens against jose).
 */
interface KeyObjectLike {
  readonly type: string;
  export(options: { format: 'jwk' }): { readonly kty?: string; readonly crv?: string; readonly x?: string };
  export(options: { format: 'der'; type: 'spki' }): Uint8Array;
}

interface NodeCryptoLike {
  createPrivateKey(input: { key: Uint8Array; format: 'der'; type: 'pkcs8' }): KeyObjectLike;
  createPublicKey(input: KeyObjectLike): KeyObjectLike;
  sign(algorithm: null, data: Uint8Array, key: KeyObjectLike): Uint8Array;
  verify(algorithm: null, data: Uint8Array, key: KeyObjectLike, signature: Uint8Array): boolean;
}

export interface FastSigner {
  sign(data: Uint8Array): Uint8Array;
  verify(data: Uint8Array, signature: Uint8Array): boolean;
  /** The public key as a JWK (the members and order jose's exportJWK gives) and as SPKI DER. */
  readonly publicJwk: { readonly [member: string]: string };
  readonly publicSpki: Uint8Array;
}

function nodeCrypto(): NodeCryptoLike | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = proc?.getBuiltinModule?.('node:crypto');
  return mod === undefined || mod === null ? null : (mod as NodeCryptoLike);
}

/** The fast signer of an Ed25519 key given as PKCS#8 DER, or null where node:crypto is absent. */
export function fastEd25519(pkcs8: Uint8Array): FastSigner | null {
  const c = nodeCrypto();
  if (c === null) return null;
  const privateKey = c.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  const publicKey = c.createPublicKey(privateKey);
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    publicJwk: { crv: jwk.crv ?? '', x: jwk.x ?? '', kty: jwk.kty ?? '' },
    publicSpki: publicKey.export({ format: 'der', type: 'spki' }),
    sign: (data) => c.sign(null, data, privateKey),
    verify: (data, signature) => {
      try {
        return c.verify(null, data, publicKey, signature);
      } catch {
        return false;
      }
    },
  };
}
