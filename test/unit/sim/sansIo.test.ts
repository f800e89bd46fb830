/**
 * `step` is the only door, and it can be driven with nothing else (sans-IO, as h11 and
 * quinn-proto): a world, inputs, and a tiny fact resolver written here — no driver, no jose, no
 * x509. The world it reaches is the one the library's driver reaches with the same inputs.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, factKey, startingPoint, step, type Input, type StepEnv, type StepResult, type World } from '../../../src/index.ts';
import { hashWorld } from '../../../src/sim/hash.ts';
import { listObjects } from '../../../src/store/objects.ts';
import type { Controller } from '../../../src/controllers/types.ts';

const admin = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };
const options = { seed: 7, startTime: '2026-01-01T00:00:00Z' };
const b64url = (s: string): string => Buffer.from(s).toString('base64url');

/** The tiny resolver: tokens "signed" with a marker, and a signature is valid when it carries it. */
function resolve(facts: Map<string, unknown>, result: StepResult): void {
  for (const e of result.effects) {
    if (e.type !== 'crypto/factNeeded') continue;
    if (e.need.kind !== 'jwsSignature') throw new Error(`this resolver knows only signatures, not ${e.need.kind}`);
    facts.set(factKey(e.need), e.need.token.endsWith('.tiny-signature') ? 'valid' : 'invalid');
  }
}

function sign(result: StepResult): string {
  let body = result.output?.response.body ?? '';
  for (const e of result.effects) {
    if (e.type === 'crypto/tokenToSign') body = body.replace(`psim-token-pending-${e.index}-7c1f3e9a`, `${b64url('{"alg":"EdDSA","kid":"tiny"}')}.${b64url(e.claims)}.tiny-signature`);
  }
  return body;
}

/** Runs one input to completion: passes that needed facts are discarded, as the driver does. */
function run(world: World, input: Input, env: StepEnv, facts: Map<string, unknown>): StepResult {
  for (let pass = 0; pass < 4; pass++) {
    const result = step(world, input, env);
    if (!result.effects.some((e) => e.type === 'crypto/factNeeded')) return result;
    resolve(facts, result);
  }
  throw new Error('facts did not settle');
}

const request = (method: string, path: string, body?: unknown): Input => ({
  type: 'api/requestArrived',
  request: { method, path, headers: { 'content-type': 'application/json' }, body: body === undefined ? '' : JSON.stringify(body), identity: admin },
  settle: true,
});

describe('step, alone', () => {
  it('serves requests, time, faults and snapshots with a world, inputs and a tiny fact resolver', async () => {
    const facts = new Map<string, unknown>();
    // The key's public half only names the algorithm and kid: the resolver does the signing.
    const start = startingPoint(options, { facts, keys: [{ kid: 'tiny', alg: 'EdDSA', jwk: {} }] });
    let world = start.world;
    const go = (input: Input): StepResult => {
      const r = run(world, input, start.env, facts);
      world = r.world;
      return r;
    };
    expect(go(request('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } })).output?.response.status).toBe(201);
    const issued = go(request('POST', '/api/v1/namespaces/default/serviceaccounts/builder/token', { spec: { audiences: ['api'] } }));
    const token = (JSON.parse(sign(issued)) as { status: { token: string } }).status.token;
    expect(token.endsWith('.tiny-signature')).toBe(true);
    const review = go(request('POST', '/apis/authentication.platform.io/v1/tokenreviews', { spec: { token, audiences: ['api'] } }));
    expect(JSON.parse(review.output!.response.body).status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:builder' } });
    const forged = go(request('POST', '/apis/authentication.platform.io/v1/tokenreviews', { spec: { token: token.replace('tiny-signature', 'forged'), audiences: ['api'] } }));
    expect(JSON.parse(forged.output!.response.body).status.authenticated).toBeUndefined();

    const advanced = go({ type: 'clock/advanced', to: world.now + 90_000 });
    expect(advanced.instants.length).toBeGreaterThan(0);
    go({ type: 'faults/installed', rules: [{ verbs: ['create'], resources: ['configmaps'], code: 503, times: 1 }] });
    expect(go(request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'c' } })).output?.response.status).toBe(503);
    go({ type: 'faults/cleared' });
    const before = world;
    go(request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'c' } }));
    expect(go({ type: 'world/replaced', world: before }).replaced).toBe(true);
    expect(world).toBe(before);

    // The library's driver, given the same inputs, reaches the same world.
    const sim = await createSimulation(options);
    await sim.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'builder' } } });
    await sim.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/builder/token', body: { spec: { audiences: ['api'] } } });
    await sim.advance('90s');
    sim.injectFaults([{ verbs: ['create'], resources: ['configmaps'], code: 503, times: 1 }]);
    await sim.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'c' } } });
    sim.clearFaults();
    expect(sim.hash()).toBe(hashWorld(world));
  });

  it("a pass that stopped for facts only its settle needed is taken up at the settle: the same world and answer as a pass from the start", () => {
    const facts = new Map<string, unknown>();
    // A controller that asks for a fact whenever a config map exists: the request's handling needs none.
    const asker: Controller = {
      name: 'asker',
      actor: () => ({ manager: 'asker', user: admin }),
      reconcile: (w, env) => {
        const seen = listObjects(w, 'core/configmaps', null).length > 0;
        if (seen) env.crypto.jwsSignature('a.b.tiny-signature');
        return [];
      },
      nextWakeup: () => null,
    };
    const start = startingPoint(options, { facts, keys: [{ kid: 'tiny', alg: 'EdDSA', jwk: {} }] });
    const env: StepEnv = { ...start.env, controllers: [asker] };
    const input = request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'c' } });
    const first = step(start.world, input, env);
    expect(first.effects.map((e) => e.type)).toEqual(['crypto/factNeeded']);
    resolve(facts, first);
    const takenUp = step(start.world, input, env);
    const fromStart = step(start.world, { ...input }, env);
    expect(takenUp.effects).toEqual([]);
    // Taken up: the very answer of the first pass; from the start: an equal one.
    expect(takenUp.output!.response).toBe(first.output!.response);
    expect(fromStart.output!.response).not.toBe(first.output!.response);
    expect(fromStart.output!.response).toEqual(takenUp.output!.response);
    expect(hashWorld(takenUp.world)).toBe(hashWorld(fromStart.world));
    // Another world (a request committed in between): handled again.
    const other = step(fromStart.world, input, env);
    expect(other.output!.response).not.toBe(first.output!.response);
  });
});
