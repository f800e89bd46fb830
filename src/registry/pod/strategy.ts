/**
 * Pod writes: created `Pending` (BestEffort) whatever status was sent, defaults on every write,
 * main-resource updates keep the stored status and `/status` writes everything but status.
 * Graceful deletion: a pod bound to a node waits its grace period; an unbound one goes at once.
 */
import type { KubeObject } from '../../api/meta.ts';
import { objectField } from '../../core/json.ts';
import { keepAllButStatus, keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { withPodDefaults } from './defaults.ts';
import { validatePod, validatePodUpdate } from './validation.ts';

export const podStrategy: Strategy = strategy({
  prepareForCreate: (obj) => ({ ...withPodDefaults(obj), status: { phase: 'Pending', qosClass: 'BestEffort' } }),
  prepareForUpdate: (obj, old) => keepStatus(withPodDefaults(obj), old),
  validate: validatePod,
  validateUpdate: validatePodUpdate,
});

export const podStatusStrategy: Strategy = strategy({ prepareForUpdate: keepAllButStatus });

/** Seconds to wait before the pod may go (`requested` from DeleteOptions), or null for at once. */
export function podGracefulDeletion(obj: KubeObject, requested: number | undefined): number | null {
  const spec = objectField(obj, 'spec');
  if (typeof spec['nodeName'] !== 'string' || spec['nodeName'] === '') return null;
  // A pod that has finished (Failed or Succeeded) has nothing left to stop on its node.
  const phase = objectField(obj, 'status')['phase'];
  if (phase === 'Failed' || phase === 'Succeeded') return null;
  if (requested !== undefined) return requested;
  return typeof spec['terminationGracePeriodSeconds'] === 'number' ? spec['terminationGracePeriodSeconds'] : 30;
}
