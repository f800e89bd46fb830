/**
 * The arbitraries of the supporting kinds hold their promise against the simulation: every valid
 * body is created (201); every near-valid one is refused with 422 Invalid and a cause for the named
 * field, with the named reason and, where the arbitrary carries one, the exact message; a refusal
 * changes nothing (the same world digest). The authorization kinds in both group domains.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../../src/index.ts';
import {
  clusterRole,
  clusterRoleBinding,
  controllerRevision,
  event,
  namespace,
  node,
  persistentVolumeClaim,
  pod,
  rejectedClusterRole,
  rejectedClusterRoleBinding,
  rejectedControllerRevision,
  rejectedEvent,
  rejectedNamespace,
  rejectedNode,
  rejectedPersistentVolumeClaim,
  rejectedPod,
  rejectedRole,
  rejectedRoleBinding,
  rejectedSecret,
  rejectedSelfSubjectAccessReview,
  rejectedService,
  role,
  roleBinding,
  secret,
  selfSubjectAccessReview,
  service,
  type Rejected,
} from '../../src/testing.ts';

type Body = Record<string, any>;
type Domain = 'platform.io' | 'k8s.io';

/** Where a body of each kind is created (namespaced kinds in `default`). */
function pathOf(body: Body): string {
  const [group, version] = (body['apiVersion'] as string).includes('/') ? (body['apiVersion'] as string).split('/') : ['', body['apiVersion'] as string];
  const plural = `${(body['kind'] as string).toLowerCase()}s`.replace(/ys$/, 'ies').replace(/sss$/, 'sses');
  const clusterScoped = ['Namespace', 'Node', 'ClusterRole', 'ClusterRoleBinding', 'SelfSubjectAccessReview'].includes(body['kind']);
  return `${group === '' ? '/api' : `/apis/${group}`}/${version}${clusterScoped ? '' : '/namespaces/default'}/${plural}`;
}

const fresh = (groupDomain: Domain = 'platform.io'): Promise<Simulation> => createSimulation({ seed: 1, startTime: '2026-01-01T00:00:00Z', checkInvariants: true, groupDomain });

async function acceptsValid(arb: fc.Arbitrary<Body>, groupDomain?: Domain): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, async (body) => {
      const s = await fresh(groupDomain);
      const res = await s.request({ method: 'POST', path: pathOf(body), body });
      expect(res.status, `${pathOf(body)} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(201);
    }),
    { numRuns: 40 },
  );
}

async function refusesNearValid(arb: fc.Arbitrary<Rejected>, groupDomain?: Domain): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, async (r) => {
      const s = await fresh(groupDomain);
      const before = s.hash();
      const res = await s.request({ method: 'POST', path: pathOf(r.body), body: r.body });
      expect(res.status, `${r.mistake}: ${JSON.stringify(res.body)}`).toBe(422);
      expect((res.body as Body).reason).toBe('Invalid');
      const causes = ((res.body as Body).details?.causes ?? []) as { field: string; reason: string; message: string }[];
      const wanted = { field: r.field, reason: r.reason, ...(r.message === undefined ? {} : { message: r.message }) };
      expect(causes, r.mistake).toContainEqual(expect.objectContaining(wanted));
      expect(s.hash()).toBe(before);
    }),
    { numRuns: 60 },
  );
}

const kinds = {
  Namespace: [namespace, rejectedNamespace],
  Secret: [secret, rejectedSecret],
  Pod: [pod, rejectedPod],
  Node: [node, rejectedNode],
  Service: [service, rejectedService],
  PersistentVolumeClaim: [persistentVolumeClaim, rejectedPersistentVolumeClaim],
  Event: [event, rejectedEvent],
  ControllerRevision: [controllerRevision, rejectedControllerRevision],
} as const;

const authorization = {
  Role: [role, rejectedRole],
  ClusterRole: [clusterRole, rejectedClusterRole],
  RoleBinding: [roleBinding, rejectedRoleBinding],
  ClusterRoleBinding: [clusterRoleBinding, rejectedClusterRoleBinding],
  SelfSubjectAccessReview: [selfSubjectAccessReview, rejectedSelfSubjectAccessReview],
} as const;

describe('valid bodies of the supporting kinds are created', () => {
  it.each(Object.entries(kinds))('%s', (_, [valid]) => acceptsValid(valid(fc)));
  for (const domain of ['platform.io', 'k8s.io'] as const) {
    it.each(Object.entries(authorization))(`%s (${domain})`, (_, [valid]) => acceptsValid(valid(fc, domain), domain));
  }
});

describe('near-valid bodies of the supporting kinds are refused for the named cause and change nothing', () => {
  it.each(Object.entries(kinds))('%s', (_, [, rejected]) => refusesNearValid(rejected(fc)));
  for (const domain of ['platform.io', 'k8s.io'] as const) {
    it.each(Object.entries(authorization))(`%s (${domain})`, (_, [, rejected]) => refusesNearValid(rejected(fc, domain), domain));
  }

  it('every mistake of every kind is drawn, each with a field and a reason', () => {
    const all = [...Object.values(kinds).map(([, r]) => r(fc)), ...Object.values(authorization).map(([, r]) => r(fc))];
    for (const arb of all) {
      const drawn = fc.sample(arb, { seed: 3, numRuns: 200 });
      const mistakes = new Set(drawn.map((r) => r.mistake));
      expect(mistakes.size, [...mistakes].join('; ')).toBeGreaterThanOrEqual(2);
      for (const r of drawn) expect(r.field !== '' && r.reason !== undefined, r.mistake).toBe(true);
    }
  });
});
