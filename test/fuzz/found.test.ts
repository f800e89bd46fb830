/**
 * What the HTTP fuzzer found (issue 16), each kept as a plain regression test with its minimal
 * request: a warning naming a field outside Latin-1 was a 500 over HTTP (now ASCII escapes); label selector requirements
 * with a missing key or operator, or `null` items, were 500s; server-side apply and patches of
 * the scale subresource stored values their Go type cannot hold (`replicas: 2147483647.5` then had
 * the controller make two billion pods, and the server ran out of memory); a grace period of
 * millennia was a 500 (an instant past year 9999).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';
import { send, headerOf, type Target } from './rawClient.ts';
import { sim, type Body } from '../helpers.ts';

const cms = '/api/v1/namespaces/default/configmaps';
const sets = '/apis/apps/v1/namespaces/default/statefulsets';

describe('warnings naming fields outside Latin-1', () => {
  let server: RunningServer;
  let target: Target;
  beforeAll(async () => {
    server = await serve({ port: 0, clock: 'manual', tls: false });
    const url = new URL(server.url);
    target = { host: url.hostname, port: Number(url.port) };
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes them as ASCII escapes over HTTP instead of failing with a 500', async () => {
    const body = Buffer.concat([Buffer.from('{"metadata":{"name":"u"},"🦄":1,"é":2,"'), Buffer.from([0xff]), Buffer.from('":3}')]);
    const a = await send(target, { method: 'POST', path: cms, headers: [['Authorization', `Bearer ${server.adminToken}`], ['Content-Type', 'application/json']], body: new Uint8Array(body) }, 10_000);
    expect(a.kind === 'answer' && a.status).toBe(201);
    const warnings = a.kind === 'answer' ? a.headers.filter(([k]) => k.toLowerCase() === 'warning').map(([, v]) => v) : [];
    expect(warnings).toEqual(['299 - "unknown field \\"\\ud83e\\udd84\\""', '299 - "unknown field \\"\\u00e9\\""', '299 - "unknown field \\"\\ufffd\\""']);
    expect(headerOf(a, 'content-type')).toBe('application/json');
  });

  it('answers the same text in process', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: cms, headers: { 'content-type': 'application/json' }, body: '{"metadata":{"name":"u"},"名前":1}' });
    expect(res.status).toBe(201);
    expect(res.headers['warning']).toEqual(['299 - "unknown field \\"\\u540d\\u524d\\""']);
  });
});

describe('label selector requirements as a client may leave them', () => {
  const set = (selector: Body): Body => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web' },
    spec: { replicas: 1, serviceName: 'web', selector, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
  });
  const causes = (b: Body): string[] => (b.details.causes as Body[]).map((c) => `${c.field}: ${c.message}`);

  it('reads a missing key or operator, and a null requirement, as empty strings: 422, not 500', async () => {
    const s = await sim();
    const before = s.hash();
    const noKey = await s.request({ method: 'POST', path: sets, body: set({ matchLabels: { app: 'web' }, matchExpressions: [{ operator: 'Exists' }] }) });
    expect(noKey.status).toBe(422);
    expect(causes(noKey.body as Body)[0]).toBe('spec.selector.matchExpressions[0].key: Invalid value: "": name part must be non-empty');
    const nullOne = await s.request({ method: 'POST', path: sets, headers: { 'content-type': 'application/json' }, body: JSON.stringify(set({ matchLabels: { app: 'web' }, matchExpressions: [null] })) });
    expect(nullOne.status).toBe(422);
    expect(causes(nullOne.body as Body)[0]).toBe('spec.selector.matchExpressions[0].operator: Invalid value: "": not a valid selector operator');
    expect(s.hash()).toBe(before);
  });

  it('reads a null value as the empty string', async () => {
    const s = await sim();
    const res = await s.request({ method: 'POST', path: sets, body: set({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: [null, 'db'] }] }) });
    expect(res.status).toBe(201);
    await s.settle();
    expect((await s.request({ method: 'GET', path: `${sets}/web` })).body.status.replicas).toBe(1);
  });
});

describe('server-side apply of values the Go type cannot hold', () => {
  const apply = (s: Awaited<ReturnType<typeof sim>>, path: string, body: string) => s.request({ method: 'PATCH', path: `${path}?fieldManager=fuzz&force=true`, headers: { 'content-type': 'application/apply-patch+yaml' }, body });
  const setBody = (replicas: string): string =>
    `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web"},"spec":{"replicas":${replicas},"serviceName":"web","selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx"}]}}}}`;

  it('refuses a fraction or an out-of-range number in an integer field with a 400', async () => {
    const s = await sim();
    const before = s.hash();
    const fraction = await apply(s, `${sets}/web`, setBody('2147483647.5'));
    expect(fraction.status).toBe(400);
    expect((fraction.body as Body).message).toBe('failed to convert new object (/web; apps/v1, Kind=StatefulSet) to proper version (apps/v1): .spec.replicas: cannot convert float64 to int32');
    const beyond = await apply(s, `${sets}/web`, setBody('4294967297'));
    expect((beyond.body as Body).message).toBe('failed to convert new object (/web; apps/v1, Kind=StatefulSet) to proper version (apps/v1): .spec.replicas: 4294967297 overflows int32');
    expect(s.hash()).toBe(before);
    // A whole number written as a float converts, as in Go.
    const whole = await apply(s, `${sets}/web`, setBody('2.0'));
    expect(whole.status).toBe(201);
    expect((whole.body as Body).spec.replicas).toBe(2);
  });

  it('checks a patched Scale as its Go type: 422 for a merge patch, 400 for an apply patch', async () => {
    const s = await sim({ nodeAgent: false });
    expect((await apply(s, `${sets}/web`, setBody('1'))).status).toBe(201);
    const before = s.hash();
    const merge = await s.request({ method: 'PATCH', path: `${sets}/web/scale`, headers: { 'content-type': 'application/merge-patch+json' }, body: '{"spec":{"replicas":2147483647.5}}' });
    expect(merge.status).toBe(422);
    expect((merge.body as Body).message).toContain('json: cannot unmarshal number 2147483647.5 into Go struct field');
    const applied = await apply(s, `${sets}/web/scale`, 'apiVersion: autoscaling/v1\nkind: Scale\nspec:\n  replicas: 4.5\n');
    expect(applied.status).toBe(400);
    expect((applied.body as Body).message).toBe('failed to convert new object (default/web; autoscaling/v1, Kind=Scale) to proper version (autoscaling/v1): .spec.replicas: cannot convert float64 to int32');
    expect(s.hash()).toBe(before);
    const fine = await s.request({ method: 'PATCH', path: `${sets}/web/scale`, headers: { 'content-type': 'application/merge-patch+json' }, body: '{"spec":{"replicas":3}}' });
    expect((fine.body as Body).spec.replicas).toBe(3);
  });

  it('refuses a time that does not parse and base64 that does not decode; writes times back in UTC', async () => {
    const s = await sim();
    const before = s.hash();
    const base64 = await apply(s, `${cms}/c`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"binaryData":{"a":"not base64!"}}');
    expect(base64.status).toBe(400);
    expect((base64.body as Body).message).toMatch(/^failed to convert new object \(\/c; \/v1, Kind=ConfigMap\) to proper version \(v1\): \.binaryData\.a: illegal base64 data at input byte \d+$/);
    expect(s.hash()).toBe(before);
    expect((await apply(s, '/api/v1/namespaces/default/pods/p', '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"b"}]}}')).status).toBe(201);
    const status = (startTime: string) => apply(s, '/api/v1/namespaces/default/pods/p/status', `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"status":{"startTime":"${startTime}"}}`);
    const garbage = await status('not a time');
    expect(garbage.status).toBe(400);
    expect((garbage.body as Body).message).toBe('failed to convert new object (/p; /v1, Kind=Pod) to proper version (v1): .status.startTime: parsing time "not a time" as "2006-01-02T15:04:05Z07:00": cannot parse "not a time" as "2006"');
    const offset = await status('2026-01-01T01:00:00+01:00');
    expect(offset.status).toBe(200);
    expect((offset.body as Body).status.startTime).toBe('2026-01-01T00:00:00Z');
  });
});

describe('a grace period of millennia', () => {
  it('ends at the last instant a timestamp can name instead of failing with a 500', async () => {
    const s = await sim();
    const pods = '/api/v1/namespaces/default/pods';
    expect((await s.request({ method: 'POST', path: pods, body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'b' }] } } })).status).toBe(201);
    await s.settle();
    const res = await s.request({ method: 'DELETE', path: `${pods}/p`, headers: { 'content-type': 'application/json' }, body: '{"gracePeriodSeconds":9223372036854775807}' });
    expect(res.status).toBe(200);
    expect((res.body as Body).metadata.deletionTimestamp).toBe('9999-12-31T23:59:59Z');
    // The node agent then ends the pod as it would any other.
    await s.advance('1h');
    expect((await s.request({ method: 'GET', path: `${pods}/p` })).status).toBeLessThan(500);
  });
});
