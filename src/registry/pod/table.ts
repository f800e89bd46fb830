/**
 * `kubectl get pods` columns, as kube-apiserver's pod printer (pkg/printers/internalversion
 * printPod) fills them: Name, Ready, Status, Restarts, Age, and the `-o wide` ones (priority 1:
 * the server always sends them, kubectl shows them with `-o wide`) IP, Node, Nominated Node,
 * Readiness Gates.
 */
import type { KubeObject } from '../../api/meta.ts';
import { humanAge, parseInstant, type Instant } from '../../core/duration.ts';
import { getOwn, isObject, objectField, type JsonObject, type JsonValue } from '../../core/json.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

const objects = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
const num = (v: JsonValue | undefined): number => (typeof v === 'number' ? v : 0);
const sub = (o: JsonObject, key: string): JsonObject | undefined => {
  const v = getOwn(o, key);
  return isObject(v) ? v : undefined;
};

interface PodSummary {
  readonly ready: string;
  readonly reason: string;
  readonly restarts: string;
}

/** The instant a container last terminated (`lastState.terminated.finishedAt`), or null. */
function finishedAt(c: JsonObject): Instant | null {
  const t = sub(sub(c, 'lastState') ?? {}, 'terminated');
  return t === undefined ? null : parseInstant(str(t['finishedAt']));
}

const later = (a: Instant | null, b: Instant | null): Instant | null => (b !== null && (a === null || b > a) ? b : a);

function isTrue(conditions: readonly JsonObject[], type: string): boolean {
  return conditions.some((c) => c['type'] === type && c['status'] === 'True');
}

/** printPod's Ready, Status and Restarts cells. */
function summarise(pod: KubeObject, now: Instant): PodSummary {
  const spec = objectField(pod, 'spec');
  const status = objectField(pod, 'status');
  const conditions = objects(status['conditions']);
  const initContainers = objects(spec['initContainers']);
  const restartable = new Set(initContainers.filter((c) => c['restartPolicy'] === 'Always').map((c) => str(c['name'])));
  const total = objects(spec['containers']).length + restartable.size;
  let ready = 0;
  let restarts = 0;
  let restartableRestarts = 0;
  let lastRestart: Instant | null = null;
  let lastRestartableRestart: Instant | null = null;
  const phase = str(status['phase']);
  let reason = str(status['reason']) || phase;
  if (conditions.some((c) => c['type'] === 'PodScheduled' && c['reason'] === 'SchedulingGated')) reason = 'SchedulingGated';

  let initializing = false;
  const initStatuses = objects(status['initContainerStatuses']);
  for (const [i, c] of initStatuses.entries()) {
    const name = str(c['name']);
    restarts += num(c['restartCount']);
    lastRestart = later(lastRestart, finishedAt(c));
    if (restartable.has(name)) {
      restartableRestarts += num(c['restartCount']);
      lastRestartableRestart = later(lastRestartableRestart, finishedAt(c));
    }
    const state = sub(c, 'state') ?? {};
    const terminated = sub(state, 'terminated');
    const waiting = sub(state, 'waiting');
    if (terminated !== undefined && num(terminated['exitCode']) === 0) continue;
    if (restartable.has(name) && c['started'] === true) {
      if (c['ready'] === true) ready++;
      continue;
    }
    if (terminated !== undefined) {
      const r = str(terminated['reason']);
      const signal = num(terminated['signal']);
      reason = r !== '' ? `Init:${r}` : signal !== 0 ? `Init:Signal:${signal}` : `Init:ExitCode:${num(terminated['exitCode'])}`;
    } else if (waiting !== undefined && str(waiting['reason']) !== '' && waiting['reason'] !== 'PodInitializing') {
      reason = `Init:${str(waiting['reason'])}`;
    } else {
      reason = `Init:${i}/${initContainers.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || isTrue(conditions, 'Initialized')) {
    restarts = restartableRestarts;
    lastRestart = lastRestartableRestart;
    let hasRunning = false;
    const statuses = objects(status['containerStatuses']);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += num(c['restartCount']);
      lastRestart = later(lastRestart, finishedAt(c));
      const state = sub(c, 'state') ?? {};
      const terminated = sub(state, 'terminated');
      const waiting = sub(state, 'waiting');
      if (waiting !== undefined && str(waiting['reason']) !== '') reason = str(waiting['reason']);
      else if (terminated !== undefined && str(terminated['reason']) !== '') reason = str(terminated['reason']);
      else if (terminated !== undefined) {
        const signal = num(terminated['signal']);
        reason = signal !== 0 ? `Signal:${signal}` : `ExitCode:${num(terminated['exitCode'])}`;
      } else if (c['ready'] === true && sub(state, 'running') !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = isTrue(conditions, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata.deletionTimestamp !== undefined && status['reason'] === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp !== undefined && phase !== 'Failed' && phase !== 'Succeeded') reason = 'Terminating';

  const restartsText = restarts !== 0 && lastRestart !== null ? `${restarts} (${humanAge(now - lastRestart)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, reason, restarts: restartsText };
}

const orNone = (s: string): string => (s === '' ? '<none>' : s);

function readinessGates(pod: KubeObject): string {
  const gates = objects(objectField(pod, 'spec')['readinessGates']);
  if (gates.length === 0) return '<none>';
  const conditions = objects(objectField(pod, 'status')['conditions']);
  const trueOnes = gates.filter((g) => conditions.find((c) => c['type'] === g['conditionType'])?.['status'] === 'True').length;
  return `${trueOnes}/${gates.length}`;
}

const column = (name: string, description: string, priority: number, cell: TableColumn['cell']): TableColumn => ({ name, type: 'string', format: '', description, priority, cell });

export const podColumns: readonly TableColumn[] = [
  nameColumn,
  column('Ready', 'The aggregate readiness state of this pod for accepting traffic.', 0, (obj, now) => summarise(obj, now).ready),
  column('Status', 'The aggregate status of the containers in this pod.', 0, (obj, now) => summarise(obj, now).reason),
  column('Restarts', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.', 0, (obj, now) => summarise(obj, now).restarts),
  ageColumn,
  column('IP', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1, (obj) => orNone(str(objects(objectField(obj, 'status')['podIPs'])[0]?.['ip']))),
  column(
    'Node',
    'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
    1,
    (obj) => orNone(str(objectField(obj, 'spec')['nodeName'])),
  ),
  column(
    'Nominated Node',
    'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
    1,
    (obj) => orNone(str(objectField(obj, 'status')['nominatedNodeName'])),
  ),
  column(
    'Readiness Gates',
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
    1,
    readinessGates,
  ),
];
