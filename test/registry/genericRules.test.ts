/**
 * The generic rules every served kind keeps, run over the registry index (src/registry/index.ts)
 * in both group-domain modes, so that a new kind cannot forget one:
 * - status a client sends is cleared on create (kinds with a status clients may not set);
 * - a spec change bumps metadata.generation where the kind has one, and never where it has not;
 * - a write through a status-like subresource (`/status`, `/approval`) cannot change the spec;
 * - validate and validateUpdate do not mutate their input (it is deep-frozen; they must not throw);
 * - the Table output (the kind's columns or the default ones) has a Name column.
 * Driven through the in-process API with a minimal valid object per kind (`samples`); a served
 * kind without a sample fails here by name. Virtual kinds (answered, never stored) are skipped
 * by name with the reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CryptoFacts } from '../../src/api/crypto.ts';
import type { KubeObject } from '../../src/api/meta.ts';
import { namesFor, type Names } from '../../src/api/names.ts';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { parseInstant } from '../../src/core/duration.ts';
import { deepEqual } from '../../src/core/json.ts';
import { createSimulation, type Simulation } from '../../src/index.ts';
import { resourceTypesFor } from '../../src/registry/index.ts';
import type { ResourceType, Strategy, StrategyContext } from '../../src/registry/types.ts';

type Body = Record<string, any>;

interface SampleEnv {
  readonly sim: Simulation;
  readonly names: Names;
  readonly namespace: string;
}

interface Sample {
  /** A minimal valid object of the kind, without apiVersion, kind and metadata.name. */
  readonly body: (env: SampleEnv) => Body | Promise<Body>;
  /** A change of what the kind stores besides metadata and status (its spec where it has one). */
  readonly change: (o: Body) => Body;
  /** Set when the main resource refuses every such change: why (the change is then expected to get a 422). */
  readonly changeRefused?: string;
  /** A status a client might send on create: it must not survive. Absent only for kinds without status. */
  readonly clientStatus?: Body;
  /** Set when clients may send status on create, as in Kubernetes: why. */
  readonly statusOnCreate?: string;
}

/** Kinds that are answered from the request and never stored: nothing generic to check. */
const virtualKinds: Readonly<Record<string, string>> = {
  TokenReview: 'virtual: answered from the request, never stored',
  SelfSubjectReview: 'virtual: answered from the request, never stored',
  SelfSubjectAccessReview: 'virtual: answered from the request, never stored',
  SelfSubjectRulesReview: 'virtual: answered from the request, never stored',
};

const b64 = (text: string): string => bytesToBase64(utf8Encode(text));
const container = (image: string) => ({ name: 'c', image });
const rules = (verbs: string[]) => [{ verbs, apiGroups: [''], resources: ['pods'] }];

