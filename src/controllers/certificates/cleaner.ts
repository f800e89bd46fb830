/**
 * The CSR cleaner (csrcleaner, certificates.md §6.5), at the exact moment a request becomes
 * collectable rather than on an hourly poll (CONTRACT.md): approved and issued, denied, or failed
 * more than an hour ago; pending (no conditions) for more than a day; or its certificate expired.
 * The clocks are those of the cleaner's moves in the lifecycle table (csr/lifecycle.ts); each runs
 * whenever its mark is there, whatever the phase, and the earliest end wins.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isPendingFact } from '../../api/crypto.ts';
import { parseInstant, type Instant } from '../../core/duration.ts';
import { decodeGoBase64Text } from '../../registry/certificates/goBase64.ts';
import { certificateOf, conditionsOf } from '../../registry/certificates/csr/accessors.ts';
import { cleanerTimers, type CsrTimer } from '../../registry/certificates/csr/lifecycle.ts';
import { listObjects } from '../../store/objects.ts';
import { controllerManagerActor, type Controller, type ControllerEnv, type Intent } from '../types.ts';

/** The instants a cleaner's clock starts from on this request (none when it does not apply); `pending`: a fact was not there yet. */
function clockStarts(csr: KubeObject, timer: CsrTimer, env: ControllerEnv, pending: { value: boolean }): Instant[] {
  const conditions = conditionsOf(csr);
  const certificate = certificateOf(csr);
  if (timer.onlyIf === 'no conditions' && conditions.length > 0) return [];
  if (timer.onlyIf === 'issued' && certificate === '') return [];
  if (timer.since === 'creation') {
    const created = parseInstant(csr.metadata.creationTimestamp ?? '');
    return created === null ? [] : [created];
  }
  if (timer.since === 'certificate expiry') {
    const decoded = certificate === '' ? null : decodeGoBase64Text(certificate);
    if (decoded === null || !decoded.ok) return [];
    const chain = env.crypto.certificateChain(decoded.text);
    if (isPendingFact(chain)) pending.value = true;
    return chain.ok ? [chain.notAfter] : [];
  }
  return conditions.flatMap((c) => {
    const t = c.type === timer.since ? parseInstant(c.lastUpdateTime ?? '') : null;
    return t !== null && t > 0 ? [t] : [];
  });
}

/**
 * By stored request: when it becomes collectable depends on the request alone (and on the facts of
 * its certificate, which never change once known), so every round and every step after the first
 * reads it from here instead of decoding the certificate again.
 */
const collectable = new WeakMap<KubeObject, Instant | null>();

/** When a request becomes collectable ("more than" an age: the first millisecond after), or null. */
export function collectableAt(csr: KubeObject, env: ControllerEnv): Instant | null {
  const known = collectable.get(csr);
  if (known !== undefined) return known;
  const pending = { value: false };
  const times = cleanerTimers.flatMap((timer) => clockStarts(csr, timer, env, pending).map((t) => t + timer.afterMs + 1));
  const at = times.length === 0 ? null : Math.min(...times);
  if (!pending.value) collectable.set(csr, at);
  return at;
}

export const csrCleaner: Controller = {
  name: 'csr-cleaner',
  actor: controllerManagerActor('certificate-controller'),
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
