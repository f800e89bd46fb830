/**
 * The status the controller writes (reference §7): counters over the member pods, the revisions,
 * `observedGeneration` and `collisionCount`; completion rolls `currentRevision` forward once a
 * RollingUpdate has every pod updated and ready. Written through `/status` only when something a
 * client reads changed (the real write rule). Conditions written by clients are dropped, as the
 * real controller writes a fresh status.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Instant } from '../../core/duration.ts';
import { getOwn, objectField, type JsonObject } from '../../core/json.ts';
import { availableAt, factsOf } from './podLifecycle.ts';
import type { SetSpec } from './spec.ts';

export interface SetStatus {
  readonly observedGeneration: number;
  readonly replicas: number;
  readonly readyReplicas: number;
  readonly currentReplicas: number;
  readonly updatedReplicas: number;
  readonly availableReplicas: number;
  readonly currentRevision: string;
  readonly updateRevision: string;
  readonly collisionCount: number;
}

/** Counters over the member pods (in range and condemned), before completion. */
export function computeStatus(set: KubeObject, spec: SetSpec, pods: Iterable<KubeObject>, current: string, update: string, collisionCount: number, now: Instant): SetStatus {
  let replicas = 0;
  let ready = 0;
  let available = 0;
  let currentReplicas = 0;
  let updated = 0;
  for (const pod of pods) {
    const f = factsOf(pod);
    // Created: seen by a kubelet (a phase written).
    if (f.phase === '') continue;
    replicas++;
    if (f.runningAndReady) {
      ready++;
      // Terminating pods still count while Ready, and as available once Ready long enough.
      const at = availableAt(pod, spec.minReadySeconds);
      if (at !== null && at <= now) available++;
    }
    if (f.terminating) continue;
    if (f.revision === current) currentReplicas++;
    if (f.revision === update) updated++;
  }
  return {
    observedGeneration: set.metadata.generation ?? 0,
    replicas,
    readyReplicas: ready,
    currentReplicas,
    updatedReplicas: updated,
    availableReplicas: available,
    currentRevision: current,
    updateRevision: update,
    collisionCount,
  };
}

/** Completion: a RollingUpdate with every wanted pod updated and ready rolls currentRevision forward. */
export function completed(spec: SetSpec, s: SetStatus): SetStatus {
  if (spec.updateStrategy !== 'RollingUpdate') return s;
  if (s.updatedReplicas !== spec.replicas || s.readyReplicas !== spec.replicas || s.replicas !== spec.replicas) return s;
  return { ...s, currentRevision: s.updateRevision, currentReplicas: s.updatedReplicas };
}

/**
 * The status as stored: zero counters left out as Go's omitempty does, but for `replicas` and
 * `availableReplicas`, which apps/v1 always writes.
 */
export function statusObject(s: SetStatus): JsonObject {
  const out: JsonObject = { observedGeneration: s.observedGeneration, replicas: s.replicas };
  if (s.readyReplicas !== 0) out['readyReplicas'] = s.readyReplicas;
  if (s.currentReplicas !== 0) out['currentReplicas'] = s.currentReplicas;
  if (s.updatedReplicas !== 0) out['updatedReplicas'] = s.updatedReplicas;
  out['currentRevision'] = s.currentRevision;
  out['updateRevision'] = s.updateRevision;
  out['collisionCount'] = s.collisionCount;
  out['availableReplicas'] = s.availableReplicas;
  return out;
}

const num = (o: JsonObject, k: string): number => {
  const v = getOwn(o, k);
  return typeof v === 'number' ? v : 0;
};
const str = (o: JsonObject, k: string): string => {
  const v = getOwn(o, k);
  return typeof v === 'string' ? v : '';
};

/** The real write rule: a newer generation observed, or a counter or revision changed. */
export function statusNeedsWrite(set: KubeObject, s: SetStatus): boolean {
  const old = objectField(set, 'status');
  if (s.observedGeneration > num(old, 'observedGeneration')) return true;
  return (
    s.replicas !== num(old, 'replicas') ||
    s.currentReplicas !== num(old, 'currentReplicas') ||
    s.readyReplicas !== num(old, 'readyReplicas') ||
    s.updatedReplicas !== num(old, 'updatedReplicas') ||
    s.availableReplicas !== num(old, 'availableReplicas') ||
    s.currentRevision !== str(old, 'currentRevision') ||
    s.updateRevision !== str(old, 'updateRevision')
  );
}
