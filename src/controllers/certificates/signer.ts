/**
 * The built-in signers (kube-controller-manager's csrsigning, certificates.md §6.3–6.4): an
 * approved, not failed, not yet issued request for a well-known signer is checked against that
 * signer's rules — a refusal is a `Failed` condition — then issued by the cluster signing CA,
 * with the real validity rules (backdated 5 minutes, capped by `clusterSigningDuration` and by
 * the CA). The certificate itself is a crypto fact made at the edge.
 */
import type { KubeObject } from '../../api/meta.ts';
import { formatInstant } from '../../core/duration.ts';
import { bytesToBase64 } from '../../core/base64.ts';
import { decodeGoBase64Text } from '../../registry/certificates/goBase64.ts';
import { conditionsOf, failed, specOf, statusOf } from '../../registry/certificates/csr/accessors.ts';
import { wellKnownSigners } from '../../registry/certificates/signers.ts';
import { requestsWithWork } from './requestsWithWork.ts';
import { controllerManagerActor, type Controller, type ControllerEnv, type Intent } from '../types.ts';
import { signerRefusal } from './signerChecks.ts';

const minute = 60_000;
const shortLivedMs = 8 * 3600_000;

/** NotBefore and NotAfter of a certificate issued now (certificates.md §6.4). */
export function validity(now: number, requestedSeconds: number | undefined, env: ControllerEnv): { notBefore: number; notAfter: number } | null {
  const max = env.signing.maxDurationSeconds;
  const ttl = (requestedSeconds === undefined ? max : Math.min(Math.max(requestedSeconds, 600), max)) * 1000;
  const notBefore = now - 5 * minute;
  let notAfter = ttl < shortLivedMs ? now + ttl : now + ttl - 5 * minute;
  if (notAfter >= env.signing.caNotAfter) notAfter = env.signing.caNotAfter;
  // An expired CA issues nothing; the request stays approved and is tried again later.
  if (notBefore >= env.signing.caNotAfter || now >= env.signing.caNotAfter) return null;
  return { notBefore, notAfter };
}

function withStatus(csr: KubeObject, status: Record<string, unknown>): KubeObject {
  return { ...csr, status: { ...statusOf(csr), ...status } } as KubeObject;
}

export /** The signer's moves in the lifecycle table start from Approved: not denied, failed or issued. */
const approvedRequests = requestsWithWork('csr-signer');

export const csrSigner: Controller = {
  name: 'csr-signer',
  actor: controllerManagerActor('certificate-controller'),
  reconcile(world, env) {
    const approved = approvedRequests(world, env);
    if (approved.length === 0) return [];
    const intents: Intent[] = [];
    const signers = wellKnownSigners(env.names);
    const served = new Set([signers.apiserverClient, signers.apiserverClientNodeAgent, signers.nodeAgentServing]);
    for (const csr of approved) {
      const conditions = conditionsOf(csr);
      const spec = specOf(csr);
      const signerName = typeof spec['signerName'] === 'string' ? spec['signerName'] : '';
      if (!served.has(signerName)) continue;
      const decoded = decodeGoBase64Text(typeof spec['request'] === 'string' ? spec['request'] : '');
      if (!decoded.ok) continue;
      const pem = decoded.text;
      const request = env.crypto.certificateRequest(pem);
      if (!request.ok) continue;
      const usages = Array.isArray(spec['usages']) ? spec['usages'].filter((u): u is string => typeof u === 'string') : [];
      const refusal = signerRefusal(signers, signerName, request, usages);
      const now = formatInstant(world.now);
      if (refusal !== null) {
        const failure = { type: failed, status: 'True', reason: 'SignerValidationFailure', message: refusal, lastUpdateTime: now, lastTransitionTime: now };
        intents.push({ type: 'update', resource: 'certificates/certificatesigningrequests', subresource: 'status', object: withStatus(csr, { conditions: [...conditions, failure] }) });
        continue;
      }
      const expiration = typeof spec['expirationSeconds'] === 'number' ? spec['expirationSeconds'] : undefined;
      const window = validity(world.now, expiration, env);
      if (window === null) continue;
      const issued = env.crypto.issuedCertificate({ request: pem, usages, ...window, serialSeed: csr.metadata.uid ?? '' });
      if (!issued.ok) continue;
      intents.push({ type: 'update', resource: 'certificates/certificatesigningrequests', subresource: 'status', object: withStatus(csr, { certificate: bytesToBase64(new TextEncoder().encode(issued.pem)) }) });
    }
    return intents;
  },
  nextWakeup: () => null,
};
