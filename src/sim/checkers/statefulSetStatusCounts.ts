/**
 * A StatefulSet's status counts nest: updatedReplicas ≤ replicas, readyReplicas ≤ replicas and
 * availableReplicas ≤ readyReplicas (absent counts are 0).
 */
import { getOwn, objectField } from '../../core/json.ts';
import { listObjects } from '../../store/objects.ts';
import type { Checker } from './types.ts';
import { sets, stepTouches } from './statefulSetWrites.ts';

const pairs = [
  ['updatedReplicas', 'replicas'],
  ['readyReplicas', 'replicas'],
  ['availableReplicas', 'readyReplicas'],
] as const;

export const statefulSetStatusCounts: Checker = {
  name: 'statefulset-status-counts',
  check(before, after) {
    const problems: string[] = [];
    if (before !== null && !stepTouches(before, after, sets)) return problems;
    for (const set of listObjects(after, sets, null)) {
      const status = objectField(set, 'status');
      const count = (k: string): number => {
        const v = getOwn(status, k);
        return typeof v === 'number' ? v : 0;
      };
      for (const [small, big] of pairs) {
        if (count(small) > count(big)) problems.push(`${set.metadata.namespace ?? ''}/${set.metadata.name ?? ''} has ${small} ${count(small)} > ${big} ${count(big)}`);
      }
    }
    return problems;
  },
};
