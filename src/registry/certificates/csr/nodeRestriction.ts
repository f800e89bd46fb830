/**
 * The CSR rule of the NodeRestriction admission (plugin/pkg/admission/noderestriction, admitCSR;
 * certificates.md §5.5): a node identity — user `system:node:<n>` in group `system:nodes` — may
 * create requests for the node-agent serving and node-agent client signers only with the subject
 * CN `system:node:<n>`, its own. Requests for other signers, and callers that are not nodes
 * (bootstrap tokens, admins), are not restricted; a node identity without a name may create no
 * request at all. The feature gate `AllowInsecureKubeletCertificateSigningRequests` that turns
 * the rule off is not modelled (it is off by default, so the rule holds).
 *
 * NodeRestriction is a mutating plugin upstream: it runs before validation, so it is hooked as
 * `admitCreate` and its 403 beats a 422. Like Go's `ParseCSR` it only parses the request: a
 * request that parses but whose signature does not verify is compared by CN upstream; here its
 * subject is not known, so it is left to validation (422 on spec.request).
 */
import type { Admission } from '../../types.ts';
import { byteFieldText } from '../byteFields.ts';
import { wellKnownSigners } from '../signers.ts';
import { specOf, stringField } from './accessors.ts';

const nodeUserPrefix = 'system:node:';
const nodesGroup = 'system:nodes';

/** The failures of Go's ParseCSR (PEM block, then DER); any other failure is the signature's. */
const parseFailures = ['PEM block type must be CERTIFICATE REQUEST', 'x509: malformed certificate request', 'asn1: syntax error: trailing data'];

/** nodeidentifier.NodeIdentity: the node's name, or null when the user is not a node. */
function nodeName(user: { readonly username: string; readonly groups: readonly string[] }): string | null {
  if (!user.username.startsWith(nodeUserPrefix) || !user.groups.includes(nodesGroup)) return null;
  return user.username.slice(nodeUserPrefix.length);
}

export const admitNodeCsr: Admission = (obj, ctx) => {
  const node = nodeName(ctx.user);
  if (node === null) return { ok: true, object: obj };
  if (node === '') return { ok: false, message: `could not determine node from user "${ctx.user.username}"` };
  const spec = specOf(obj);
  const signers = wellKnownSigners(ctx.names);
  const signer = stringField(spec, 'signerName');
  if (signer !== signers.nodeAgentServing && signer !== signers.apiserverClientNodeAgent) return { ok: true, object: obj };
  const decoded = byteFieldText('spec.request', stringField(spec, 'request'));
  if (!decoded.ok) return { ok: true, object: obj };
  const fact = ctx.crypto.certificateRequest(decoded.text);
  if (!fact.ok) return parseFailures.includes(fact.message) ? { ok: false, message: `unable to parse csr: ${fact.message}` } : { ok: true, object: obj };
  const own = `${nodeUserPrefix}${node}`;
  if (fact.subject.commonName !== own) return { ok: false, message: `can only create a node CSR with CN=${own}` };
  return { ok: true, object: obj };
};
