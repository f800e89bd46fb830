/**
 * Property: random sequences of CSR creation, approval, denial and time passing, against a small
 * model of the lifecycle — approval by a built-in signer's request leads to a certificate, custom
 * signers are never issued, decided requests go an hour after the decision, pending ones after a
 * day. The invariant checkers (never approved and denied, certificate only when approved, never
 * changed) run after every change.
 * A failure prints the seed; replay with FC_SEED=<seed> npx vitest run test/model/csr.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { sim, type Body } from '../helpers.ts';

const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';
const names = ['a', 'b', 'c'];

type Action =
  | { type: 'create'; name: string; builtin: boolean }
  | { type: 'decide'; name: string; decision: 'Approved' | 'Denied' }
  | { type: 'advance'; minutes: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ type: fc.constant('create' as const), name: fc.constantFrom(...names), builtin: fc.boolean() }),
  fc.record({ type: fc.constant('decide' as const), name: fc.constantFrom(...names), decision: fc.constantFrom('Approved' as const, 'Denied' as const) }),
  fc.record({ type: fc.constant('advance' as const), minutes: fc.integer({ min: 0, max: 90 }) }),
);

interface Entry {
  created: number;
  builtin: boolean;
  decision?: { type: 'Approved' | 'Denied'; at: number };
}

describe('CSR lifecycle, model-based', () => {
  it('issues, refuses and collects as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 20 }), async (actions) => {
        const s = await sim();
        const pem = (await s.createCertificateRequest({ commonName: 'someone' })).request;
        const model = new Map<string, Entry>();
        let now = 0;
        // Approved but never issued (a custom signer) is never collected.
        const gone = (e: Entry): boolean =>
          e.decision === undefined ? now > e.created + 24 * 60 : e.decision.type === 'Approved' && !e.builtin ? false : now > e.decision.at + 60;
        for (const a of actions) {
          if (a.type === 'create') {
            const res = await s.request({ method: 'POST', path: csrs, body: { metadata: { name: a.name }, spec: { request: bytesToBase64(utf8Encode(pem)), signerName: a.builtin ? 'platform.io/apiserver-client' : 'example.com/custom', usages: ['client auth'] } } });
            expect(res.status).toBe(model.has(a.name) ? 409 : 201);
            if (!model.has(a.name)) model.set(a.name, { created: now, builtin: a.builtin });
          } else if (a.type === 'decide') {
            const current = await s.request({ method: 'GET', path: `${csrs}/${a.name}` });
            const entry = model.get(a.name);
            if (entry === undefined) {
              expect(current.status).toBe(404);
              continue;
            }
            const body = current.body as Body;
            const res = await s.request({ method: 'PUT', path: `${csrs}/${a.name}/approval`, body: { ...body, status: { ...body.status, conditions: [...(body.status.conditions ?? []), { type: a.decision, status: 'True' }] } } });
            if (entry.decision === undefined) {
              expect(res.status).toBe(200);
              entry.decision = { type: a.decision, at: now };
            } else expect(res.status).toBe(422);
          } else {
            await s.advance(`${a.minutes}m`);
            now += a.minutes;
            for (const [name, e] of model) if (gone(e)) model.delete(name);
          }
          for (const name of names) {
            const res = await s.request({ method: 'GET', path: `${csrs}/${name}` });
            const e = model.get(name);
            expect(res.status, `${name} at ${now} min`).toBe(e === undefined ? 404 : 200);
            if (e === undefined) continue;
            const issued = (res.body as Body).status.certificate !== undefined;
            expect(issued, `${name} issued`).toBe(e.builtin && e.decision?.type === 'Approved');
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
