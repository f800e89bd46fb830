/**
 * kubectl 1.32's typed `create` subcommands against `serve()` in k8s.io mode: each sends its
 * object as a Kubernetes protobuf body (checked in kubectl's -v=8 log), the server decodes it
 * and stores what the same JSON body would have stored. Skipped with a message where kubectl is
 * missing.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, type TestContext } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/core/json.ts';
import { kubectlInstalled, serverForFile } from './clients.ts';

const { dir, kubeconfig, server } = serverForFile('psim-create-', { clock: 'manual', seed: 12, groupDomain: 'k8s.io' });

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function kubectl(args: string[]): Promise<Run> {
  try {
    const r = await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir }, timeout: 40_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

function needsKubectl(ctx: TestContext): void {
  if (kubectlInstalled()) return;
  console.log(`kubectl is not installed: skipping "${ctx.task.name}"`);
  ctx.skip();
}

/** The Content-Type header kubectl's -v=8 log shows for its POST (the create request). */
function postContentType(stderr: string): string | undefined {
  const lines = stderr.split('\n');
  const post = lines.findIndex((l) => /round_trippers\.go:\d+\] POST /.test(l));
  if (post < 0) return undefined;
  for (const l of lines.slice(post + 1)) {
    const m = /^\S+ \S+ +\d+ round_trippers\.go:\d+\]\s+Content-Type: (.*)$/.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

async function get(path: string): Promise<JsonObject> {
  const res = await server().sim.request({ method: 'GET', path });
  expect(res.status).toBe(200);
  return res.body as JsonObject;
}

const pick = (o: JsonObject, keys: readonly string[]): JsonObject => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]!]));

interface Case {
  readonly args: string[];
  readonly created: string;
  readonly path: string;
  readonly keys: readonly string[];
  readonly expected: Record<string, JsonValue>;
}

const rbacGroup = 'rbac.authorization.k8s.io';
const cases: Record<string, Case> = {
  'create role': {
    args: ['create', 'role', 'reader', '--verb=get,list', '--resource=pods,statefulsets.apps', '--resource-name=web-0'],
    created: 'role.rbac.authorization.k8s.io/reader created',
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/reader',
    keys: ['kind', 'rules'],
    expected: {
      kind: 'Role',
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['web-0'] },
        { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['statefulsets'], resourceNames: ['web-0'] },
      ],
    },
  },
  'create rolebinding': {
    args: ['create', 'rolebinding', 'reader', '--role=reader', '--user=alice', '--group=dev', '--serviceaccount=default:default'],
    created: 'rolebinding.rbac.authorization.k8s.io/reader created',
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/reader',
    keys: ['kind', 'subjects', 'roleRef'],
    expected: {
      kind: 'RoleBinding',
      subjects: [
        { kind: 'User', apiGroup: rbacGroup, name: 'alice' },
        { kind: 'Group', apiGroup: rbacGroup, name: 'dev' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
      ],
      roleRef: { apiGroup: rbacGroup, kind: 'Role', name: 'reader' },
    },
  },
  'create clusterrole': {
    args: ['create', 'clusterrole', 'log-reader', '--verb=get', '--resource=pods/log', '--non-resource-url=/logs/*'],
    created: 'clusterrole.rbac.authorization.k8s.io/log-reader created',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/log-reader',
    keys: ['kind', 'rules', 'aggregationRule'],
    expected: {
      kind: 'ClusterRole',
      rules: [
        { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
        { verbs: ['get'], nonResourceURLs: ['/logs/*'] },
      ],
    },
  },
  'create clusterrole --aggregation-rule': {
    args: ['create', 'clusterrole', 'aggregated', '--aggregation-rule=rbac.example.com/aggregate-to-view=true'],
    created: 'clusterrole.rbac.authorization.k8s.io/aggregated created',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/aggregated',
    keys: ['kind', 'aggregationRule'],
    expected: { kind: 'ClusterRole', aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] } },
  },
  'create clusterrolebinding': {
    args: ['create', 'clusterrolebinding', 'log-readers', '--clusterrole=log-reader', '--group=ops'],
    created: 'clusterrolebinding.rbac.authorization.k8s.io/log-readers created',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/log-readers',
    keys: ['kind', 'subjects', 'roleRef'],
    expected: { kind: 'ClusterRoleBinding', subjects: [{ kind: 'Group', apiGroup: rbacGroup, name: 'ops' }], roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'log-reader' } },
  },
  'create service clusterip': {
    args: ['create', 'service', 'clusterip', 'web', '--tcp=80:8080'],
    created: 'service/web created',
    path: '/api/v1/namespaces/default/services/web',
    keys: ['kind', 'status'],
    expected: { kind: 'Service', status: { loadBalancer: {} } },
  },
  'create service clusterip --clusterip=None': {
    args: ['create', 'service', 'clusterip', 'headless', '--clusterip=None'],
    created: 'service/headless created',
    path: '/api/v1/namespaces/default/services/headless',
    keys: ['kind'],
    expected: { kind: 'Service' },
  },
  'create secret generic': {
    args: ['create', 'secret', 'generic', 'creds', '--from-literal=user=admin', '--type=example.com/basic'],
    created: 'secret/creds created',
    path: '/api/v1/namespaces/default/secrets/creds',
    keys: ['kind', 'data', 'type'],
    expected: { kind: 'Secret', data: { user: 'YWRtaW4=' }, type: 'example.com/basic' },
  },
  'create configmap': {
    args: ['create', 'configmap', 'settings', '--from-literal=mode=fast', '--from-literal=level=3'],
    created: 'configmap/settings created',
    path: '/api/v1/namespaces/default/configmaps/settings',
    keys: ['kind', 'data'],
    expected: { kind: 'ConfigMap', data: { level: '3', mode: 'fast' } },
  },
  'create namespace': {
    args: ['create', 'namespace', 'team-a'],
    created: 'namespace/team-a created',
    path: '/api/v1/namespaces/team-a',
    keys: ['kind', 'spec', 'status'],
    expected: { kind: 'Namespace', spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } },
  },
  'create serviceaccount': {
    args: ['create', 'serviceaccount', 'builder'],
    created: 'serviceaccount/builder created',
    path: '/api/v1/namespaces/default/serviceaccounts/builder',
    keys: ['kind', 'secrets'],
    expected: { kind: 'ServiceAccount' },
  },
};

