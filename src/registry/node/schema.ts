/**
 * Node (core/v1) schema facts: the spec a scheduler reads and the status a node agent writes.
 * Merge keys follow the Go struct tags (conditions and addresses by `type`, podCIDRs a set).
 * Rarely-read structures (images, daemon endpoints, config) are free-form.
 */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

const resourceList = () => s.map(s.quantity(), { goType: 'v1.ResourceList' });

const taint = s.struct('Taint', { key: s.string(), value: s.string(), effect: s.string(), timeAdded: s.time() });

export const nodeSpecSchema = s.struct('NodeSpec', {
  podCIDR: s.string(),
  podCIDRs: s.set(s.string()),
  providerID: s.string(),
  unschedulable: s.boolean(),
  taints: s.atomicList(taint),
  configSource: s.any(),
  externalID: s.string(),
});

const nodeCondition = s.struct('NodeCondition', {
  type: s.string(),
  status: s.string(),
  lastHeartbeatTime: s.time(),
  lastTransitionTime: s.time(),
  reason: s.string(),
  message: s.string(),
});

const nodeAddress = s.struct('NodeAddress', { type: s.string(), address: s.string() });

const nodeSystemInfo = s.struct('NodeSystemInfo', {
  machineID: s.string(),
  systemUUID: s.string(),
  bootID: s.string(),
  kernelVersion: s.string(),
  osImage: s.string(),
  containerRuntimeVersion: s.string(),
  kubeletVersion: s.string(),
  kubeProxyVersion: s.string(),
  operatingSystem: s.string(),
  architecture: s.string(),
  swap: s.any(),
});

export const nodeStatusSchema = s.struct('NodeStatus', {
  capacity: resourceList(),
  allocatable: resourceList(),
  phase: s.string(),
  conditions: s.keyedList(nodeCondition, 'type'),
  addresses: s.keyedList(nodeAddress, 'type'),
  daemonEndpoints: s.any(),
  nodeInfo: nodeSystemInfo,
  images: s.atomicList(s.any()),
  volumesInUse: s.atomicList(s.string()),
  volumesAttached: s.atomicList(s.any()),
  config: s.any(),
  runtimeHandlers: s.atomicList(s.any()),
  features: s.any(),
  declaredFeatures: s.atomicList(s.string()),
});

export const nodeSchema = s.struct('Node', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  spec: nodeSpecSchema,
  status: nodeStatusSchema,
});
