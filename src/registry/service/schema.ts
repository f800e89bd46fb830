/**
 * Service (core/v1) schema facts. `ports` is the real `+listType=map` with keys port and
 * protocol, merged by `port` under strategic merge patch; `selector` is an atomic map; the
 * IP lists are atomic. Session affinity config is free-form.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

export const servicePortSchema = s.struct('ServicePort', {
  name: s.string(),
  protocol: s.string(),
  appProtocol: s.string(),
  port: s.int32(),
  targetPort: s.intOrString(),
  nodePort: s.int32(),
});

export const serviceSpecSchema = s.struct('ServiceSpec', {
  ports: s.keyedList(servicePortSchema, 'port', ['protocol']),
  selector: s.map(s.string(), { atomic: true }),
  clusterIP: s.string(),
  clusterIPs: s.atomicList(s.string()),
  type: s.string(),
  externalIPs: s.atomicList(s.string()),
  sessionAffinity: s.string(),
  loadBalancerIP: s.string(),
  loadBalancerSourceRanges: s.atomicList(s.string()),
  externalName: s.string(),
  externalTrafficPolicy: s.string(),
  healthCheckNodePort: s.int32(),
  publishNotReadyAddresses: s.boolean(),
  sessionAffinityConfig: s.any(),
  ipFamilies: s.atomicList(s.string()),
  ipFamilyPolicy: s.string(),
  allocateLoadBalancerNodePorts: s.boolean(),
  loadBalancerClass: s.string(),
  internalTrafficPolicy: s.string(),
  trafficDistribution: s.string(),
});

const loadBalancerIngress = s.struct('LoadBalancerIngress', {
  ip: s.string(),
  hostname: s.string(),
  ipMode: s.string(),
  ports: s.atomicList(s.any()),
});

const condition = s.struct('Condition', {
  type: s.string(),
  status: s.string(),
  observedGeneration: s.int64(),
  lastTransitionTime: s.time(),
  reason: s.string(),
  message: s.string(),
});

export const serviceStatusSchema = s.struct('ServiceStatus', {
  loadBalancer: s.struct('LoadBalancerStatus', { ingress: s.atomicList(loadBalancerIngress) }),
  conditions: s.keyedList(condition, 'type'),
});

export const serviceSchema = s.struct('Service', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: serviceSpecSchema,
  status: serviceStatusSchema,
});
