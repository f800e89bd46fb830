/** The phase of a StatefulSet member as the controller sees it (src/controllers/stateful-set/podLifecycle.ts). */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import {
  availableAt,
  controllerActsOn,
  healthOf,
  memberCanReach,
  memberPhaseOf,
  revisionLabel,
  type SetView,
} from '../../../src/controllers/stateful-set/podLifecycle.ts';
import { parseInstant } from '../../../src/core/duration.ts';

const t0 = parseInstant('2026-01-01T00:00:00Z')!;
const set: SetView = { start: 0, replicas: 3, updateRevision: 'web-2', updateStrategy: 'RollingUpdate', partition: 0, minReadySeconds: 10 };

function pod(o: { phase?: string; ready?: boolean; readySince?: string; revision?: string; deleting?: boolean }): KubeObject {
  return {
    metadata: { name: 'web-1', labels: { [revisionLabel]: o.revision ?? 'web-2' }, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: {},
    status: {
      ...(o.phase === undefined ? {} : { phase: o.phase }),
      conditions: o.ready === undefined ? [] : [{ type: 'Ready', status: o.ready ? 'True' : 'False', lastTransitionTime: o.readySince ?? '2026-01-01T00:00:00Z' }],
    },
  } as unknown as KubeObject;
}

const at = (seconds: number): number => t0 + seconds * 1000;

describe('statefulset member lifecycle', () => {
  it('walks a member from missing to available, exactly minReadySeconds after Ready', () => {
    expect(memberPhaseOf(set, { ordinal: 1, pod: undefined }, at(0))).toBe('Missing');
    expect(memberPhaseOf(set, { ordinal: 1, pod: pod({ phase: 'Pending' }) }, at(0))).toBe('Pending');
    expect(memberPhaseOf(set, { ordinal: 1, pod: pod({ phase: 'Running', ready: false }) }, at(0))).toBe('RunningUnready');
    const ready = pod({ phase: 'Running', ready: true });
    expect(memberPhaseOf(set, { ordinal: 1, pod: ready }, at(10) - 1)).toBe('Ready');
    expect(memberPhaseOf(set, { ordinal: 1, pod: ready }, at(10))).toBe('Available');
    expect(availableAt(ready, 10)).toBe(at(10));
    expect(healthOf(ready, 0, at(0))).toBe('Available');
    expect(healthOf(pod({ phase: 'Running', ready: true, readySince: '0001-01-01T00:00:00Z' }), 10, at(999))).toBe('Ready');
  });

  it('puts the reasons to delete first: terminating, condemned, failed, outdated', () => {
    const ready = pod({ phase: 'Running', ready: true });
    expect(memberPhaseOf(set, { ordinal: 1, pod: pod({ phase: 'Running', ready: true, deleting: true }) }, at(60))).toBe('Terminating');
    expect(memberPhaseOf(set, { ordinal: 3, pod: ready }, at(60))).toBe('Condemned');
    expect(memberPhaseOf(set, { ordinal: 3, pod: pod({ phase: 'Failed' }) }, at(60))).toBe('Condemned');
    expect(memberPhaseOf(set, { ordinal: 3, pod: undefined }, at(60))).toBe('Gone');
    expect(memberPhaseOf(set, { ordinal: 1, pod: pod({ phase: 'Failed', revision: 'web-1' }) }, at(60))).toBe('Failed');
    expect(memberPhaseOf(set, { ordinal: 1, pod: pod({ phase: 'Succeeded' }) }, at(60))).toBe('Failed');
    expect(memberPhaseOf(set, { ordinal: 1, pod: pod({ phase: 'Running', ready: true, revision: 'web-1' }) }, at(60))).toBe('Outdated');
  });

  it('compares the partition with the index and leaves OnDelete sets to their users', () => {
    const old = pod({ phase: 'Running', ready: true, revision: 'web-1' });
    const shifted: SetView = { ...set, start: 5, partition: 1 };
    expect(memberPhaseOf(shifted, { ordinal: 5, pod: old }, at(60))).toBe('Available');
    expect(memberPhaseOf(shifted, { ordinal: 6, pod: old }, at(60))).toBe('Outdated');
    expect(memberPhaseOf(shifted, { ordinal: 4, pod: old }, at(60))).toBe('Condemned');
    expect(memberPhaseOf({ ...set, updateStrategy: 'OnDelete' }, { ordinal: 1, pod: old }, at(60))).toBe('Available');
  });

  it('gives the controller its work and keeps every phase on a path back to gone', () => {
    expect([...controllerActsOn].sort()).toEqual(['Condemned', 'Failed', 'Missing', 'Outdated']);
    expect(memberCanReach('Failed', 'Available')).toBe(true);
    expect(memberCanReach('Terminating', 'Outdated')).toBe(true);
    for (const phase of ['Missing', 'Pending', 'RunningUnready', 'Ready', 'Available', 'Failed', 'Outdated', 'Condemned', 'Terminating'] as const) {
      expect(memberCanReach(phase, 'Gone'), phase).toBe(true);
    }
  });
});