const samples: Readonly<Record<string, Sample>> = {
  Namespace: {
    body: () => ({}),
    change: (o) => ({ ...o, spec: { finalizers: ['example.com/extra'] } }),
    clientStatus: { phase: 'Terminating' },
  },
  ServiceAccount: {
    body: () => ({}),
    change: (o) => ({ ...o, automountServiceAccountToken: false }),
  },
  Secret: {
    body: () => ({ data: { a: b64('one') } }),
    change: (o) => ({ ...o, data: { ...o['data'], b: b64('two') } }),
  },
  ConfigMap: {
    body: () => ({ data: { a: 'one' } }),
    change: (o) => ({ ...o, data: { ...o['data'], b: 'two' } }),
  },
  Pod: {
    body: () => ({ spec: { containers: [container('busybox:1')] } }),
    change: (o) => ({ ...o, spec: { ...o['spec'], containers: [{ ...o['spec'].containers[0], image: 'busybox:2' }] } }),
    clientStatus: { phase: 'Unknown', message: 'set by the client' },
  },
  Role: {
    body: () => ({ rules: rules(['get']) }),
    change: (o) => ({ ...o, rules: rules(['get', 'list']) }),
  },
  ClusterRole: {
    body: () => ({ rules: rules(['get']) }),
    change: (o) => ({ ...o, rules: rules(['get', 'list']) }),
  },
  RoleBinding: {
    body: ({ names }) => ({ roleRef: { apiGroup: names.rbacGroup, kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', apiGroup: names.rbacGroup, name: 'alice' }] }),
    change: (o) => ({ ...o, subjects: [...o['subjects'], { ...o['subjects'][0], name: 'bob' }] }),
  },
  ClusterRoleBinding: {
    body: ({ names }) => ({ roleRef: { apiGroup: names.rbacGroup, kind: 'ClusterRole', name: 'r' }, subjects: [{ kind: 'User', apiGroup: names.rbacGroup, name: 'alice' }] }),
    change: (o) => ({ ...o, subjects: [...o['subjects'], { ...o['subjects'][0], name: 'bob' }] }),
  },
  CertificateSigningRequest: {
    body: async ({ sim }) => ({
      spec: { request: b64((await sim.createCertificateRequest({ commonName: 'generic' })).request), signerName: 'example.com/signer', usages: ['client auth'] },
    }),
    change: (o) => ({ ...o, spec: { ...o['spec'], usages: ['client auth', 'digital signature'] } }),
    changeRefused: 'the spec is immutable (docs/divergences.md: rejected rather than dropped)',
    clientStatus: { conditions: [{ type: 'Approved', status: 'True', reason: 'SetByClient' }] },
  },
  ClusterTrustBundle: {
    body: async ({ sim }) => ({ spec: { trustBundle: await sim.caCertificate() } }),
    change: (o) => ({ ...o, spec: { ...o['spec'], trustBundle: `# the same anchor\n${o['spec'].trustBundle}` } }),
  },
  Node: {
    body: () => ({}),
    change: (o) => ({ ...o, spec: { ...o['spec'], unschedulable: true } }),
    statusOnCreate: 'the kubelet registers its node with status (as Kubernetes allows)',
  },
  Service: {
    body: () => ({ spec: { ports: [{ port: 80 }] } }),
    change: (o) => ({ ...o, spec: { ...o['spec'], selector: { app: 'generic' } } }),
    clientStatus: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } },
  },
  PersistentVolumeClaim: {
    body: () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
    change: (o) => ({ ...o, spec: { ...o['spec'], resources: { requests: { storage: '2Gi' } } } }),
    changeRefused: 'the spec is immutable once created (only a bound claim may grow)',
    clientStatus: { phase: 'Bound' },
  },
  Event: {
    body: ({ namespace }) => ({ involvedObject: { kind: 'Pod', namespace, name: 'p' }, reason: 'Tested', message: 'one' }),
    change: (o) => ({ ...o, message: 'two' }),
  },
  StatefulSet: {
    body: () => ({
      spec: { selector: { matchLabels: { app: 'generic' } }, serviceName: 'generic', template: { metadata: { labels: { app: 'generic' } }, spec: { containers: [container('busybox:1')] } } },
    }),
    change: (o) => ({ ...o, spec: { ...o['spec'], replicas: 2 } }),
    clientStatus: { replicas: 7, readyReplicas: 7 },
  },
  ControllerRevision: {
    body: () => ({ data: { a: 1 }, revision: 1 }),
    change: (o) => ({ ...o, revision: 2 }),
  },
};

const namespace = 'default';

function collectionPath(rt: ResourceType): string {
  const base = rt.group === '' ? `/api/${rt.version}` : `/apis/${rt.group}/${rt.version}`;
  return rt.namespaced ? `${base}/namespaces/${namespace}/${rt.resource}` : `${base}/${rt.resource}`;
}

const objectPath = (rt: ResourceType, name: string): string => `${collectionPath(rt)}/${name}`;

/** What a write may change besides metadata and status: the spec, data, rules, … */
function stored(o: Body): Body {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
  return rest;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Answers every crypto question favourably: the rule checked with it is about mutation, not crypto. */
const agreeableCrypto: CryptoFacts = {
  jwsSignature: () => 'valid',
  serviceAccountToken: () => 'token',
  certificateChain: () => ({ ok: false, message: 'not asked here' }),
  certificateRequest: () => ({ ok: true, subject: { commonName: 'generic', organizations: [] }, dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [], keyAlgorithm: 'Ed25519' }),
  issuedCertificate: () => ({ ok: false, message: 'not asked here' }),
  parsedCertificates: () => ({ ok: true, certificates: [{ basicConstraintsValid: true, isCA: true }] }),
};

/**
 * Subresources written like status (`/status`, `/approval`): the parent's own kind, confined to
 * status by the store (no `confine` of their own; `/finalize` has one and may change the spec).
 */
function statusLike(rt: ResourceType): string[] {
  return rt.subresources.filter((sub) => sub.kind === rt.kind && sub.group === undefined && sub.confine === undefined && sub.verbs.includes('update')).map((sub) => sub.name);
}

function hasStatus(rt: ResourceType): boolean {
  return Object.hasOwn(rt.schema.fields, 'status');
}

for (const domain of ['platform.io', 'k8s.io'] as const) {
  describe(`generic rules of every served kind (group domain ${domain})`, () => {
    const names = namesFor(domain);
    const kinds = resourceTypesFor(names);
    let s: Simulation;

    beforeAll(async () => {
      s = await createSimulation({ seed: 1, startTime: '2026-01-01T00:00:00Z', groupDomain: domain, settle: 'manual', nodeAgent: false });
    });

    it('skips only virtual kinds, and has samples only for served kinds', () => {
      for (const kind of Object.keys(virtualKinds)) expect(kinds.find((rt) => rt.kind === kind)?.virtual, `${kind} is skipped as virtual`).toBe(true);
      expect(kinds.filter((rt) => rt.virtual === true && !Object.hasOwn(virtualKinds, rt.kind)).map((rt) => rt.kind)).toEqual([]);
      expect(Object.keys(samples).filter((kind) => !kinds.some((rt) => rt.kind === kind && rt.virtual !== true))).toEqual([]);
    });

    for (const rt of kinds) {
      if (Object.hasOwn(virtualKinds, rt.kind)) {
        it.skip(`${rt.kind}: ${virtualKinds[rt.kind]}`, () => {});
        continue;
      }
      const found = samples[rt.kind];
      if (found === undefined) {
        it(`${rt.kind} has a sample`, () => {
          expect.fail(`no sample object for the served kind ${rt.kind}: add one to \`samples\` in test/registry/genericRules.test.ts`);
        });
        continue;
      }

      const sample: Sample = found;
      describe(rt.kind, () => {
        const env = (): SampleEnv => ({ sim: s, names, namespace });

        async function create(rule: string, extra: Body = {}): Promise<Body> {
          const name = `g-${rule}-${rt.singular}`;
          const body = { apiVersion: rt.group === '' ? rt.version : `${rt.group}/${rt.version}`, kind: rt.kind, ...(await sample.body(env())), metadata: { name }, ...extra };
          const res = await s.request({ method: 'POST', path: collectionPath(rt), body });
          expect(res.status, `create ${rt.kind} ${name}: ${JSON.stringify(res.body)}`).toBe(201);
          return res.body as Body;
        }

        async function put(path: string, body: Body) {
          return s.request({ method: 'PUT', path, body });
        }

        it('clears the status a client sends on create', async () => {
          if (!hasStatus(rt)) {
            expect(sample.clientStatus, `${rt.kind} has no status field: its sample needs no clientStatus`).toBeUndefined();
            return;
          }
          if (sample.statusOnCreate !== undefined) return;
          expect(sample.clientStatus, `${rt.kind} has a status: give its sample a clientStatus (or statusOnCreate with the reason)`).toBeDefined();
          const sent = sample.clientStatus!;
          const created = await create('status', { status: sent });
          for (const key of Object.keys(sent)) expect((created['status'] ?? {})[key], `status.${key} survived create`).not.toEqual(sent[key]);
          const read = (await s.request({ method: 'GET', path: objectPath(rt, created['metadata'].name) })).body as Body;
          for (const key of Object.keys(sent)) expect((read['status'] ?? {})[key], `status.${key} was stored`).not.toEqual(sent[key]);
        });

        it(rt.hasGeneration ? 'bumps metadata.generation on a spec change' : 'never sets metadata.generation', async () => {
          const created = await create('generation');
          expect(created['metadata'].generation).toBe(rt.hasGeneration ? 1 : undefined);
          const changed = sample.change(created);
          expect(stored(changed), 'the sample change must change more than metadata and status').not.toEqual(stored(created));
          const res = await put(objectPath(rt, created['metadata'].name), changed);
          if (sample.changeRefused !== undefined) expect(res.status, `${rt.kind}: ${sample.changeRefused}`).toBe(422);
          else expect(res.status, JSON.stringify(res.body)).toBe(200);
          const read = (await s.request({ method: 'GET', path: objectPath(rt, created['metadata'].name) })).body as Body;
          const changedStored = !deepEqual(stored(read), stored(created));
          if (sample.changeRefused !== undefined) expect(changedStored, 'a refused change was stored').toBe(false);
          expect(read['metadata'].generation).toBe(rt.hasGeneration ? (changedStored ? 2 : 1) : undefined);
          if (rt.hasGeneration) expect(changedStored, `${rt.kind}: the sample change must be a spec change that is stored`).toBe(true);
        });

        it('keeps the spec on writes through status-like subresources', async () => {
          for (const sub of statusLike(rt)) {
            const created = await create(`sub-${sub}`);
            const res = await put(`${objectPath(rt, created['metadata'].name)}/${sub}`, sample.change(created));
            expect(res.status, `PUT ${sub}: ${JSON.stringify(res.body)}`).toBe(200);
            expect(stored(res.body as Body), `/${sub} changed the stored object`).toEqual(stored(created));
            const read = (await s.request({ method: 'GET', path: objectPath(rt, created['metadata'].name) })).body as Body;
            expect(stored(read)).toEqual(stored(created));
            expect(read['metadata'].generation).toBe(created['metadata'].generation);
          }
        });

        it('validates without mutating its input', async () => {
          const created = (await create('validate')) as KubeObject;
          const ctx: StrategyContext = {
            now: parseInstant('2026-01-01T00:00:00Z')!,
            names,
            lookup: () => undefined,
            user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
            crypto: agreeableCrypto,
            may: () => true,
          };
          const frozen = (o: Body): KubeObject => deepFreeze(structuredClone(o)) as KubeObject;
          const strategies: [string, Strategy][] = [['main', rt.strategy], ...rt.subresources.flatMap((sub): [string, Strategy][] => (sub.strategy === undefined ? [] : [[sub.name, sub.strategy]]))];
          for (const [where, strategy] of strategies) {
            expect(() => strategy.validate(frozen(created), ctx), `${where} validate`).not.toThrow();
            expect(() => strategy.validateUpdate(frozen(sample.change(created)), frozen(created), ctx), `${where} validateUpdate`).not.toThrow();
            expect(() => strategy.validateUpdate(frozen(created), frozen(created), ctx), `${where} validateUpdate (unchanged)`).not.toThrow();
          }
        });

        it('has a Name column in its Table output', async () => {
          const created = await create('table');
          const res = await s.request({ method: 'GET', path: objectPath(rt, created['metadata'].name), headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
          expect(res.status).toBe(200);
          const table = res.body as Body;
          expect(table['kind']).toBe('Table');
          expect((table['columnDefinitions'] as Body[]).map((c) => c['name'])).toContain('Name');
          expect(table['rows']).toHaveLength(1);
        });
      });
    }
  });
}
