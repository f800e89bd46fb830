/**
 * What each built-in signer accepts (certificates.md §6.3), with the real error texts; the first
 * failing check wins. A refusal becomes a `Failed` condition with reason `SignerValidationFailure`.
 */
import type { CertificateRequestFact } from '../../api/crypto.ts';
import type { WellKnownSigners } from '../../registry/certificates/signers.ts';

type Request = CertificateRequestFact & { ok: true };

const clientUsages = new Set(['digital signature', 'key encipherment']);

function sameSet(usages: readonly string[], expected: readonly string[]): boolean {
  const set = new Set(usages);
  return set.size === expected.length && expected.every((u) => set.has(u));
}

function apiserverClient(usages: readonly string[]): string | null {
  let hasClientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') hasClientAuth = true;
    else if (!clientUsages.has(u)) return `invalid usage for client certificate: ${u}`;
  }
  return hasClientAuth ? null : 'missing required usage for client certificate: client auth';
}

const nodesOnly = (r: Request): boolean => r.subject.organizations.length === 1 && r.subject.organizations[0] === 'system:nodes';
const nodeCommonName = (r: Request): boolean => r.subject.commonName.startsWith('system:node:');

/**
 * The node-agent client shape (Kubernetes' ValidateKubeletClientCSR): the signer's check, and the
 * approver's test of which requests it may auto-approve.
 */
export function nodeAgentClientRefusal(r: Request, usages: readonly string[]): string | null {
  if (!nodesOnly(r)) return 'subject organization is not system:nodes';
  if (r.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (r.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (r.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (r.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!nodeCommonName(r)) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, ['digital signature', 'key encipherment', 'client auth']) && !sameSet(usages, ['digital signature', 'client auth'])) {
    return 'usages did not match [client auth digital signature key encipherment]';
  }
  return null;
}

function nodeAgentServing(r: Request, usages: readonly string[]): string | null {
  if (!nodesOnly(r)) return 'subject organization is not system:nodes';
  if (r.dnsNames.length === 0 && r.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (r.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (r.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, ['digital signature', 'key encipherment', 'server auth']) && !sameSet(usages, ['digital signature', 'server auth'])) {
    return 'usages did not match [digital signature key encipherment server auth]';
  }
  if (!nodeCommonName(r)) return 'subject common name does not begin with system:node:';
  return null;
}

/** The refusal of a request by its signer, null when the signer accepts it. */
export function signerRefusal(signers: WellKnownSigners, signerName: string, request: Request, usages: readonly string[]): string | null {
  if (signerName === signers.apiserverClient) return apiserverClient(usages);
  if (signerName === signers.apiserverClientNodeAgent) return nodeAgentClientRefusal(request, usages);
  if (signerName === signers.nodeAgentServing) return nodeAgentServing(request, usages);
  return null;
}
