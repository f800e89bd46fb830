/**
 * StatefulSet writes (pkg/registry/apps/statefulset/strategy.go): defaults on create and update,
 * main-resource updates keep the stored status, `/status` writes everything but status; a
 * negative revisionHistoryLimit earns a warning.
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField, setOwn, type JsonObject } from '../../core/json.ts';
import { keepAllButStatus, keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { withStatefulSetDefaults } from './defaults.ts';
import { validateStatefulSetSpec, validateStatefulSetStatus, validateStatefulSetUpdate } from './validation.ts';

function revisionHistoryWarning(o: KubeObject): string[] {
  const spec = objectField(o, 'spec');
  const limit = spec['revisionHistoryLimit'];
  return typeof limit === 'number' && limit < 0 ? ['spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended'] : [];
}

/** StatefulSetStatus in Go field order: `replicas` and `availableReplicas` have no omitempty. */
const statusOrder = ['observedGeneration', 'replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'currentRevision', 'updateRevision', 'collisionCount', 'conditions', 'availableReplicas'];

/**
 * The status as apps/v1 serialises it: `replicas` and `availableReplicas` are written even when 0
 * (a new set answers `status: {replicas: 0, availableReplicas: 0}`), in the struct's field order.
 */
export function withStatusZeros(o: KubeObject): KubeObject {
  const status = isObject(o['status']) ? o['status'] : {};
  if (typeof status['replicas'] === 'number' && typeof status['availableReplicas'] === 'number') return o;
  const out: JsonObject = {};
  for (const key of statusOrder) {
    if (key === 'replicas' || key === 'availableReplicas') out[key] = status[key] ?? 0;
    else if (status[key] !== undefined) out[key] = status[key]!;
  }
  for (const [key, v] of Object.entries(status)) if (!statusOrder.includes(key)) setOwn(out, key, v);
  return { ...o, status: out };
}

export const statefulSetStrategy: Strategy = strategy({
  // PrepareForCreate resets the status to the zero StatefulSetStatus.
  prepareForCreate: (o) => withStatusZeros({ ...withStatefulSetDefaults(o), status: {} }),
  validate: (o) => validateStatefulSetSpec(o),
  warningsOnCreate: revisionHistoryWarning,
  prepareForUpdate: (o, old) => withStatusZeros(keepStatus(withStatefulSetDefaults(o), old)),
  validateUpdate: (o, old) => validateStatefulSetUpdate(o, old),
  warningsOnUpdate: revisionHistoryWarning,
});

export const statefulSetStatusStrategy: Strategy = strategy({
  prepareForUpdate: (o, old) => withStatusZeros(keepAllButStatus(o, old)),
  validateUpdate: (o, old) => validateStatefulSetStatus(o, old),
});
