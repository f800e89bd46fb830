/**
 * Random and mutated HTTP requests for the fuzzer (test/fuzz/http.fuzz.test.ts, scripts/fuzz.ts).
 * Three in four are coherent — an operation on a kind of bodies.ts (create, update, the four
 * patch types, get, list, delete, a subresource) with its body mutated and usually the right
 * content type — so that they get past decoding into validation, admission and storage; the
 * rest are chaos: any method (HEAD, OPTIONS and unknown ones), hostile path segments (`..`,
 * `%2F`, unicode, empty and oversized names), unknown and repeated query parameters, wrong
 * content types, bodies whose Content-Length lies. Credentials and extra headers come from
 * headers.ts, body bytes from encodings.ts.
 */
import fc from 'fast-check';
import type { RawRequest } from './rawClient.ts';
import { hostileValue, kinds, mutate, mutation, pointers, prototypeNames, type Json, type Kind } from './bodies.ts';
import { encode, encodings, wrongContentTypes, type Encoding } from './encodings.ts';
import { accepts, credentials, extraHeaders, type Header } from './headers.ts';

export interface FuzzContext {
  readonly adminToken: string;
  /** base64 of a certificate request PEM, for valid CSR bodies. */
  readonly csr: string;
}

export interface FuzzRequest extends RawRequest {
  /** What the request started from (a kind's body, a patch, …), for the failure report. */
  readonly origin: string;
}

const nonResourcePaths = ['/', '/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/version', '/healthz', '/livez', '/readyz', '/openapi/v2', '/openapi/v3', '/openapi/v3/api/v1', '/openapi/v3/apis/apps/v1', '/.well-known/openid-configuration', '/openid/v1/jwks', '/metrics', '/sim/v1/clock', '/sim/v1/hash', '/sim/v1/faults', '/sim/v1/settle', '/sim/v1/clock/advance', '/sim/v1/snapshot', '/sim/v1/nothing', '/apis/authentication.platform.io/v1/selfsubjectreviews', '/apis/authentication.platform.io/v1/tokenreviews', '/apis/authorization.platform.io/v1/selfsubjectaccessreviews', '/api/v1/namespaces', '/api/v1/namespaces/fuzz-other', '/api/v1/nodes', '/api/v1/pods', '/apis/apps/v1/statefulsets', '/api/v1/watch/namespaces/default/configmaps'];

/** A path segment a client should not send, or should be careful with. */
const hostileSegment = fc.oneof(
  fc.constantFrom('..', '.', '', '%2F', '%2f', '%2e%2e', '..%2F..', '%00', '%zz', '%', 'é', '%C3%A9', '%C0%AF', '%FF%FE', '名前', '🦄', 'UPPER', 'a%20b', '*', '-', 'a.', '.a', '~', 'default', 'kube-system', 'platform-system', 'missing-ns', 'status', 'scale', 'token', 'approval', 'binding', 'watch'),
  fc.constantFrom(...prototypeNames).map(encodeURIComponent),
  fc.integer({ min: 60, max: 10_000 }).map((n) => 'a'.repeat(n)),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const queryNames = ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'watch', 'timeoutSeconds', 'allowWatchBookmarks', 'sendInitialEvents', 'dryRun', 'fieldManager', 'fieldValidation', 'force', 'propagationPolicy', 'gracePeriodSeconds', 'orphanDependents', 'pretty', 'includeUninitialized', 'export'];
const queryValues = fc.oneof(
  fc.constantFrom('', '0', '1', '-1', 'true', 'True', 'false', 'All', 'Strict', 'Warn', 'Ignore', 'Orphan', 'Foreground', 'Background', 'NotOlderThan', 'Exact', '99999999999', '18446744073709551616', '1e3', 'app=web', 'app in (web,x)', '!app', 'app!=', '=', ',,', 'metadata.name=fz-cm', 'metadata.namespace!=default', 'spec.nodeName=', 'status.phase=Running', 'x=(', 'a==b', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MX0', '%zz', '%00', 'é', ...prototypeNames),
  fc.string({ maxLength: 16 }),
  fc.integer({ min: 100, max: 5000 }).map((n) => 'v'.repeat(n)),
);
/** Query text: parameters known and unknown with any values, or text no encoder writes. */
const query = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...queryNames) }, { weight: 1, arbitrary: fc.constantFrom(...prototypeNames, 'unknown', '', 'a[b]') }), queryValues), { maxLength: 4 })
      .map((ps) => (ps.length === 0 ? '' : `?${ps.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`)),
  },
  { weight: 1, arbitrary: fc.constantFrom('', '?', '?&&', '?=x', '?watch', '?watch=1&watch=0', '?limit=1&limit=2', '?labelSelector=%zz', '?a=%E0%A4%A', '?%00=1', '?fieldSelector=metadata.name%3Dx%2Cmetadata.name%3Dy') },
);

const framing = fc.oneof({ weight: 30, arbitrary: fc.constant<'exact'>('exact') }, { weight: 1, arbitrary: fc.constant<'none'>('none') }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 5000 }) });

