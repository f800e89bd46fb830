/**
 * When each step of a pod's simulated life is due (CONTRACT.md "Simulated node agent"), from its
 * annotations: `sim.platform.io/ready-after` (default the `podReadyAfter` option),
 * `never-ready`, `fail-after`, `terminate-after`. Which steps there are, their clocks, annotations
 * and defaults are the kubelet's moves in the pod lifecycle table (podLifecycle.ts). Durations are
 * Go durations; a bad one is ignored (the default applies), as a kubelet ignores an annotation it
 * cannot read.
 */
import type { KubeObject } from '../../api/meta.ts';
import { parseDuration, parseInstant, type Instant } from '../../core/duration.ts';
import { agentSteps, type AgentStep, type StepTiming } from './podLifecycle.ts';
import { getOwn } from '../../core/json.ts';

export { annotations } from './podLifecycle.ts';

export type Step = AgentStep;

function durationOf(pod: KubeObject, key: string): number | null {
  const text = getOwn(pod.metadata.annotations ?? {}, key);
  if (text === undefined) return null;
  const ms = parseDuration(text);
  return ms === null || ms < 0 ? null : ms;
}

/** The delay of a step for this pod, or null when the step never comes. */
function delayOf(pod: KubeObject, timing: StepTiming, readyAfterDefault: number): number | null {
  if (timing.cancelledBy !== undefined && getOwn(pod.metadata.annotations ?? {}, timing.cancelledBy) === 'true') return null;
  const given = timing.delayAnnotation === undefined ? null : durationOf(pod, timing.delayAnnotation);
  if (given !== null) return given;
  return timing.otherwise === 'no delay' ? 0 : timing.otherwise === 'podReadyAfter' ? readyAfterDefault : null;
}

/** The steps still to come for a pod and when each is due. */
export function dueSteps(pod: KubeObject, readyAfterDefault: number): readonly { step: Step; at: Instant }[] {
  // A stored pod never changes: its steps are worked out once per object (and default).
  const known = stepsByPod.get(pod);
  if (known !== undefined && known.readyAfterDefault === readyAfterDefault) return known.steps;
  const steps = computeSteps(pod, readyAfterDefault);
  stepsByPod.set(pod, { readyAfterDefault, steps });
  return steps;
}

const stepsByPod = new WeakMap<KubeObject, { readonly readyAfterDefault: number; readonly steps: readonly { step: Step; at: Instant }[] }>();

function computeSteps(pod: KubeObject, readyAfterDefault: number): { step: Step; at: Instant }[] {
  const deletion = pod.metadata.deletionTimestamp;
  // Deletion started at deletionTimestamp − grace; until then the clock is the pod's creation.
  const since = deletion === undefined ? 'creation' : 'deletion';
  const start =
    deletion === undefined ? (parseInstant(pod.metadata.creationTimestamp ?? '') ?? 0) : (parseInstant(deletion) ?? 0) - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return agentSteps
    .filter((t) => t.since === since)
    .flatMap((t) => {
      const delay = delayOf(pod, t, readyAfterDefault);
      return delay === null ? [] : [{ step: t.step, at: start + delay }];
    });
}
