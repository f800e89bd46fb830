/**
 * Pod (core/v1) schema facts, the parts the simulation and its clients use. Merge keys follow
 * the Go struct tags (containers and volumes by name, env by name, ports by containerPort,
 * volumeMounts by mountPath, conditions by type). Large rarely-read structures (probes, security
 * contexts, affinity) are free-form here: accepted and kept as sent.
 */
import { s, type StructSchema } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

const envVar = s.struct('EnvVar', { name: s.string(), value: s.string(), valueFrom: s.any() });
const containerPort = s.struct('ContainerPort', {
  name: s.string(),
  hostPort: s.int32(),
  containerPort: s.int32(),
  protocol: s.string(),
  hostIP: s.string(),
});
const volumeMount = s.struct('VolumeMount', {
  name: s.string(),
  readOnly: s.boolean(),
  recursiveReadOnly: s.string(),
  mountPath: s.string(),
  subPath: s.string(),
  mountPropagation: s.string(),
  subPathExpr: s.string(),
});
const resources = s.struct('ResourceRequirements', {
  limits: s.map(s.quantity()),
  requests: s.map(s.quantity()),
  claims: s.any(),
});

export const containerSchema = s.struct('Container', {
  name: s.string(),
  image: s.string(),
  command: s.atomicList(s.string()),
  args: s.atomicList(s.string()),
  workingDir: s.string(),
  ports: s.keyedList(containerPort, 'containerPort', ['protocol']),
  envFrom: s.atomicList(s.any()),
  env: s.keyedList(envVar, 'name'),
  resources,
  resizePolicy: s.any(),
  restartPolicy: s.string(),
  volumeMounts: s.keyedList(volumeMount, 'mountPath'),
  volumeDevices: s.any(),
  livenessProbe: s.any(),
  readinessProbe: s.any(),
  startupProbe: s.any(),
  lifecycle: s.any(),
  terminationMessagePath: s.string(),
  terminationMessagePolicy: s.string(),
  imagePullPolicy: s.string(),
  securityContext: s.any(),
  stdin: s.boolean(),
  stdinOnce: s.boolean(),
  tty: s.boolean(),
});

const volume = s.struct('Volume', {
  name: s.string(),
  hostPath: s.any(),
  emptyDir: s.any(),
  secret: s.any(),
  configMap: s.any(),
  persistentVolumeClaim: s.struct('PersistentVolumeClaimVolumeSource', { claimName: s.string(), readOnly: s.boolean() }),
  projected: s.any(),
  downwardAPI: s.any(),
  ephemeral: s.any(),
  csi: s.any(),
  nfs: s.any(),
});

export const podSpecSchema: StructSchema = s.struct('PodSpec', {
  volumes: s.keyedList(volume, 'name'),
  initContainers: s.keyedList(containerSchema, 'name'),
  containers: s.keepEmpty(s.keyedList(containerSchema, 'name')),
  ephemeralContainers: s.any(),
  restartPolicy: s.string(),
  terminationGracePeriodSeconds: s.int64(),
  activeDeadlineSeconds: s.int64(),
  dnsPolicy: s.string(),
  nodeSelector: s.map(s.string()),
  serviceAccountName: s.string(),
  serviceAccount: s.string(),
  automountServiceAccountToken: s.boolean(),
  nodeName: s.string(),
  hostNetwork: s.boolean(),
  hostPID: s.boolean(),
  hostIPC: s.boolean(),
  shareProcessNamespace: s.boolean(),
  securityContext: s.any(),
  imagePullSecrets: s.keyedList(s.struct('LocalObjectReference', { name: s.string() }), 'name'),
  hostname: s.string(),
  subdomain: s.string(),
  affinity: s.any(),
  schedulerName: s.string(),
  tolerations: s.atomicList(s.any()),
  hostAliases: s.any(),
  priorityClassName: s.string(),
  priority: s.int32(),
  dnsConfig: s.any(),
  readinessGates: s.atomicList(s.any()),
  runtimeClassName: s.string(),
  enableServiceLinks: s.boolean(),
  preemptionPolicy: s.string(),
  overhead: s.map(s.quantity()),
  topologySpreadConstraints: s.any(),
  setHostnameAsFQDN: s.boolean(),
  os: s.any(),
  hostUsers: s.boolean(),
  schedulingGates: s.any(),
  resourceClaims: s.any(),
  resources: s.any(),
});

const podCondition = s.struct('PodCondition', {
  type: s.string(),
  observedGeneration: s.int64(),
  status: s.string(),
  lastProbeTime: s.time(),
  lastTransitionTime: s.time(),
  reason: s.string(),
  message: s.string(),
});

export const podStatusSchema = s.struct('PodStatus', {
  observedGeneration: s.int64(),
  phase: s.string(),
  conditions: s.keyedList(podCondition, 'type'),
  message: s.string(),
  reason: s.string(),
  nominatedNodeName: s.string(),
  hostIP: s.string(),
  hostIPs: s.any(),
  podIP: s.string(),
  podIPs: s.any(),
  startTime: s.time(),
  initContainerStatuses: s.atomicList(s.any()),
  containerStatuses: s.atomicList(s.any()),
  qosClass: s.string(),
  ephemeralContainerStatuses: s.atomicList(s.any()),
  resize: s.string(),
  resourceClaimStatuses: s.any(),
});

export const podSchema = s.struct('Pod', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: podSpecSchema,
  status: podStatusSchema,
});
