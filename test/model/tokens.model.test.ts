/**
 * Property: for random sequences of ServiceAccount / Pod / Secret creation and deletion, token
 * requests (unbound, pod-bound, secret-bound) and advances of virtual time, a TokenReview says
 * `authenticated` exactly when an independent model of reference/identity.md §7 says the token is
 * still valid: its account exists with the same uid, its bound object exists with the same uid,
 * and virtual time has not passed exp + 60 s.
 * A failure prints the seed; replay with FC_SEED=<seed> npx vitest run test/model/tokens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../src/index.ts';
import { sim, type Body } from '../helpers.ts';

const ns = '/api/v1/namespaces/default';
const saNames = ['a', 'b'];
const objNames = ['x', 'y'];

type Action =
  | { type: 'createSA'; name: string }
  | { type: 'deleteSA'; name: string }
  | { type: 'createPod'; name: string; sa: string }
  | { type: 'deletePod'; name: string }
  | { type: 'createSecret'; name: string }
  | { type: 'deleteSecret'; name: string }
  | { type: 'token'; sa: string; bound: 'none' | 'Pod' | 'Secret'; object: string; seconds: number }
  | { type: 'advance'; seconds: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ type: fc.constant('createSA' as const), name: fc.constantFrom(...saNames) }),
  fc.record({ type: fc.constant('deleteSA' as const), name: fc.constantFrom(...saNames) }),
  fc.record({ type: fc.constant('createPod' as const), name: fc.constantFrom(...objNames), sa: fc.constantFrom(...saNames) }),
  fc.record({ type: fc.constant('deletePod' as const), name: fc.constantFrom(...objNames) }),
  fc.record({ type: fc.constant('createSecret' as const), name: fc.constantFrom(...objNames) }),
  fc.record({ type: fc.constant('deleteSecret' as const), name: fc.constantFrom(...objNames) }),
  fc.record({ type: fc.constant('token' as const), sa: fc.constantFrom(...saNames), bound: fc.constantFrom('none' as const, 'Pod' as const, 'Secret' as const), object: fc.constantFrom(...objNames), seconds: fc.constantFrom(600, 660, 3600) }),
  fc.record({ type: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 700 }) }),
);

/** The independent model: only uids, a pod's account, token facts and time. */
interface Model {
  now: number;
  accounts: Map<string, string>;
  pods: Map<string, { uid: string; sa: string }>;
  secrets: Map<string, string>;
  tokens: { token: string; saName: string; saUid: string; bound?: { kind: 'Pod' | 'Secret'; name: string; uid: string }; exp: number }[];
}

function modelSaysValid(m: Model, t: Model['tokens'][number]): boolean {
  if (m.accounts.get(t.saName) !== t.saUid) return false;
  if (m.now - 60 > t.exp) return false;
  if (t.bound === undefined) return true;
  const live = t.bound.kind === 'Pod' ? m.pods.get(t.bound.name)?.uid : m.secrets.get(t.bound.name);
  return live === t.bound.uid;
}

async function run(s: Simulation, m: Model, a: Action): Promise<void> {
  const post = (path: string, body: Body) => s.request({ method: 'POST', path, body });
  const del = (path: string) => s.request({ method: 'DELETE', path });
  switch (a.type) {
    case 'createSA': {
      const res = await post(`${ns}/serviceaccounts`, { metadata: { name: a.name } });
      expect(res.status).toBe(m.accounts.has(a.name) ? 409 : 201);
      if (res.status === 201) m.accounts.set(a.name, (res.body as Body).metadata.uid);
      return;
    }
    case 'deleteSA':
      expect((await del(`${ns}/serviceaccounts/${a.name}`)).status).toBe(m.accounts.has(a.name) ? 200 : 404);
      m.accounts.delete(a.name);
      return;
    case 'createPod': {
      const res = await post(`${ns}/pods`, { metadata: { name: a.name }, spec: { serviceAccountName: a.sa, containers: [{ name: 'c', image: 'busybox:1' }] } });
      // Admission (before storage) wants the account to exist; then the name must be free.
      expect(res.status).toBe(!m.accounts.has(a.sa) ? 403 : m.pods.has(a.name) ? 409 : 201);
      if (res.status === 201) m.pods.set(a.name, { uid: (res.body as Body).metadata.uid, sa: a.sa });
      return;
    }
    case 'deletePod':
      expect((await del(`${ns}/pods/${a.name}`)).status).toBe(m.pods.has(a.name) ? 200 : 404);
      m.pods.delete(a.name);
      return;
    case 'createSecret': {
      const res = await post(`${ns}/secrets`, { metadata: { name: a.name } });
      expect(res.status).toBe(m.secrets.has(a.name) ? 409 : 201);
      if (res.status === 201) m.secrets.set(a.name, (res.body as Body).metadata.uid);
      return;
    }
    case 'deleteSecret':
      expect((await del(`${ns}/secrets/${a.name}`)).status).toBe(m.secrets.has(a.name) ? 200 : 404);
      m.secrets.delete(a.name);
      return;
    case 'token': {
      const boundObjectRef = a.bound === 'none' ? undefined : { kind: a.bound, apiVersion: 'v1', name: a.object };
      const res = await post(`${ns}/serviceaccounts/${a.sa}/token`, { spec: { expirationSeconds: a.seconds, ...(boundObjectRef === undefined ? {} : { boundObjectRef }) } });
      const saUid = m.accounts.get(a.sa);
      const pod = m.pods.get(a.object);
      const boundUid = a.bound === 'Pod' ? pod?.uid : a.bound === 'Secret' ? m.secrets.get(a.object) : 'none';
      const expected = saUid === undefined || boundUid === undefined ? 404 : a.bound === 'Pod' && pod!.sa !== a.sa ? 400 : 201;
      expect(res.status).toBe(expected);
      if (res.status !== 201) return;
      m.tokens.push({
        token: (res.body as Body).status.token,
        saName: a.sa,
        saUid: saUid!,
        ...(a.bound === 'none' ? {} : { bound: { kind: a.bound, name: a.object, uid: boundUid! } }),
        exp: m.now + a.seconds,
      });
      return;
    }
    case 'advance':
      await s.advance(`${a.seconds}s`);
      m.now += a.seconds;
      return;
  }
}

describe('tokens, model-based', () => {
  it('TokenReview authenticates exactly the tokens the model calls valid', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
        const s = await sim({ nodeAgent: false });
        const m: Model = { now: Date.parse('2026-01-01T00:00:00Z') / 1000, accounts: new Map(), pods: new Map(), secrets: new Map(), tokens: [] };
        for (const a of actions) {
          await run(s, m, a);
          for (const t of m.tokens) {
            const res = await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/tokenreviews', body: { spec: { token: t.token } } });
            expect((res.body as Body).status.authenticated === true).toBe(modelSaysValid(m, t));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
