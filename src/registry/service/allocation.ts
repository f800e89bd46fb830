/**
 * Cluster IPs and node ports without allocator state. Kubernetes keeps a bitmap of the service
 * CIDR (10.96.0.0/12 here, kubeadm's default) and the node-port range (30000-32767) and hands
 * out random free values. The simulation may use neither randomness nor hidden state, so a value
 * is derived from an FNV-1a hash of `namespace/name` (and the port's index): the same service
 * always gets the same address. Divergence: two services can, rarely, hash to the same value,
 * where Kubernetes would never hand one out twice.
 */
import { formatIPv4, parseIPv4 } from './ipv4.ts';

export const serviceCIDR = '10.96.0.0/12';
const cidrBase = 10 * 2 ** 24 + 96 * 2 ** 16;
const cidrSize = 2 ** 20;
const nodePortBase = 30000;
const nodePortCount = 2768;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Skips the network address, `.1` (the API server's own service) and the broadcast address. */
export function clusterIPFor(namespace: string, name: string): string {
  return formatIPv4(cidrBase + 2 + (fnv1a(`${namespace}/${name}`) % (cidrSize - 3)));
}

export function nodePortFor(namespace: string, name: string, index: number): number {
  return nodePortBase + (fnv1a(`${namespace}/${name}#${index}`) % nodePortCount);
}

export function inServiceCIDR(ip: string): boolean {
  const parsed = parseIPv4(ip);
  return parsed.ok && parsed.value >= cidrBase && parsed.value < cidrBase + cidrSize;
}

/** The allocator's answer for a requested IP outside the range. */
export function notInRangeMessage(ip: string): string {
  return `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${serviceCIDR}`;
}
