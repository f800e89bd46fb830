/**
 * Issue 16: the names of Object.prototype members — `constructor`, `__proto__`, `toString`,
 * `hasOwnProperty`, `valueOf` — sent everywhere a client names a key: header names, impersonation
 * and front-proxy extras, label keys and values, annotation keys, field and label selectors,
 * JSON patch paths, merge, strategic-merge and apply keys, query parameter names, ConfigMap data
 * keys. In process and over HTTP every answer is a 2xx or a 4xx, a 4xx leaves the world's hash
 * as it was, and Object.prototype is never touched. Bodies are sent as JSON text, so `__proto__`
 * is an own key as a client's JSON makes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server.ts';
import type { Simulation } from '../../src/index.ts';
import { send, type RawRequest, type Target } from '../fuzz/rawClient.ts';
import { sim, type Body } from '../helpers.ts';

const prototypeKeys = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const cms = '/api/v1/namespaces/default/configmaps';
const sas = '/api/v1/namespaces/default/serviceaccounts';
const whoami = '/apis/authentication.platform.io/v1/selfsubjectreviews';

/** A DNS-safe name part for a key (`__proto__` → `xxprotoxx`). */
const safe = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, 'x');

interface Case {
  readonly what: string;
  readonly method: string;
  readonly path: string;
  readonly headers?: readonly (readonly [string, string])[];
  readonly body?: string;
}

const json = [['content-type', 'application/json']] as const;
const patch = (type: string, body: string, path = `${cms}/base`): Case => ({ what: `${type} ${body}`, method: 'PATCH', path, headers: [['content-type', `application/${type}`]], body });
const jsonPatch = (op: string): Case => patch('json-patch+json', `[${op}]`);