describe('kubectl create sends protobuf, the server stores the object', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(`kubectl ${name}`, async (ctx) => {
      needsKubectl(ctx);
      const run = await kubectl([...c.args, '-v=8']);
      expect(run.stdout).toBe(`${c.created}\n`);
      expect(run.code).toBe(0);
      expect(postContentType(run.stderr)).toBe('application/vnd.kubernetes.protobuf');
      expect(pick(await get(c.path), c.keys)).toEqual(c.expected);
    });
  }

  it('a service: ports and selector as kubectl built them, defaults and a cluster IP from the server', async (ctx) => {
    needsKubectl(ctx);
    const run = await kubectl(['create', 'service', 'nodeport', 'edge', '--tcp=443:https', '--node-port=30443']);
    expect(run.stdout).toBe('service/edge created\n');
    const svc = await get('/api/v1/namespaces/default/services/edge');
    const spec = svc.spec as JsonObject;
    expect((svc.metadata as JsonObject).labels).toEqual({ app: 'edge' });
    expect(pick(spec, ['ports', 'selector', 'type', 'sessionAffinity', 'externalTrafficPolicy', 'internalTrafficPolicy', 'ipFamilies', 'ipFamilyPolicy'])).toEqual({
      ports: [{ name: '443-https', protocol: 'TCP', port: 443, targetPort: 'https', nodePort: 30443 }],
      selector: { app: 'edge' },
      type: 'NodePort',
      sessionAffinity: 'None',
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    const headless = (await get('/api/v1/namespaces/default/services/headless')).spec as JsonObject;
    expect(pick(headless, ['clusterIP', 'clusterIPs', 'selector', 'type'])).toEqual({ clusterIP: 'None', clusterIPs: ['None'], selector: { app: 'headless' }, type: 'ClusterIP' });
  });

  it('--dry-run=server decodes the body and stores nothing', async (ctx) => {
    needsKubectl(ctx);
    const run = await kubectl(['create', 'role', 'dry', '--verb=get', '--resource=secrets', '--dry-run=server']);
    expect(run.stdout).toBe('role.rbac.authorization.k8s.io/dry created (server dry run)\n');
    const res = await server().sim.request({ method: 'GET', path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/dry' });
    expect(res.status).toBe(404);
  });

  it('errors from a protobuf create read as the JSON ones do', async (ctx) => {
    needsKubectl(ctx);
    const again = await kubectl(['create', 'clusterrolebinding', 'log-readers', '--clusterrole=log-reader', '--group=ops']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: failed to create clusterrolebinding: clusterrolebindings.rbac.authorization.k8s.io "log-readers" already exists\n');
    const bad = await kubectl(['create', 'configmap', 'Bad_Name', '--from-literal=a=b']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'error: failed to create configmap: ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')\n',
    );
  });

  it('kubectl create deployment: a kind the simulation does not serve', async (ctx) => {
    needsKubectl(ctx);
    const run = await kubectl(['create', 'deployment', 'web', '--image=nginx']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error: failed to create deployment: the server could not find the requested resource\n');
  });
});
