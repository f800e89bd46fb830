/**
 * `platform-sim serve` flags: kube-apiserver names, Go-style booleans and comma lists, files read
 * and PKCS#1 / SEC1 keys converted, bad usage reported (exit code 2 in the CLI).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../../src/cli/cli.ts';
import { parseServeFlags } from '../../../src/cli/serveFlags.ts';

const dir = mkdtempSync(join(tmpdir(), 'psim-flags-'));

describe('serve flags', () => {
  it('has the contract defaults', () => {
    const r = parseServeFlags([]);
    expect(r).toEqual({ ok: true, options: { host: '127.0.0.1', port: 6443, clock: 'wall', groupDomain: 'platform.io', settle: 'auto', tls: true, nodeAgent: true, anonymousAuth: false, serviceAccountExtendTokenExpiration: true } });
  });

  it('reads Go-style booleans and comma lists', () => {
    const r = parseServeFlags(['--no-tls', '--anonymous-auth', '--service-account-extend-token-expiration=false', '--no-node-agent', '--api-audiences', 'a, b', '--feature-gates', 'ServiceAccountTokenNodeBinding=true', '--pod-ready-after', '5s', '--service-account-max-token-expiration', '1h']);
    expect(r.ok && r.options).toMatchObject({
      tls: false,
      anonymousAuth: true,
      serviceAccountExtendTokenExpiration: false,
      nodeAgent: false,
      apiAudiences: ['a', 'b'],
      featureGates: { ServiceAccountTokenNodeBinding: true },
      podReadyAfter: '5s',
      serviceAccountMaxTokenExpiration: '1h',
    });
    expect(parseServeFlags(['--schedule', 'seeded'])).toMatchObject({ ok: true, options: { schedule: 'seeded' } });
    expect(parseServeFlags(['--schedule', 'random'])).toEqual({ ok: false, message: '--schedule: must be fixed or seeded' });
    expect(parseServeFlags(['--anonymous-auth=true']).ok && (parseServeFlags(['--anonymous-auth=true']) as { options: { anonymousAuth: boolean } }).options.anonymousAuth).toBe(true);
  });

  it('reads files: CA bundles, request-header settings, PKCS#1 and SEC1 keys', () => {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const rsa = join(dir, 'rsa.pem');
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs1' }));
    const ec = join(dir, 'ec.pem');
    writeFileSync(ec, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'sec1' }));
    const r = parseServeFlags(['--client-ca-file', ca, '--requestheader-client-ca-file', ca, '--requestheader-allowed-names', 'front-proxy', '--requestheader-uid-headers', 'X-Remote-Uid', '--service-account-signing-key-file', rsa, '--service-account-signing-key-file', ec]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.options.clientCA).toContain('BEGIN CERTIFICATE');
    expect(r.options.requestHeader).toMatchObject({ allowedNames: ['front-proxy'], uidHeaders: ['X-Remote-Uid'] });
    expect(r.options.signingKeys).toHaveLength(2);
    for (const k of r.options.signingKeys!) expect(k).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('reports bad usage', async () => {
    expect(parseServeFlags(['--port', 'x'])).toEqual({ ok: false, message: '--port: "x" is not a port number' });
    expect(parseServeFlags(['--bogus']).ok).toBe(false);
    expect(parseServeFlags(['--feature-gates', 'Foo']).ok).toBe(false);
    expect(parseServeFlags(['--client-ca-file', join(dir, 'missing.pem')])).toEqual({ ok: false, message: `--client-ca-file: cannot read ${join(dir, 'missing.pem')}: ENOENT` });
    expect(parseServeFlags(['--cluster-signing-cert-file', 'x'])).toEqual({ ok: false, message: '--cluster-signing-cert-file and --cluster-signing-key-file go together' });
    const err: string[] = [];
    expect((await cli(['serve', '--port', 'x'], { out: () => {}, err: (l) => err.push(l) })).code).toBe(2);
    expect(err[0]).toContain('--port');
    expect((await cli(['serve', '--feature-gates', 'Unknown=true', '--port', '0', '--no-tls'], { out: () => {}, err: (l) => err.push(l) })).code).toBe(2);
    expect(err[err.length - 1]).toContain('unrecognized feature gate: Unknown');
  });

  it.each([
    ['RS256', () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs1' })],
    ['ES256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'sec1' })],
    ['ES384', () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'pem', type: 'pkcs8' })],
  ])('uses a supplied signing key: %s tokens that review', async (alg, key) => {
    const file = join(dir, `${alg}.pem`);
    writeFileSync(file, key());
    const r = parseServeFlags(['--service-account-signing-key-file', file]);
    const { createSimulation } = await import('../../../src/index.ts');
    const s = await createSimulation({ signingKeys: r.ok ? r.options.signingKeys! : [] });
    expect(s.serviceAccountKeys[0]!.alg).toBe(alg);
    await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'a' } } });
    const tr = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/a/token', body: { spec: {} } });
    const token = (tr.body as { status: { token: string } }).status.token;
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg });
    const review = await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/tokenreviews', body: { spec: { token } } });
    expect((review.body as { status: { authenticated: boolean } }).status.authenticated).toBe(true);
  });
});