/** Every place a client names a key, with `key` there. */
function cases(key: string): Case[] {
  const n = safe(key);
  const cm = (what: string, name: string, meta: string, rest = ''): Case => ({ what, method: 'POST', path: cms, headers: json, body: `{"metadata":{"name":"${name}"${meta}}${rest}}` });
  return [
    { what: 'header name on a list', method: 'GET', path: cms, headers: [[key, 'x']] },
    { what: 'header name on a create', method: 'POST', path: cms, headers: [...json, [key, 'x'], [key.toUpperCase(), 'y']], body: `{"metadata":{"name":"h-${n}"}}` },
    { what: 'impersonation extra', method: 'POST', path: whoami, headers: [...json, ['Impersonate-User', 'jane'], ['Impersonate-Group', key], [`Impersonate-Extra-${key}`, 'x'], [`impersonate-extra-${key}`, 'y']], body: '{}' },
    { what: 'impersonation extra without a user', method: 'GET', path: cms, headers: [[`Impersonate-Extra-${key}`, 'x']] },
    { what: 'front-proxy headers without a certificate', method: 'GET', path: cms, headers: [['X-Remote-User', key], [`X-Remote-Extra-${key}`, 'x']] },
    cm('label key', `lk-${n}`, `,"labels":{"${key}":"v"}`),
    cm('label value', `lv-${n}`, `,"labels":{"a":"${key}"}`),
    cm('annotation key', `ak-${n}`, `,"annotations":{"${key}":"v"}`),
    cm('metadata key', `mk-${n}`, `,"${key}":{"polluted":true}`),
    cm('data key', `dk-${n}`, '', `,"data":{"${key}":"v"}`),
    cm('binaryData key', `bk-${n}`, '', `,"binaryData":{"${key}":"dg=="}`),
    cm('top-level key', `tk-${n}`, '', `,"${key}":{"polluted":true},"data":{"a":"b"}`),
    { what: 'ConfigMap as YAML', method: 'POST', path: cms, headers: [['content-type', 'application/yaml']], body: `metadata:\n  name: y-${n}\n  labels:\n    ${key}: v\ndata:\n  ${key}: v\n${key}:\n  polluted: true\n` },
    ...[`${key}=x`, `metadata.${key}=x`, `metadata.name=${key}`, `${key}!=x`].map((s): Case => ({ what: `fieldSelector ${s}`, method: 'GET', path: `${cms}?fieldSelector=${encodeURIComponent(s)}` })),
    ...[key, `!${key}`, `${key}=x`, `a=${key}`, `${key} in (a,b)`, `${key} notin (a)`].map((s): Case => ({ what: `labelSelector ${s}`, method: 'GET', path: `${cms}?labelSelector=${encodeURIComponent(s)}` })),
    { what: 'labelSelector in a watch', method: 'GET', path: `${cms}?watch=true&labelSelector=${encodeURIComponent(key)}` },
    jsonPatch(`{"op":"add","path":"/metadata/labels/${key}","value":"v"}`),
    jsonPatch(`{"op":"add","path":"/${key}/polluted","value":true}`),
    jsonPatch(`{"op":"add","path":"/data/${key}","value":"v"}`),
    jsonPatch(`{"op":"replace","path":"/metadata/${key}/polluted","value":true}`),
    jsonPatch(`{"op":"remove","path":"/metadata/${key}"}`),
    jsonPatch(`{"op":"test","path":"/${key}","value":null}`),
    jsonPatch(`{"op":"move","from":"/metadata/${key}","path":"/data/x"}`),
    jsonPatch(`{"op":"copy","from":"/data/${key}","path":"/data/y"}`),
    patch('merge-patch+json', `{"${key}":{"polluted":true}}`),
    patch('merge-patch+json', `{"metadata":{"labels":{"${key}":"v"},"annotations":{"${key}":"v"}}}`),
    patch('merge-patch+json', `{"data":{"${key}":"v"}}`),
    patch('merge-patch+json', `{"data":{"${key}":null}}`),
    patch('strategic-merge-patch+json', `{"${key}":{"polluted":true},"data":{"${key}":"v"}}`),
    patch('strategic-merge-patch+json', `{"metadata":{"$setElementOrder/${key}":[{"name":"x"}],"$deleteFromPrimitiveList/${key}":["a"]}}`),
    patch('strategic-merge-patch+json', `{"$retainKeys":["${key}","metadata"],"metadata":{"name":"base"}}`),
    patch('strategic-merge-patch+json', `{"secrets":[{"name":"x","${key}":"y"}],"$setElementOrder/secrets":[{"${key}":"x"}]}`, `${sas}/default`),
    patch('strategic-merge-patch+json', `{"secrets":[{"$patch":"delete","name":"${key}"}],"$setElementOrder/${key}":[{"name":"x"}]}`, `${sas}/default`),
    { ...patch('apply-patch+yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: base\n  labels:\n    ${key}: v\ndata:\n  ${key}: v\n`, `${cms}/base?fieldManager=m-${n}`), what: 'apply keys' },
    { ...patch('apply-patch+yaml', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"base"},"${key}":{"polluted":true}}`, `${cms}/base?fieldManager=m`), what: 'apply unknown key' },
    { ...patch('apply-patch+yaml', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"base","annotations":{"${key}":"v"}}}`, `${cms}/base?fieldManager=${key}&force=true`), what: 'apply field manager' },
    { what: 'query parameter on a list', method: 'GET', path: `${cms}?${key}=1&${key}=2` },
    { what: 'query parameter on a get', method: 'GET', path: `${cms}/base?${key}=x` },
    { what: 'query parameter on a create', method: 'POST', path: `${cms}?${key}=1&dryRun=All`, headers: json, body: `{"metadata":{"name":"q-${n}"}}` },
    { what: 'query parameter on a delete', method: 'DELETE', path: `${cms}/none?${key}=1` },
    { what: 'accept and content-type parameters', method: 'POST', path: cms, headers: [['content-type', `application/json;${key}=x`], ['accept', `application/json;${key}=x;as=Table;g=meta.k8s.io;v=v1`]], body: `{"metadata":{"name":"ct-${n}"}}` },
    { what: 'a name in the path', method: 'GET', path: `${cms}/${encodeURIComponent(key)}` },
    { what: 'a resource in the path', method: 'GET', path: `/api/v1/namespaces/default/${encodeURIComponent(key)}` },
    { what: 'a group in the path', method: 'GET', path: `/apis/${encodeURIComponent(key)}/v1` },
    { what: 'a fault rule kind', method: 'POST', path: '/sim/v1/faults', headers: json, body: `{"rules":[{"kind":"${key}"},{"${key}":1}]}` },
  ];
}

