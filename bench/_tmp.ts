import { serviceAccountKeys } from '../src/edges/crypto/serviceAccountKeys.ts';
import { createFactResolver } from '../src/edges/crypto/factResolver.ts';
import { factKey } from '../src/sim/factBook.ts';
import { SignJWT, jwtVerify } from 'jose';
const keys = await serviceAccountKeys('1', undefined);
const r = createFactResolver(keys, { client: [], requestHeader: [] });
for (let round = 0; round < 3; round++) {
  let t0 = performance.now();
  for (let i = 0; i < 2000; i++) {
    const claims = `{"a":${round * 10000 + i},"b":"${'x'.repeat(300)}"}`;
    await r.resolve([{ kind: 'serviceAccountToken', claims }]);
    const token = r.facts.get(factKey({ kind: 'serviceAccountToken', claims })) as string;
    await r.resolve([{ kind: 'jwsSignature', token }]);
  }
  console.log((performance.now() - t0) / 2000, 'ms resolver sign+verify');
  t0 = performance.now();
  for (let i = 0; i < 2000; i++) {
    const token = await new SignJWT({ a: i, b: 'x'.repeat(300) }).setProtectedHeader({ alg: 'EdDSA', kid: 'k' }).sign(keys[0]!.privateKey);
    await jwtVerify(token, keys[0]!.publicKey);
  }
  console.log((performance.now() - t0) / 2000, 'ms raw');
}
