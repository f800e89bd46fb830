/**
 * When each step of a pod's simulated life is due (CONTRACT.md "Simulated node agent"), from its
 * annotations: `sim.platform.io/ready-after` (default the `podReadyAfter` option),
 * `never-ready`, `fail-after`, `terminate-after`. Durations are Go durations; a bad one is ignored
 * (the default applies), as a kubelet ignores an annotation it cannot read.
 */
import type { KubeObject } from '../../api/meta.ts';
import { parseDuration, parseInstant, type Instant } from '../../core/duration.ts';

export const annotations = {
  readyAfter: 'sim.platform.io/ready-after',
  neverReady: 'sim.platform.io/never-ready',
  failAfter: 'sim.platform.io/fail-after',
  terminateAfter: 'sim.platform.io/terminate-after',
} as const;

export type Step = 'start' | 'ready' | 'fail' | 'remove';

function durationOf(pod: KubeObject, key: string): number | null {
  const text = pod.metadata.annotations?.[key];
  if (text === undefined) return null;
  const ms = parseDuration(text);
  return ms === null || ms < 0 ? null : ms;
}

/** The steps still to come for a pod and when each is due. */
export function dueSteps(pod: KubeObject, readyAfterDefault: number): { step: Step; at: Instant }[] {
  const created = parseInstant(pod.metadata.creationTimestamp ?? '') ?? 0;
  const deletion = pod.metadata.deletionTimestamp;
  if (deletion !== undefined) {
    // Deletion started at deletionTimestamp − grace; the pod goes terminate-after later.
    const deadline = parseInstant(deletion) ?? 0;
    const started = deadline - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
    return [{ step: 'remove', at: started + (durationOf(pod, annotations.terminateAfter) ?? 0) }];
  }
  const steps: { step: Step; at: Instant }[] = [{ step: 'start', at: created }];
  if (pod.metadata.annotations?.[annotations.neverReady] !== 'true') steps.push({ step: 'ready', at: created + (durationOf(pod, annotations.readyAfter) ?? readyAfterDefault) });
  const failAfter = durationOf(pod, annotations.failAfter);
  if (failAfter !== null) steps.push({ step: 'fail', at: created + failAfter });
  return steps;
}
