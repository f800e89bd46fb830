/**
 * Responses whose body is made when first read (endpoints/respond.ts: the API's text,
 * edges/simulation/decodedResponse.ts: what `sim.request` returns): own `status`, `headers` and an
 * enumerable `body`, as an object literal with a getter has them — so spreads, JSON and equality
 * see the body — and the work done once, only when the body is read.
 */
import { describe, expect, it } from 'vitest';
import { respond } from '../../../src/endpoints/respond.ts';
import { createSimulation } from '../../../src/index.ts';

describe('bodies made when first read', () => {
  it("the API's response encodes its body at the first read, once, and shows it like a data property", () => {
    let encodings = 0;
    const value = {
      kind: 'Thing',
      toJSON(): object {
        encodings++;
        return { kind: 'Thing' };
      },
    };
    const r = respond(200, value, { output: { type: 'json' }, pretty: false });
    expect(encodings).toBe(0);
    expect(Object.keys(r)).toEqual(['status', 'headers', 'body']);
    expect(r.body).toBe('{"kind":"Thing"}\n');
    expect(r.body).toBe('{"kind":"Thing"}\n');
    expect(encodings).toBe(1);
    expect({ ...r }).toEqual({ status: 200, headers: r.headers, body: '{"kind":"Thing"}\n' });
    expect(JSON.parse(JSON.stringify(r))).toEqual({ status: 200, headers: { ...r.headers }, body: '{"kind":"Thing"}\n' });
    expect(r).toEqual({ status: 200, headers: r.headers, body: '{"kind":"Thing"}\n' });
  });

  it('sim.request decodes the body at the first read, and the answer compares as a plain object', async () => {
    const sim = await createSimulation({ seed: 1 });
    const res = sim.requestSync({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts/default' });
    expect(Object.keys(res)).toEqual(['status', 'headers', 'body']);
    expect(res.body).toBe(res.body);
    expect(res.body.metadata.name).toBe('default');
    const plain = { status: res.status, headers: res.headers, body: res.body };
    expect(res).toEqual(plain);
    expect({ ...res }).toEqual(plain);
    expect(JSON.parse(JSON.stringify(res))).toEqual(JSON.parse(JSON.stringify(plain)));
    const watch = await sim.request({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts?watch=true' });
    expect(Object.keys(watch)).toEqual(['status', 'headers', 'body', 'watch']);
    watch.watch?.close();
  });
});