/** Every own property of the prototypes a pollution would touch, and its value. */
function prototypeState(): string[] {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].flatMap((p) =>
    Object.getOwnPropertyNames(p).map((name) => {
      const d = Object.getOwnPropertyDescriptor(p, name)!;
      return `${name}:${typeof d.value}:${String(d.get ?? d.value === undefined)}`;
    }),
  );
}

const pristine = prototypeState();

function expectPrototypesUntouched(): void {
  expect(prototypeState()).toEqual(pristine);
  expect({}.constructor).toBe(Object);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect(Object.keys(Object.prototype)).toEqual([]);
}

/** Answers a case and checks the properties; `hash` reads the world's digest. */
async function check(c: Case, answer: () => Promise<{ status: number; body: unknown }>, hash: () => Promise<string>): Promise<number> {
  const before = await hash();
  const res = await answer();
  const where = `${c.what}: ${c.method} ${c.path} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  expect(res.status, where).toBeGreaterThanOrEqual(200);
  expect(res.status, where).toBeLessThan(500);
  if (res.status >= 400) expect(await hash(), `${where} changed the world`).toBe(before);
  expectPrototypesUntouched();
  return res.status;
}

/** Header pairs as `sim.request` takes them: own keys only, repeated names as lists. */
function headerMap(pairs: readonly (readonly [string, string])[]): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [k, v] of pairs) {
    const before = out[k];
    out[k] = before === undefined ? v : [...(typeof before === 'string' ? [before] : before), v];
  }
  return out;
}

const base = '{"metadata":{"name":"base","labels":{"a":"b"}},"data":{"a":"b"}}';

describe('Object.prototype names as keys, in process', () => {
  let s: Simulation;
  beforeAll(async () => {
    s = await sim();
    expect((await s.request({ method: 'POST', path: cms, headers: headerMap(json), body: base })).status).toBe(201);
  });

  for (const key of prototypeKeys) {
    it(`answers every place a client names "${key}" with a 2xx or a 4xx`, async () => {
      for (const c of cases(key)) {
        await check(
          c,
          async () => {
            const res = await s.request({ method: c.method, path: c.path, headers: headerMap(c.headers ?? []), ...(c.body === undefined ? {} : { body: c.body }) });
            res.watch?.close();
            return res;
          },
          async () => s.hash(),
        );
      }
    });
  }

  it('stores such keys as ordinary own keys and selects on them', async () => {
    const fresh = await sim();
    expect((await fresh.request({ method: 'POST', path: cms, headers: headerMap(json), body: base })).status).toBe(201);
    const body = `{"metadata":{"name":"keys","labels":{"constructor":"v","toString":"w"}},"data":{"__proto__":"p","constructor":"c","valueOf":"v"}}`;
    expect((await fresh.request({ method: 'POST', path: cms, headers: headerMap(json), body })).status).toBe(201);
    const got = (await fresh.request({ method: 'GET', path: `${cms}/keys` })).body as Body;
    expect(Object.keys(got.data)).toEqual(['__proto__', 'constructor', 'valueOf']);
    expect(Object.getPrototypeOf(got.data)).toBe(Object.prototype);
    const names = async (selector: string): Promise<string[]> => ((await fresh.request({ method: 'GET', path: `${cms}?labelSelector=${encodeURIComponent(selector)}` })).body as Body).items.map((i: Body) => i.metadata.name);
    expect(await names('constructor')).toEqual(['keys']);
    expect(await names('valueOf')).toEqual([]);
    expect(await names('hasOwnProperty notin (x)')).toContain('base');
    expectPrototypesUntouched();
  });

  it('front proxy: X-Remote-Extra-<key> behind the proxy certificate', async () => {
    const proxyCa = await sim({ seed: 'front-proxy' });
    const proxy = await proxyCa.issueClientCertificate({ user: 'front-proxy' });
    const fp = await sim({ requestHeader: { clientCA: await proxyCa.caCertificate(), allowedNames: ['front-proxy'] } });
    for (const key of prototypeKeys) {
      const c: Case = { what: 'front-proxy extra', method: 'POST', path: whoami, headers: [...json, ['X-Remote-User', 'dana'], ['X-Remote-Group', key], [`X-Remote-Extra-${key}`, 'y']], body: '{}' };
      let body: unknown;
      await check(
        c,
        async () => {
          const res = await fp.request({ method: c.method, path: c.path, headers: headerMap(c.headers!), body: c.body, clientCertificate: proxy.certificate });
          body = res.body;
          return res;
        },
        async () => fp.hash(),
      );
      const extra = (body as Body).status.userInfo.extra as Record<string, string[]>;
      expect(Object.keys(extra)).toEqual([key.toLowerCase()]);
    }
  });
});

describe('Object.prototype names as keys, over HTTP', () => {
  let server: RunningServer;
  let target: Target;
  const auth = (): [string, string] => ['Authorization', `Bearer ${server.adminToken}`];
  const hashOf = async (t: Target, token: string): Promise<string> => {
    const a = await send(t, { method: 'GET', path: '/sim/v1/hash', headers: [['Authorization', `Bearer ${token}`]] }, 10_000);
    if (a.kind !== 'answer' || a.status !== 200) throw new Error(`GET /sim/v1/hash: ${JSON.stringify(a)}`);
    return (JSON.parse(a.body) as { hash: string }).hash;
  };
  const over = async (t: Target, c: Case, headers: readonly (readonly [string, string])[]): Promise<{ status: number; body: unknown }> => {
    const req: RawRequest = { method: c.method, path: c.path, headers, ...(c.body === undefined ? {} : { body: new TextEncoder().encode(c.body) }) };
    const a = await send(t, req, 10_000);
    if (a.kind !== 'answer') return { status: 0, body: a };
    return { status: a.status, body: a.body };
  };

  beforeAll(async () => {
    server = await serve({ port: 0, clock: 'manual', tls: false, seed: 16 });
    const url = new URL(server.url);
    target = { host: url.hostname, port: Number(url.port) };
    expect((await over(target, { what: 'base', method: 'POST', path: cms, body: base }, [auth(), ...json])).status).toBe(201);
  });
  afterAll(async () => {
    await server.close();
  });

  for (const key of prototypeKeys) {
    it(`answers every place a client names "${key}" with a 2xx or a 4xx`, async () => {
      for (const c of cases(key)) await check(c, () => over(target, c, [auth(), ...(c.headers ?? [])]), () => hashOf(target, server.adminToken));
    });
  }

  it('front proxy over mTLS: X-Remote-Extra-<key> behind the proxy certificate', async () => {
    const proxyCa = await sim({ seed: 'front-proxy' });
    const proxy = await proxyCa.issueClientCertificate({ user: 'front-proxy' });
    const tlsServer = await serve({ port: 0, clock: 'manual', seed: 16, startTime: '2026-01-01T00:00:00Z', requestHeader: { clientCA: await proxyCa.caCertificate(), allowedNames: ['front-proxy'] } });
    try {
      const url = new URL(tlsServer.url);
      const proxied: Target = { host: url.hostname, port: Number(url.port), tls: { ca: tlsServer.caPem!, cert: proxy.certificate, key: proxy.privateKey } };
      const plain: Target = { host: url.hostname, port: Number(url.port), tls: { ca: tlsServer.caPem! } };
      for (const key of prototypeKeys) {
        const c: Case = { what: 'front-proxy extra', method: 'POST', path: whoami, headers: [...json, ['X-Remote-User', 'dana'], ['X-Remote-Group', key], [`X-Remote-Extra-${key}`, 'y']], body: '{}' };
        let body: unknown;
        const status = await check(
          c,
          async () => {
            const res = await over(proxied, c, c.headers!);
            body = res.body;
            return res;
          },
          () => hashOf(plain, tlsServer.adminToken),
        );
        expect(status).toBe(201);
        expect(Object.keys((JSON.parse(body as string) as Body).status.userInfo.extra)).toEqual([key.toLowerCase()]);
      }
    } finally {
      await tlsServer.close();
    }
  });
});
