/**
 * The CSR cleaner (csrcleaner, certificates.md §6.5), at the exact moment a request becomes
 * collectable rather than on an hourly poll (CONTRACT.md): approved and issued, denied, or failed
 * more than an hour ago; pending (no conditions) for more than a day; or its certificate expired.
 */
import type { KubeObject } from '../../api/meta.ts';
import { parseInstant, type Instant } from '../../core/duration.ts';
import { bytesToBinary, decodeGoBase64 } from '../../registry/certificates/goBase64.ts';
import { approved, certificateOf, conditionsOf, denied, failed } from '../../registry/certificates/csr/fields.ts';
import { listObjects } from '../../store/objects.ts';
import type { Controller, ControllerEnv, Intent } from '../types.ts';

const hour = 3600_000;

/** When a request becomes collectable ("more than" an age: the first millisecond after), or null. */
export function collectableAt(csr: KubeObject, env: ControllerEnv): Instant | null {
  const conditions = conditionsOf(csr);
  const times: Instant[] = [];
  const after = (type: string, age: number): void => {
    for (const c of conditions) {
      if (c.type !== type) continue;
      const t = parseInstant(c.lastUpdateTime ?? '');
      if (t !== null && t > 0) times.push(t + age + 1);
    }
  };
  const certificate = certificateOf(csr);
  if (certificate !== '') {
    after(approved, hour);
    const decoded = decodeGoBase64(certificate);
    if (decoded.ok) {
      const chain = env.crypto.certificateChain(bytesToBinary(decoded.bytes));
      if (chain.ok) times.push(chain.notAfter + 1);
    }
  }
  after(denied, hour);
  after(failed, hour);
  if (conditions.length === 0) {
    const created = parseInstant(csr.metadata.creationTimestamp ?? '');
    if (created !== null) times.push(created + 24 * hour + 1);
  }
  return times.length === 0 ? null : Math.min(...times);
}

export const csrCleaner: Controller = {
  name: 'csr-cleaner',
  reconcile(world, env) {
    const intents: Intent[] = [];
    for (const csr of listObjects(world, 'certificates/certificatesigningrequests', null)) {
      if (csr.metadata.deletionTimestamp !== undefined) continue;
      const at = collectableAt(csr, env);
      if (at !== null && at <= world.now) intents.push({ type: 'delete', resource: 'certificates/certificatesigningrequests', namespace: '', name: csr.metadata.name ?? '', uid: csr.metadata.uid ?? '' });
    }
    return intents;
  },
  nextWakeup(world, env) {
    let next: Instant | null = null;
    for (const csr of listObjects(world, 'certificates/certificatesigningrequests', null)) {
      const at = collectableAt(csr, env);
      if (at !== null && at > world.now && (next === null || at < next)) next = at;
    }
    return next;
  },
};
