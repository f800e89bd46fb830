/**
 * k8s.io compatibility mode with unmodified clients: `kubectl auth whoami`, `kubectl create
 * token`, `kubectl certificate approve` (when kubectl is installed; skipped with a message
 * otherwise) and the typed CertificatesV1Api of @kubernetes/client-node.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../src/edges/crypto/x509.ts';
import { serve, type RunningServer } from '../../src/server.ts';
import { expectVerifies } from '../issuedCertificates.ts';
import { kubectlInstalled } from './clients.ts';

let server: RunningServer;
const dir = mkdtempSync(join(tmpdir(), 'psim-k8s-'));
const kubeconfig = join(dir, 'kubeconfig');

beforeAll(async () => {
  server = await serve({ port: 0, clock: 'manual', seed: 31, kubeconfig, groupDomain: 'k8s.io' });
});
afterAll(async () => {
  await server.close();
});

const kubectl = (args: string[]) => promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir } });

async function csrPem(cn: string): Promise<string> {
  const keys = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  return (await x509.Pkcs10CertificateRequestGenerator.create({ name: `CN=${cn}`, keys, signingAlgorithm: { name: 'Ed25519' } })).toString('pem');
}

describe('k8s.io mode with kubectl', () => {
  it('kubectl auth whoami shows the admin', async (ctx) => {
    if (!kubectlInstalled()) {
      console.log('kubectl is not installed: skipping kubectl auth whoami');
      ctx.skip();
    }
    const out = (await kubectl(['auth', 'whoami'])).stdout;
    expect(out).toMatch(/Username\s+system:admin/);
    expect(out).toMatch(/Groups\s+\[system:masters system:authenticated\]/);
  });

  it('kubectl auth can-i answers from RBAC, with --list', async (ctx) => {
    if (!kubectlInstalled()) {
      console.log('kubectl is not installed: skipping kubectl auth can-i');
      ctx.skip();
    }
    expect((await kubectl(['auth', 'can-i', 'create', 'serviceaccounts/token'])).stdout).toBe('yes\n');
    const asBob = await kubectl(['auth', 'can-i', 'list', 'pods', '--as', 'bob']).catch((e: { stdout: string }) => e);
    expect(asBob.stdout).toBe('no\n');
    const list = (await kubectl(['auth', 'can-i', '--list', '--as', 'bob'])).stdout;
    expect(list).toMatch(/selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
  });

  it('kubectl explain reads the OpenAPI schemas', async (ctx) => {
    if (!kubectlInstalled()) {
      console.log('kubectl is not installed: skipping kubectl explain');
      ctx.skip();
    }
    const sa = (await kubectl(['explain', 'serviceaccount'])).stdout;
    expect(sa).toMatch(/KIND:\s+ServiceAccount/);
    expect(sa).toMatch(/automountServiceAccountToken\s+<boolean>/);
    const csr = (await kubectl(['explain', 'csr.spec'])).stdout;
    expect(csr).toMatch(/GROUP:\s+certificates\.k8s\.io/);
    expect(csr).toMatch(/signerName\s+<string>/);
    expect((await kubectl(['explain', 'sts.spec.updateStrategy.rollingUpdate.partition'])).stdout).toContain('Pods with an ordinal at or above the partition are updated');
  });

  it('kubectl create token issues a token that TokenReview accepts', async (ctx) => {
    if (!kubectlInstalled()) {
      console.log('kubectl is not installed: skipping kubectl create token');
      ctx.skip();
    }
    await kubectl(['create', 'serviceaccount', 'robot']);
    const token = (await kubectl(['create', 'token', 'robot', '--duration', '20m'])).stdout.trim();
    const auth = loadConfig().makeApiClient(k8s.AuthenticationV1Api);
    const review = await auth.createTokenReview({ body: { spec: { token } } });
    expect(review.status?.user?.username).toBe('system:serviceaccount:default:robot');
  });

  it('kubectl certificate approve approves a CSR', async (ctx) => {
    if (!kubectlInstalled()) {
      console.log('kubectl is not installed: skipping kubectl certificate approve');
      ctx.skip();
    }
    const file = join(dir, 'csr.yaml');
    const request = Buffer.from(await csrPem('alice')).toString('base64');
    writeFileSync(file, `apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: alice\nspec:\n  request: ${request}\n  signerName: example.com/signer\n  usages: [client auth]\n`);
    expect((await kubectl(['create', '-f', file])).stdout).toBe('certificatesigningrequest.certificates.k8s.io/alice created\n');
    expect((await kubectl(['certificate', 'approve', 'alice'])).stdout).toBe('certificatesigningrequest.certificates.k8s.io/alice approved\n');
    const table = (await kubectl(['get', 'csr'])).stdout;
    expect(table.split('\n')[0]).toMatch(/^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION$/);
    expect(table).toMatch(/alice\s+\S+\s+example\.com\/signer\s+system:admin\s+<none>\s+Approved/);
    // A built-in signer issues at once.
    writeFileSync(file, `apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: carol\nspec:\n  request: ${Buffer.from(await csrPem('carol')).toString('base64')}\n  signerName: kubernetes.io/kube-apiserver-client\n  usages: [client auth]\n`);
    await kubectl(['create', '-f', file]);
    await kubectl(['certificate', 'approve', 'carol']);
    expect((await kubectl(['get', 'csr', 'carol'])).stdout).toMatch(/carol\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+system:admin\s+<none>\s+Approved,Issued/);
    const pem = Buffer.from((await kubectl(['get', 'csr', 'carol', '-o', 'jsonpath={.status.certificate}'])).stdout, 'base64').toString();
    expect(pem).toContain('BEGIN CERTIFICATE');
    expectVerifies(pem, await server.sim.caCertificate(), server.sim.now());
  });
});

function loadConfig(): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  return kc;
}

describe('k8s.io mode with client-node', () => {
  it('creates, approves and reads CSRs with the typed CertificatesV1Api', async () => {
    const certs = loadConfig().makeApiClient(k8s.CertificatesV1Api);
    const request = Buffer.from(await csrPem('bob')).toString('base64');
    const created = await certs.createCertificateSigningRequest({ body: { metadata: { name: 'bob' }, spec: { request, signerName: 'example.com/signer', usages: ['client auth'] } } });
    expect(created.spec.username).toBe('system:admin');
    const approved = await certs.replaceCertificateSigningRequestApproval({
      name: 'bob',
      body: { ...created, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] } },
    });
    expect(approved.status?.conditions?.[0]?.type).toBe('Approved');
    const read = await certs.readCertificateSigningRequestStatus({ name: 'bob' });
    expect(read.status?.conditions?.[0]?.reason).toBe('Test');
    const list = await certs.listCertificateSigningRequest({ fieldSelector: 'spec.signerName=example.com/signer' });
    expect(list.items.map((i) => i.metadata?.name)).toContain('bob');
  });
});
