/**
 * Pod status as a kubelet writes it: phase, the standard conditions, host and pod IPs, start time
 * and one container status per container.
 */
import type { KubeObject } from '../../api/meta.ts';
import { formatInstant, type Instant } from '../../core/duration.ts';
import { isObject, type JsonObject, objectField } from '../../core/json.ts';

export interface Placement {
  readonly hostIP: string;
  readonly podIP: string;
}

const containersOf = (pod: KubeObject): JsonObject[] => {
  const spec = objectField(pod, 'spec');
  return Array.isArray(spec['containers']) ? spec['containers'].filter(isObject) : [];
};

function condition(type: string, ok: boolean, now: string): JsonObject {
  return { type, status: ok ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: now };
}

export function runningStatus(pod: KubeObject, place: Placement, ready: boolean, now: Instant): JsonObject {
  const old: JsonObject = objectField(pod, 'status');
  const t = formatInstant(now);
  const started = typeof old['startTime'] === 'string' ? old['startTime'] : t;
  return {
    ...old,
    phase: 'Running',
    conditions: [condition('PodReadyToStartContainers', true, t), condition('Initialized', true, t), condition('Ready', ready, t), condition('ContainersReady', ready, t), condition('PodScheduled', true, t)],
    hostIP: place.hostIP,
    hostIPs: [{ ip: place.hostIP }],
    podIP: place.podIP,
    podIPs: [{ ip: place.podIP }],
    startTime: started,
    containerStatuses: containersOf(pod).map((c) => ({
      name: String(c['name'] ?? ''),
      state: { running: { startedAt: started } },
      ready,
      restartCount: 0,
      image: String(c['image'] ?? ''),
      imageID: '',
      containerID: `sim://${pod.metadata.uid ?? ''}/${String(c['name'] ?? '')}`,
      started: true,
    })),
  };
}

export function failedStatus(pod: KubeObject, now: Instant): JsonObject {
  const old: JsonObject = objectField(pod, 'status');
  const t = formatInstant(now);
  return {
    ...old,
    phase: 'Failed',
    conditions: [condition('PodReadyToStartContainers', false, t), condition('Initialized', true, t), condition('Ready', false, t), condition('ContainersReady', false, t), condition('PodScheduled', true, t)],
    containerStatuses: containersOf(pod).map((c) => ({
      name: String(c['name'] ?? ''),
      state: { terminated: { exitCode: 1, reason: 'Error', finishedAt: t } },
      ready: false,
      restartCount: 0,
      image: String(c['image'] ?? ''),
      imageID: '',
      containerID: `sim://${pod.metadata.uid ?? ''}/${String(c['name'] ?? '')}`,
      started: false,
    })),
  };
}
