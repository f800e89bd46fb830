/**
 * CertificateSigningRequests keep to their lifecycle table (registry/certificates/csr/lifecycle.ts):
 * no two conditions of an exclusive pair (never both Approved and Denied); a certificate only
 * on an approved request that is not denied (issuedRule); an issued certificate never changes; and
 * a request only moves to a phase the table can reach from where it was (a step may hold several
 * moves: a request approved and issued within one settle went Pending → Issued).
 */
import { certificateOf, conditionsOf } from '../../registry/certificates/csr/accessors.ts';
import { breaksRule, canReach, exclusivePairs, issuedRule, phaseOf } from '../../registry/certificates/csr/lifecycle.ts';
import { getObject, listObjects } from '../../store/objects.ts';
import type { KubeObject } from '../../api/meta.ts';
import type { World } from '../../store/world.ts';
import { forEachStoredByStep } from './changedObjects.ts';
import type { Checker } from './types.ts';

const resource = 'certificates/certificatesigningrequests';

/** The problems of these requests, each compared with its state before when it had one. */
function problemsOf(requests: readonly KubeObject[], before: World | null): string[] {
  const problems: string[] = [];
  for (const csr of requests) {
    const name = csr.metadata.name ?? '';
    const types = conditionsOf(csr).map((c) => c.type);
    for (const [a, b] of exclusivePairs) if (types.includes(a) && types.includes(b)) problems.push(`${name} is both ${a} and ${b}`);
    const certificate = certificateOf(csr);
    if (certificate !== '' && breaksRule(issuedRule, types)) problems.push(`${name} has a certificate without being approved`);
    const found = before === null ? undefined : getObject(before, resource, '', name);
    const old = found !== undefined && found.metadata.uid === csr.metadata.uid ? found : undefined;
    if (old === undefined) continue;
    if (certificateOf(old) !== '' && certificateOf(old) !== certificate) problems.push(`${name} changed its issued certificate`);
    const [from, to] = [phaseOf(old), phaseOf(csr)];
    if (!canReach(from, to)) problems.push(`${name} went from ${from} to ${to}, which its lifecycle does not allow`);
  }
  return problems;
}

export const csrDecisions: Checker = {
  name: 'csr-decisions',
  check: (before, after) => problemsOf(listObjects(after, resource, null), before),
  // From a world that kept to the table, only the requests the step stored can break it: an
  // unchanged request keeps its phase and certificate.
  checkStep(before, after) {
    const stored: KubeObject[] = [];
    forEachStoredByStep(before, after, resource, (csr) => stored.push(csr));
    return problemsOf(stored, before);
  },
};
