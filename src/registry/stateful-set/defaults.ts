/**
 * apps/v1 defaults of a StatefulSet (pkg/apis/apps/v1/defaults.go and the core defaulters the
 * scheme runs on the embedded template and claim templates), applied on create and update before
 * validation. maxUnavailable defaults to 1 (the MaxUnavailableStatefulSet behaviour is on in the
 * simulation, a contract divergence).
 */
import type { KubeObject } from '../../api/meta.ts';
import { isObject, objectField, type JsonObject, type JsonValue } from '../../core/json.ts';
import { defaultContainer } from '../pod/defaults.ts';

/** SetDefaults_PodSpec on a template (serviceAccountName, priority… come from pod admission, not here). */
function templateDefaults(template: JsonValue | undefined): JsonValue | undefined {
  if (!isObject(template)) return template;
  const spec: JsonObject = { ...objectField(template, 'spec') };
  const out: JsonObject = { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler', ...spec };
  if (Array.isArray(spec['containers'])) out['containers'] = spec['containers'].map(defaultContainer) as JsonValue[];
  if (Array.isArray(spec['initContainers'])) out['initContainers'] = spec['initContainers'].map(defaultContainer) as JsonValue[];
  return { ...template, spec: out };
}

function claimDefaults(claim: JsonValue): JsonValue {
  if (!isObject(claim)) return claim;
  const spec: JsonObject = { ...objectField(claim, 'spec') };
  if (spec['volumeMode'] === undefined) spec['volumeMode'] = 'Filesystem';
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...claim, spec, status: { phase: 'Pending', ...objectField(claim, 'status') } };
}

export function withStatefulSetDefaults(obj: KubeObject): KubeObject {
  const spec: JsonObject = { ...objectField(obj, 'spec') };
  if (spec['podManagementPolicy'] === undefined || spec['podManagementPolicy'] === '') spec['podManagementPolicy'] = 'OrderedReady';
  let strategy: JsonObject = { ...objectField(spec, 'updateStrategy') };
  if (strategy['type'] === undefined || strategy['type'] === '') {
    // Only when the type is defaulted is an absent rollingUpdate created.
    strategy = { ...strategy, type: 'RollingUpdate', rollingUpdate: objectField(strategy, 'rollingUpdate') };
  }
  if (strategy['type'] === 'RollingUpdate' && isObject(strategy['rollingUpdate'])) {
    strategy['rollingUpdate'] = { partition: 0, maxUnavailable: 1, ...strategy['rollingUpdate'] };
  }
  spec['updateStrategy'] = strategy;
  const retention: JsonObject = { ...objectField(spec, 'persistentVolumeClaimRetentionPolicy') };
  for (const k of ['whenDeleted', 'whenScaled']) if (retention[k] === undefined || retention[k] === '') retention[k] = 'Retain';
  spec['persistentVolumeClaimRetentionPolicy'] = retention;
  if (spec['replicas'] === undefined) spec['replicas'] = 1;
  if (spec['revisionHistoryLimit'] === undefined) spec['revisionHistoryLimit'] = 10;
  // The template is a struct, not a pointer, in apps/v1: an absent one is defaulted like any other
  // (restartPolicy Always…), so validation speaks only of what is really missing (its labels).
  const template = templateDefaults(spec['template'] ?? {});
  if (template !== undefined) spec['template'] = template;
  if (Array.isArray(spec['volumeClaimTemplates'])) spec['volumeClaimTemplates'] = spec['volumeClaimTemplates'].map(claimDefaults);
  return { ...obj, spec };
}