/** Mostly 0–1 mutations: a valid body now and then keeps the world growing and the requests deep. */
const mutations = fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: fc.array(mutation, { minLength: 2, maxLength: 3 }) });
const encoding = fc.oneof({ weight: 12, arbitrary: fc.constant<Encoding>('json') }, { weight: 3, arbitrary: fc.constant<Encoding>('yaml') }, { weight: 1, arbitrary: fc.constantFrom(...encodings) });

interface Shape {
  readonly method: string;
  readonly path: string;
  readonly body?: Json;
  /** The content type the body is meant for (the encoding may still make it YAML). */
  readonly type: string;
  readonly origin: string;
}

const patchTypes = { merge: 'application/merge-patch+json', strategic: 'application/strategic-merge-patch+json', json: 'application/json-patch+json', apply: 'application/apply-patch+yaml' } as const;

/** A patch of a kind's body: a merge patch from a mutated copy, JSON patch operations on its paths. */
function patchOf(k: Kind): fc.Arbitrary<Shape> {
  const item = `${k.collection}/${k.item || 'x'}`;
  const ops = fc.array(
    fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'), path: fc.oneof(fc.constantFrom(...pointers(k.body)), fc.constantFrom('', '/', '/-', '/metadata/labels/-', '/data/__proto__', '/__proto__/polluted', '/constructor/prototype/polluted', '/spec/containers/99', '/a~2b', 'no-slash')), value: hostileValue, from: fc.constantFrom(...pointers(k.body), '/nope') }, { requiredKeys: ['op', 'path'] }),
    { minLength: 1, maxLength: 3 },
  );
  return fc.oneof(
    fc.tuple(fc.constantFrom('merge', 'strategic'), mutations).map(([t, ms]): Shape => ({ method: 'PATCH', path: item, body: mutate(k.body, ms), type: patchTypes[t as 'merge' | 'strategic'], origin: `${t} patch of a ${k.name}, ${ms.length} mutation(s)` })),
    ops.map((o): Shape => ({ method: 'PATCH', path: item, body: o as Json, type: patchTypes.json, origin: `JSON patch of a ${k.name}` })),
    fc.tuple(mutations, fc.constantFrom('', '&force=true', '&force=false', '&force=x', '&fieldValidation=Strict')).map(([ms, q]): Shape => ({ method: 'PATCH', path: `${item}?fieldManager=fuzz${q}`, body: mutate(k.body, ms), type: patchTypes.apply, origin: `apply of a ${k.name}, ${ms.length} mutation(s)` })),
  );
}

/** What a subresource takes, mutated. */
function subresourceOf(k: Kind, sub: string): fc.Arbitrary<Shape> {
  const at = `${k.collection}/${k.item}/${sub}`;
  const bodies: Record<string, Json> = {
    status: k.body,
    scale: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: k.item, namespace: 'default' }, spec: { replicas: 3 } },
    token: { spec: { audiences: ['api'], expirationSeconds: 600 } },
    approval: { ...(k.body as { [key: string]: Json }), status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Fuzz', message: 'ok' }] } },
    binding: { apiVersion: 'v1', kind: 'Binding', metadata: { name: k.item }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } },
    eviction: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: k.item }, deleteOptions: { gracePeriodSeconds: 0 } },
  };
  const method = sub === 'token' || sub === 'binding' || sub === 'eviction' ? 'POST' : 'PUT';
  return fc.tuple(mutations, fc.constantFrom(method, 'GET', 'PATCH')).map(([ms, m]): Shape => ({ method: m, path: at, body: mutate(bodies[sub] ?? {}, ms), type: m === 'PATCH' ? patchTypes.merge : 'application/json', origin: `${sub} of a ${k.name}, ${ms.length} mutation(s)` }));
}

