/**
 * The life of a pod under the simulated node agent, as a table (CONTRACT.md "Simulated node
 * agent", docs/node-agent.md): its phases, and every move with who makes it (a user, the
 * scheduler through `pods/binding`, the kubelet through `pods/status` or its final delete), what
 * marks it and what sets it off. The kubelet's moves carry their timing — which clock, which
 * annotation gives the delay, what applies without one — and lifecycle.ts computes the due steps
 * from them; the diagram of the docs is rendered from the table.
 *
 * The kubelet's steps come by the clock, not by phase: each is applied once, when due, whatever
 * a client wrote to `pods/status` meanwhile (the agent never reverts such a write).
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField } from '../../core/json.ts';
import type { Lifecycle, Move } from '../../core/lifecycle.ts';

export const annotations = {
  readyAfter: 'sim.platform.io/ready-after',
  neverReady: 'sim.platform.io/never-ready',
  failAfter: 'sim.platform.io/fail-after',
  terminateAfter: 'sim.platform.io/terminate-after',
} as const;

export type PodPhase = 'Removed' | 'Unscheduled' | 'Scheduled' | 'Running' | 'Ready' | 'Failed' | 'Succeeded' | 'Terminating';

export type PodActor = 'user' | 'scheduler' | 'node-agent';

export type PodVia = 'create' | 'pods/binding' | 'pods/status' | 'delete' | 'delete, grace 0';

/** One of the kubelet's timed steps. */
export type AgentStep = 'start' | 'ready' | 'fail' | 'remove';

export interface StepTiming {
  readonly step: AgentStep;
  /** The clock: the pod's creation, or the start of its deletion (deletionTimestamp − grace). */
  readonly since: 'creation' | 'deletion';
  /** The annotation holding the delay (a Go duration); a missing or unreadable one gives `otherwise`. */
  readonly delayAnnotation?: string;
  readonly otherwise: 'no delay' | 'podReadyAfter' | 'never';
  /** The annotation that, set to "true", cancels the step. */
  readonly cancelledBy?: string;
}

export interface PodMove extends Move<PodPhase> {
  readonly actor: PodActor;
  readonly via: PodVia;
  readonly step?: StepTiming;
}

const onNode: readonly PodPhase[] = ['Scheduled', 'Running', 'Ready', 'Failed', 'Succeeded'];

export const podLifecycle: Lifecycle<PodPhase, PodMove> = {
  name: 'pod',
  outside: 'Removed',
  groups: [{ name: 'OnNode', phases: onNode }],
  phases: [
    { name: 'Removed', means: 'no object: not created yet, or removed' },
    { name: 'Unscheduled', means: 'Pending, no spec.nodeName' },
    { name: 'Scheduled', means: 'Pending on node-1, not started' },
    { name: 'Running', means: 'phase Running, Ready False' },
    { name: 'Ready', means: 'phase Running, Ready True' },
    { name: 'Failed', means: 'phase Failed, containers terminated with exit code 1' },
    { name: 'Succeeded', means: 'phase Succeeded (only a client writes it)' },
    { name: 'Terminating', means: 'deletionTimestamp set, waiting for the kubelet' },
  ],
  moves: [
    { from: ['Removed'], to: 'Unscheduled', actor: 'user', via: 'create', marks: 'no spec.nodeName', label: 'create', when: 'created without a node' },
    { from: ['Removed'], to: 'Scheduled', actor: 'user', via: 'create', marks: 'spec.nodeName node-1', label: 'create on node-1', when: 'created with its node named' },
    { from: ['Unscheduled'], to: 'Scheduled', actor: 'scheduler', via: 'pods/binding', marks: 'spec.nodeName, condition PodScheduled', label: 'bind', when: 'at once, unless terminating (the node is the only one)' },
    {
      from: ['Scheduled'],
      to: 'Running',
      actor: 'node-agent',
      via: 'pods/status',
      marks: 'phase Running, host and pod IP, container statuses',
      label: 'start',
      when: 'at creation',
      step: { step: 'start', since: 'creation', otherwise: 'no delay' },
    },
    {
      from: ['Scheduled', 'Running'],
      to: 'Ready',
      actor: 'node-agent',
      via: 'pods/status',
      marks: 'conditions Ready and ContainersReady True',
      label: 'ready-after',
      when: `${annotations.readyAfter} after creation (default the podReadyAfter option), never with ${annotations.neverReady} "true"`,
      step: { step: 'ready', since: 'creation', delayAnnotation: annotations.readyAfter, otherwise: 'podReadyAfter', cancelledBy: annotations.neverReady },
    },
    {
      from: ['Scheduled', 'Running', 'Ready'],
      to: 'Failed',
      actor: 'node-agent',
      via: 'pods/status',
      marks: 'phase Failed, containers terminated with exit code 1',
      label: 'fail-after',
      when: `${annotations.failAfter} after creation, only when annotated`,
      step: { step: 'fail', since: 'creation', delayAnnotation: annotations.failAfter, otherwise: 'never' },
    },
    { from: ['Running', 'Ready'], to: 'Succeeded', actor: 'user', via: 'pods/status', marks: 'phase Succeeded', label: 'client writes Succeeded', when: 'a client (a test) writes it, the agent never does' },
    { from: ['Unscheduled'], to: 'Removed', actor: 'user', via: 'delete', marks: 'the object is gone', label: 'DELETE', when: 'a pod without a node goes at once' },
    { from: onNode, to: 'Terminating', actor: 'user', via: 'delete', marks: 'deletionTimestamp, deletionGracePeriodSeconds', label: 'DELETE', when: 'a pod on a node waits for its kubelet' },
    {
      from: ['Terminating'],
      to: 'Removed',
      actor: 'node-agent',
      via: 'delete, grace 0',
      marks: 'the object is gone',
      label: 'terminate-after',
      when: `${annotations.terminateAfter} after the deletion started (default 0s), whatever the grace period`,
      step: { step: 'remove', since: 'deletion', delayAnnotation: annotations.terminateAfter, otherwise: 'no delay' },
    },
    { from: ['Terminating'], to: 'Removed', actor: 'user', via: 'delete, grace 0', marks: 'the object is gone', label: 'DELETE with grace 0', when: 'gracePeriodSeconds 0, the only way out without the agent' },
  ],
};

/** The kubelet's timed steps, in table order (start, ready, fail, remove). */
export const agentSteps: readonly StepTiming[] = podLifecycle.moves.flatMap((m) => (m.step === undefined ? [] : [m.step]));

/** The phase of a stored pod ('Removed' for none). */
export function podPhaseOf(pod: KubeObject | undefined): PodPhase {
  if (pod === undefined) return 'Removed';
  if (pod.metadata.deletionTimestamp !== undefined) return 'Terminating';
  const spec = objectField(pod, 'spec');
  if ((spec['nodeName'] ?? '') === '') return 'Unscheduled';
  const status = objectField(pod, 'status');
  const phase = status['phase'];
  if (phase === 'Failed' || phase === 'Succeeded') return phase;
  if (phase !== 'Running') return 'Scheduled';
  const conditions = Array.isArray(status['conditions']) ? status['conditions'] : [];
  return conditions.some((c) => isObject(c) && c['type'] === 'Ready' && c['status'] === 'True') ? 'Ready' : 'Running';
}
