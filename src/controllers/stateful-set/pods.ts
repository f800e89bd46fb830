/**
 * A member pod as the controller builds it (reference §6.7) and the identity it must keep (§6.8):
 * name `<set>-<ordinal>`; the template's labels plus the pod-name, pod-index and
 * `controller-revision-hash` labels; the template's annotations and finalizers; the set as
 * controller owner; hostname = pod name and subdomain = serviceName; one volume per claim
 * template pointing at `<template>-<set>-<ordinal>` (claim volumes first, in template order, then
 * the template's other volumes: a claim template wins over a same-named volume).
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Names } from '../../api/names.ts';
import { isObject, objectField, type JsonObject } from '../../core/json.ts';
import { podName, setOwnerReference } from './members.ts';
import { revisionLabel } from './podLifecycle.ts';
import type { SetSpec } from './spec.ts';

export function claimName(template: KubeObject, setName: string, ordinal: number): string {
  return `${template.metadata?.name ?? ''}-${setName}-${ordinal}`;
}

/** The volumes a member's claims give it, in template order. */
function claimVolumes(spec: SetSpec, ordinal: number): JsonObject[] {
  return spec.claimTemplates.map((t) => ({ name: t.metadata?.name ?? '', persistentVolumeClaim: { claimName: claimName(t, spec.name, ordinal) } }));
}

function withStorage(podSpec: JsonObject, spec: SetSpec, ordinal: number): JsonObject {
  if (spec.claimTemplates.length === 0) return podSpec;
  const claimed = new Set(spec.claimTemplates.map((t) => t.metadata?.name ?? ''));
  const others = (Array.isArray(podSpec['volumes']) ? podSpec['volumes'].filter(isObject) : []).filter((v) => !claimed.has(String(v['name'])));
  return { ...podSpec, volumes: [...claimVolumes(spec, ordinal), ...others] };
}

/** The identity labels of a member. */
export function identityLabels(names: Names, setName: string, ordinal: number): Record<string, string> {
  return { [names.podNameLabel]: podName(setName, ordinal), [names.podIndexLabel]: String(ordinal) };
}

/**
 * The pod for `ordinal` built from `template` (the template of the revision it gets), labelled
 * with that revision's name.
 */
export function newMemberPod(set: KubeObject, spec: SetSpec, names: Names, template: JsonObject, revision: string, ordinal: number): KubeObject {
  const meta = objectField(template, 'metadata');
  const name = podName(spec.name, ordinal);
  const labels = { ...(isObject(meta['labels']) ? (meta['labels'] as Record<string, string>) : {}), ...identityLabels(names, spec.name, ordinal), [revisionLabel]: revision };
  const podSpec: JsonObject = { ...objectField(template, 'spec'), hostname: name, ...(spec.serviceName === '' ? {} : { subdomain: spec.serviceName }) };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: `${spec.name}-`,
      namespace: spec.namespace,
      labels,
      ...(isObject(meta['annotations']) ? { annotations: { ...(meta['annotations'] as Record<string, string>) } } : {}),
      ...(Array.isArray(meta['finalizers']) ? { finalizers: meta['finalizers'].filter((f): f is string => typeof f === 'string') } : {}),
      ownerReferences: [setOwnerReference(set)],
    },
    spec: withStorage(podSpec, spec, ordinal),
  };
}

/** The pod's identity matches its ordinal (§6.8): the pod-name label. Name and namespace match by construction. */
export function identityMatches(names: Names, pod: KubeObject): boolean {
  return pod.metadata.labels?.[names.podNameLabel] === pod.metadata.name;
}

/** Every claim template has its volume, pointing at the member's claim. */
export function storageMatches(spec: SetSpec, pod: KubeObject, ordinal: number): boolean {
  if (spec.claimTemplates.length === 0) return true;
  const volumes = objectField(pod, 'spec')['volumes'];
  const list = Array.isArray(volumes) ? volumes.filter(isObject) : [];
  return spec.claimTemplates.every((t) => {
    const v = list.find((x) => x['name'] === t.metadata?.name);
    return v !== undefined && objectField(v, 'persistentVolumeClaim')['claimName'] === claimName(t, spec.name, ordinal);
  });
}

/** The pod with its identity labels and its claim volumes restored (updateIdentity, updateStorage). */
export function repaired(names: Names, spec: SetSpec, pod: KubeObject, ordinal: number): KubeObject {
  const labels = { ...(pod.metadata.labels ?? {}), ...identityLabels(names, spec.name, ordinal) };
  return { ...pod, metadata: { ...pod.metadata, labels }, spec: withStorage(objectField(pod, 'spec'), spec, ordinal) };
}