function coherent(k: Kind): fc.Arbitrary<Shape> {
  const item = k.item === '' ? k.collection : `${k.collection}/${k.item}`;
  const deleteOptions: Json = { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground', gracePeriodSeconds: 0, preconditions: { uid: 'x' }, dryRun: ['All'] };
  return fc.oneof(
    { weight: 4, arbitrary: mutations.map((ms): Shape => ({ method: 'POST', path: k.collection, body: mutate(k.body, ms), type: 'application/json', origin: `create a ${k.name}, ${ms.length} mutation(s)` })) },
    { weight: 2, arbitrary: mutations.map((ms): Shape => ({ method: k.item === '' ? 'POST' : 'PUT', path: item, body: mutate(k.body, ms), type: 'application/json', origin: `update a ${k.name}, ${ms.length} mutation(s)` })) },
    { weight: 3, arbitrary: patchOf(k) },
    { weight: 2, arbitrary: query.map((q): Shape => ({ method: 'GET', path: `${item}${q}`, type: 'application/json', origin: `get a ${k.name}` })) },
    { weight: 2, arbitrary: query.map((q): Shape => ({ method: 'GET', path: `${k.collection}${q}`, type: 'application/json', origin: `list ${k.name}s` })) },
    { weight: 1, arbitrary: fc.tuple(mutations, fc.boolean()).map(([ms, withBody]): Shape => ({ method: 'DELETE', path: item, ...(withBody ? { body: mutate(deleteOptions, ms) } : {}), type: 'application/json', origin: `delete a ${k.name}` })) },
    ...(k.subresources.length === 0 ? [] : [{ weight: 2, arbitrary: fc.constantFrom(...k.subresources).chain((sub) => subresourceOf(k, sub)) }]),
  );
}

/** Anything: any method, a hostile path, any body. */
function chaos(all: readonly Kind[]): fc.Arbitrary<Shape> {
  const method = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') }, { weight: 2, arbitrary: fc.constantFrom('HEAD', 'OPTIONS') }, { weight: 1, arbitrary: fc.constantFrom('TRACE', 'PROPFIND', 'PURGE', 'FOO', 'get', 'Post', 'LINK', 'SEARCH') });
  const path = fc.oneof(
    fc.constantFrom(...nonResourcePaths),
    fc.tuple(fc.constantFrom(...all), fc.nat(), hostileSegment).map(([k, i, seg]) => {
      const parts = `${k.collection}/${k.item || 'x'}`.split('/');
      parts[1 + (i % (parts.length - 1))] = seg;
      return parts.join('/');
    }),
  );
  const body = fc.oneof(fc.constantFrom(...all).chain((k) => mutations.map((ms) => mutate(k.body, ms))), hostileValue, fc.constant(undefined));
  // A snapshot of the growing world is slow to write and says nothing new: that path is only PUT.
  const methodFor = (m: string, p: string): string => (p === '/sim/v1/snapshot' && m === 'GET' ? 'PUT' : m);
  return fc.record({ method, path, q: query, body, type: fc.constantFrom('application/json', ...wrongContentTypes) }).map(({ method: m, path: p, q, body: b, type }): Shape => ({ method: methodFor(m, p), path: `${p}${q}`, ...(b === undefined ? {} : { body: b }), type, origin: 'chaos' }));
}

/** One random or mutated request. */
export function fuzzRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const all = kinds(ctx.csr);
  const shape = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...all).chain(coherent) }, { weight: 1, arbitrary: chaos(all) });
  // The content type: the body's own (YAML for a YAML create), mostly; else wrong, missing or twice.
  const typeChoice = fc.oneof({ weight: 12, arbitrary: fc.constant<'right'>('right') }, { weight: 1, arbitrary: fc.constantFrom<'missing' | 'twice'>('missing', 'twice') }, { weight: 1, arbitrary: fc.constantFrom(...wrongContentTypes) });
  return fc
    .record({ shape, credentials: credentials(ctx.adminToken), encoding, cut: fc.nat(), typeChoice, accept: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...accepts) }), extra: fc.oneof({ weight: 4, arbitrary: fc.constant<readonly Header[]>([]) }, { weight: 1, arbitrary: extraHeaders as fc.Arbitrary<readonly Header[]> }), framing })
    .map((r): FuzzRequest => {
      const { shape: s } = r;
      const right = r.encoding === 'yaml' && s.type === 'application/json' ? 'application/yaml' : s.type;
      const type: Header[] = r.typeChoice === 'right' ? [['Content-Type', right]] : r.typeChoice === 'missing' ? [] : r.typeChoice === 'twice' ? [['Content-Type', right], ['Content-Type', 'application/yaml']] : [['Content-Type', r.typeChoice]];
      const headers: Header[] = [...r.credentials, ...(s.body === undefined ? [] : type), ...(r.accept === undefined ? [] : [['Accept', r.accept] as Header]), ...r.extra];
      const body = s.body === undefined ? undefined : encode(s.body, r.encoding, r.cut);
      // A Content-Length among the extra lines replaces the computed one: two would be another request.
      const framed = r.extra.some(([k]) => k.toLowerCase() === 'content-length') ? 'none' : r.framing;
      return { method: s.method, path: s.path, headers, ...(body === undefined ? {} : { body }), framing: framed, origin: `${s.origin}, ${r.encoding}` };
    });
}

/** A request as text a person can read and paste: request line, headers, framing and body. */
export function describeRequest(r: FuzzRequest): string {
  const body = r.body === undefined ? '' : Buffer.from(r.body).toString('utf8');
  const shown = body.length > 800 ? `${body.slice(0, 800)}… (${r.body!.length} bytes)` : body;
  const line = `${r.method} ${r.path.length > 300 ? `${r.path.slice(0, 300)}… (${r.path.length} chars)` : r.path}`;
  return [line, ...r.headers.map(([k, v]) => `${k}: ${v.length > 200 ? `${v.slice(0, 200)}…` : v}`), `(framing: ${String(r.framing ?? 'exact')}; from ${r.origin})`, '', JSON.stringify(shown)].join('\n');
}

