/** The pod lifecycle table of the node agent and the due steps computed from it. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { dueSteps } from '../../../src/controllers/node-agent/lifecycle.ts';
import { agentSteps, annotations, podPhaseOf } from '../../../src/controllers/node-agent/podLifecycle.ts';
import { parseInstant } from '../../../src/core/duration.ts';

const t0 = parseInstant('2026-01-01T00:00:00Z')!;

function pod(o: { node?: string; phase?: string; ready?: boolean; deletion?: string; grace?: number; notes?: Record<string, string> }): KubeObject {
  return {
    metadata: {
      name: 'p',
      creationTimestamp: '2026-01-01T00:00:00Z',
      annotations: o.notes ?? {},
      ...(o.deletion === undefined ? {} : { deletionTimestamp: o.deletion, deletionGracePeriodSeconds: o.grace ?? 30 }),
    },
    spec: o.node === undefined ? {} : { nodeName: o.node },
    status: { ...(o.phase === undefined ? {} : { phase: o.phase }), conditions: o.ready === undefined ? [] : [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] },
  } as unknown as KubeObject;
}

describe('pod lifecycle under the node agent', () => {
  it('names the phase of a pod', () => {
    expect(podPhaseOf(undefined)).toBe('Removed');
    expect(podPhaseOf(pod({ phase: 'Pending' }))).toBe('Unscheduled');
    expect(podPhaseOf(pod({ node: 'node-1', phase: 'Pending' }))).toBe('Scheduled');
    expect(podPhaseOf(pod({ node: 'node-1', phase: 'Running', ready: false }))).toBe('Running');
    expect(podPhaseOf(pod({ node: 'node-1', phase: 'Running', ready: true }))).toBe('Ready');
    expect(podPhaseOf(pod({ node: 'node-1', phase: 'Failed' }))).toBe('Failed');
    expect(podPhaseOf(pod({ node: 'node-1', phase: 'Running', deletion: '2026-01-01T00:00:30Z' }))).toBe('Terminating');
  });

  it('computes the due steps from the table, in table order', () => {
    expect(agentSteps.map((s) => s.step)).toEqual(['start', 'ready', 'fail', 'remove']);
    expect(dueSteps(pod({ node: 'node-1' }), 5000)).toEqual([{ step: 'start', at: t0 }, { step: 'ready', at: t0 + 5000 }]);
    const noted = pod({ node: 'node-1', notes: { [annotations.readyAfter]: '30s', [annotations.failAfter]: '1m' } });
    expect(dueSteps(noted, 0)).toEqual([{ step: 'start', at: t0 }, { step: 'ready', at: t0 + 30_000 }, { step: 'fail', at: t0 + 60_000 }]);
    expect(dueSteps(pod({ node: 'node-1', notes: { [annotations.neverReady]: 'true', [annotations.readyAfter]: 'soon' } }), 0)).toEqual([{ step: 'start', at: t0 }]);
    const deleted = pod({ node: 'node-1', deletion: '2026-01-01T00:01:30Z', grace: 30, notes: { [annotations.terminateAfter]: '10s' } });
    expect(dueSteps(deleted, 0)).toEqual([{ step: 'remove', at: t0 + 70_000 }]);
  });
});
