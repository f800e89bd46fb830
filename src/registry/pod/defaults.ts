/**
 * Pod defaults as the real API server applies them (SetDefaults_PodSpec, SetDefaults_Container):
 * restart policy, grace period, DNS policy, service account, scheduler, priority; per container
 * the termination message path and policy, the pull policy from the image tag, and TCP for a
 * container port without a protocol (SetDefaults_ContainerPort; `kubectl describe` prints `80/TCP`).
 */
import type { KubeObject } from '../../api/meta.ts';
import { copyInto, isObject, objectField, type JsonObject } from '../../core/json.ts';

export function defaultContainer(c: unknown): unknown {
  if (!isObject(c)) return c;
  const image = typeof c['image'] === 'string' ? c['image'] : '';
  const tagged = /:[^/]+$/.test(image) && !image.endsWith(':latest');
  const out: JsonObject = {
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: tagged ? 'IfNotPresent' : 'Always',
    resources: {},
    ...c,
  };
  if (Array.isArray(c['ports'])) out['ports'] = c['ports'].map((p) => (isObject(p) && (p['protocol'] === undefined || p['protocol'] === '') ? { ...p, protocol: 'TCP' } : p));
  return out;
}

export function withPodDefaults(obj: KubeObject): KubeObject {
  const spec: JsonObject = objectField(obj, 'spec');
  const defaults: JsonObject = {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: typeof spec['serviceAccount'] === 'string' ? spec['serviceAccount'] : 'default',
    securityContext: {},
    schedulerName: 'default-scheduler',
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
    priority: 0,
  };
  // `{ ...defaults, ...spec }` made by adding the spec's keys to the defaults: a spread given new
  // keys is built on V8's slow path (core/json.ts copyObject).
  const out: JsonObject = defaults;
  copyInto(out, spec);
  if (out['serviceAccount'] === undefined) out['serviceAccount'] = out['serviceAccountName']!;
  if (Array.isArray(spec['containers'])) out['containers'] = spec['containers'].map(defaultContainer) as JsonObject[];
  if (Array.isArray(spec['initContainers'])) out['initContainers'] = spec['initContainers'].map(defaultContainer) as JsonObject[];
  return { ...obj, spec: out };
}
