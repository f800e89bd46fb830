/**
 * The pod printer's cells (kube-apiserver printPod): Ready, Status with the container and init
 * container reasons, Restarts with the last restart's age, and the wide columns.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { parseInstant } from '../../../src/core/duration.ts';
import type { JsonObject } from '../../../src/core/json.ts';
import { podColumns } from '../../../src/registry/pod/table.ts';

const now = parseInstant('2026-01-01T01:00:00Z')!;
const cells = (spec: JsonObject, status: JsonObject, metadata: JsonObject = {}): unknown[] =>
  podColumns.map((c) => c.cell({ metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z', ...metadata }, spec, status } as KubeObject, now));
const containers = (...names: string[]): JsonObject => ({ containers: names.map((name) => ({ name, image: 'i' })) });
const running = (name: string, ready: boolean, restartCount = 0, finishedAt?: string): JsonObject => ({
  name,
  ready,
  restartCount,
  state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
  ...(finishedAt === undefined ? {} : { lastState: { terminated: { exitCode: 1, finishedAt } } }),
});

describe('pod table cells', () => {
  it('a pending pod: no IP, no node, <none> for the wide columns', () => {
    expect(cells(containers('a'), { phase: 'Pending' })).toEqual(['p', '0/1', 'Pending', '0', '60m', '<none>', '<none>', '<none>', '<none>']);
  });

  it('ready counts running ready containers; restarts sum with the last restart age', () => {
    const status = { phase: 'Running', podIPs: [{ ip: '10.0.0.1' }], nominatedNodeName: 'n2', containerStatuses: [running('a', true, 2, '2026-01-01T00:59:00Z'), running('b', false, 1, '2026-01-01T00:30:00Z')] };
    expect(cells({ ...containers('a', 'b'), nodeName: 'n1' }, status)).toEqual(['p', '1/2', 'Running', '3 (60s ago)', '60m', '10.0.0.1', 'n1', 'n2', '<none>']);
  });

  it('container reasons: waiting, terminated with a reason, exit code and signal', () => {
    const one = (state: JsonObject): unknown => cells(containers('a'), { phase: 'Running', containerStatuses: [{ name: 'a', ready: false, restartCount: 0, state }] })[2];
    expect(one({ waiting: { reason: 'ContainerCreating' } })).toBe('ContainerCreating');
    expect(one({ waiting: { reason: 'CrashLoopBackOff' } })).toBe('CrashLoopBackOff');
    expect(one({ terminated: { exitCode: 0, reason: 'Completed' } })).toBe('Completed');
    expect(one({ terminated: { exitCode: 3 } })).toBe('ExitCode:3');
    expect(one({ terminated: { exitCode: 137, signal: 9 } })).toBe('Signal:9');
  });

  it('Completed with a container still running reads Running or NotReady', () => {
    const statuses = [running('a', true), { name: 'b', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }];
    expect(cells(containers('a', 'b'), { phase: 'Running', containerStatuses: statuses, conditions: [{ type: 'Ready', status: 'True' }] }).slice(1, 3)).toEqual(['1/2', 'Running']);
    expect(cells(containers('a', 'b'), { phase: 'Running', containerStatuses: statuses }).slice(1, 3)).toEqual(['1/2', 'NotReady']);
  });

  it('init containers: Init:n/m, Init:<reason>, restartable (sidecar) ones count as containers', () => {
    const spec = { ...containers('main'), initContainers: [{ name: 'i1' }, { name: 'i2' }] };
    const init = (i1: JsonObject, i2: JsonObject): unknown[] => cells(spec, { phase: 'Pending', initContainerStatuses: [{ name: 'i1', restartCount: 0, ...i1 }, { name: 'i2', restartCount: 0, ...i2 }] }).slice(1, 4);
    expect(init({ state: { terminated: { exitCode: 0 } } }, { state: { running: {} } })).toEqual(['0/1', 'Init:1/2', '0']);
    expect(init({ state: { waiting: { reason: 'ImagePullBackOff' } } }, {})).toEqual(['0/1', 'Init:ImagePullBackOff', '0']);
    expect(init({ state: { terminated: { exitCode: 2 } }, restartCount: 4 }, {})).toEqual(['0/1', 'Init:ExitCode:2', '4']);
    expect(init({ state: { terminated: { exitCode: 1, reason: 'Error' } } }, {})).toEqual(['0/1', 'Init:Error', '0']);
    const sidecar = { ...containers('main'), initContainers: [{ name: 's', restartPolicy: 'Always' }] };
    const status = { phase: 'Running', conditions: [{ type: 'Initialized', status: 'True' }], initContainerStatuses: [{ name: 's', ready: true, started: true, restartCount: 1, state: { running: {} } }], containerStatuses: [running('main', true)] };
    expect(cells(sidecar, status).slice(1, 4)).toEqual(['2/2', 'Running', '1']);
  });

  it('SchedulingGated, Terminating, a pod reason, readiness gates', () => {
    expect(cells(containers('a'), { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] })[2]).toBe('SchedulingGated');
    expect(cells(containers('a'), { phase: 'Running' }, { deletionTimestamp: '2026-01-01T00:59:00Z' })[2]).toBe('Terminating');
    expect(cells(containers('a'), { phase: 'Succeeded' }, { deletionTimestamp: '2026-01-01T00:59:00Z' })[2]).toBe('Succeeded');
    expect(cells(containers('a'), { phase: 'Failed', reason: 'Evicted' })[2]).toBe('Evicted');
    const gates = { ...containers('a'), readinessGates: [{ conditionType: 'x' }, { conditionType: 'y' }] };
    expect(cells(gates, { phase: 'Running', conditions: [{ type: 'x', status: 'True' }, { type: 'y', status: 'False' }] })[8]).toBe('1/2');
  });
});
