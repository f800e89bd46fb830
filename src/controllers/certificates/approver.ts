/**
 * The node-agent client approver (csrapproving, certificates.md §6.2): a request for the
 * node-agent client signer shaped like a node client certificate is approved when its creator may
 * `create` `certificatesigningrequests/selfnodeclient` (its own node: username = CN) or
 * `…/nodeclient` (bootstrap). Recognised but not permitted: it stays pending.
 */
import type { KubeObject } from '../../api/meta.ts';
import { formatInstant } from '../../core/duration.ts';
import { isObject } from '../../core/json.ts';
import { authorize } from '../../auth/rbac/authorize.ts';
import { decodeGoBase64Text } from '../../registry/certificates/goBase64.ts';
import { approved, specOf, statusOf } from '../../registry/certificates/csr/accessors.ts';
import { wellKnownSigners } from '../../registry/certificates/signers.ts';
import { nodeAgentClientRefusal } from './signerChecks.ts';
import { requestsWithWork } from './requestsWithWork.ts';
import { controllerManagerActor, type Controller, type Intent } from '../types.ts';

/** The approver's move in the lifecycle table starts from Pending: undecided, not issued. */
const pendingRequests = requestsWithWork('csr-approver');

export const csrApprover: Controller = {
  name: 'csr-approver',
  actor: controllerManagerActor('certificate-controller'),
  reconcile(world, env) {
    const pending = pendingRequests(world, env);
    if (pending.length === 0) return [];
    const intents: Intent[] = [];
    const signer = wellKnownSigners(env.names).apiserverClientNodeAgent;
    for (const csr of pending) {
      const spec = specOf(csr);
      if (spec['signerName'] !== signer) continue;
      const decoded = decodeGoBase64Text(typeof spec['request'] === 'string' ? spec['request'] : '');
      if (!decoded.ok) continue;
      const r = env.crypto.certificateRequest(decoded.text);
      if (!r.ok) continue;
      const usages = Array.isArray(spec['usages']) ? spec['usages'].filter((u): u is string => typeof u === 'string') : [];
      // Only requests shaped as the signer requires are auto-approved (the same check).
      if (nodeAgentClientRefusal(r, usages) !== null) continue;
      const username = typeof spec['username'] === 'string' ? spec['username'] : '';
      const groups = Array.isArray(spec['groups']) ? spec['groups'].filter((g): g is string => typeof g === 'string') : [];
      const may = (subresource: string): boolean =>
        authorize(world, env.names, { user: { username, groups }, verb: 'create', resourceRequest: true, apiGroup: env.names.certificatesGroup, resource: 'certificatesigningrequests', subresource, namespace: '', name: '', path: '' }).allowed;
      const message =
        username === r.subject.commonName && may('selfnodeclient')
          ? 'Auto approving self kubelet client certificate after SubjectAccessReview.'
          : may('nodeclient')
            ? 'Auto approving kubelet client certificate after SubjectAccessReview.'
            : null;
      if (message === null) continue;
      const now = formatInstant(world.now);
      const condition = { type: approved, status: 'True', reason: 'AutoApproved', message, lastUpdateTime: now, lastTransitionTime: now };
      const status = statusOf(csr);
      intents.push({ type: 'update', resource: 'certificates/certificatesigningrequests', subresource: 'approval', object: { ...csr, status: { ...status, conditions: [...(Array.isArray(status['conditions']) ? status['conditions'].filter(isObject) : []), condition] } } as KubeObject });
    }
    return intents;
  },
  nextWakeup: () => null,
};
