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

/**
 * The pod's conditions as a kubelet writes them: a condition whose status did not change keeps
 * its lastTransitionTime (minReadySeconds counts from Ready's).
 */
function conditions(pod: KubeObject, wanted: readonly (readonly [string, boolean])[], now: string): JsonObject[] {
  const old = objectField(pod, 'status')['conditions'];
  const before = new Map((Array.isArray(old) ? old.filter(isObject) : []).map((c) => [String(c['type']), c]));
  return wanted.map(([type, ok]) => {
    const status = ok ? 'True' : 'False';
    const prev = before.get(type);
    const since = prev !== undefined && prev['status'] === status && typeof prev['lastTransitionTime'] === 'string' ? prev['lastTransitionTime'] : now;
    return { type, status, lastProbeTime: null, lastTransitionTime: since };
  });
}

export function runningStatus(pod: KubeObject, place: Placement, ready: boolean, now: Instant): JsonObject {
  const old: JsonObject = objectField(pod, 'status');
  const t = formatInstant(now);
  const started = typeof old['startTime'] === 'string' ? old['startTime'] : t;
  return {
    ...old,
    phase: 'Running',
    conditions: conditions(pod, [['PodReadyToStartContainers', true], ['Initialized', true], ['Ready', ready], ['ContainersReady', ready], ['PodScheduled', true]], t),
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
    conditions: conditions(pod, [['PodReadyToStartContainers', false], ['Initialized', true], ['Ready', false], ['ContainersReady', false], ['PodScheduled', true]], t),
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
