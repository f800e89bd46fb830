/**
 * CertificateSigningRequest and ClusterTrustBundle strategies, called directly with a strategy
 * context whose crypto facts are established the way the driver does it: a pass records the
 * facts it needs (FactBook), the real edge functions compute them, the pass runs again.
 * Subresource writes are fed as the store feeds them (everything but status from the stored
 * object); main-resource writes get the stored status back (resetFields).
 */
import { describe, expect, it } from 'vitest';
import type { CryptoFacts } from '../../src/api/crypto.ts';
import type { KubeObject } from '../../src/api/meta.ts';
import { namesFor } from '../../src/api/names.ts';
import { noCryptoFacts } from '../../src/api/noCryptoFacts.ts';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { parseInstant } from '../../src/core/duration.ts';
import { fieldErrorString, type FieldError } from '../../src/core/fieldErrors.ts';
import { certificateRequestFact } from '../../src/edges/crypto/certificateRequestFact.ts';
import { parsedCertificatesFact } from '../../src/edges/crypto/parsedCertificatesFact.ts';
import { toPem, x509 } from '../../src/edges/crypto/x509.ts';
import { clusterTrustBundleResource } from '../../src/registry/certificates/cluster-trust-bundle/resource.ts';
import { certificateSigningRequestResource } from '../../src/registry/certificates/csr/resource.ts';
import type { Strategy, StrategyContext } from '../../src/registry/types.ts';
import { FactBook, factKey } from '../../src/sim/factBook.ts';

const names = namesFor('platform.io');
const csrType = certificateSigningRequestResource(names);
const ctbType = clusterTrustBundleResource(names);
const statusStrategy = csrType.subresources.find((s) => s.name === 'status')!.strategy!;
const approvalStrategy = csrType.subresources.find((s) => s.name === 'approval')!.strategy!;
const now = parseInstant('2026-01-01T00:00:00Z')!;
const nowText = '2026-01-01T00:00:00Z';
const user = { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
const known = new Map<string, unknown>();

/** Runs `f` until it needs no new facts, establishing each with the real edge functions. */
async function withFacts<T>(f: (crypto: CryptoFacts) => T): Promise<T> {
  for (let pass = 0; pass < 5; pass++) {
    const book = new FactBook(known);
    const out = f(book);
    if (book.needs.length === 0) return out;
    for (const need of book.needs) {
      if (need.kind === 'certificateRequest') known.set(factKey(need), await certificateRequestFact(need.pem));
      else if (need.kind === 'parsedCertificates') known.set(factKey(need), await parsedCertificatesFact(need.der));
      else throw new Error(`unexpected need ${need.kind}`);
    }
  }
  throw new Error('facts did not settle');
}

const ctxWith = (crypto: CryptoFacts, domain: 'platform.io' | 'k8s.io' = 'platform.io'): StrategyContext => ({
  now,
  names: namesFor(domain),
  lookup: () => undefined,
  user,
  crypto,
  may: () => true,
});

const messages = (errs: readonly FieldError[]): string[] => errs.map(fieldErrorString);
const b64 = (text: string): string => bytesToBase64(utf8Encode(text));

const ed25519 = { name: 'Ed25519' };
async function keys() {
  return (await crypto.subtle.generateKey(ed25519, true, ['sign', 'verify'])) as CryptoKeyPair;
}
/** @peculiar/x509 ends PEM without a newline; files and clients end it with one. */
const requestPem = async (name: string) => `${(await x509.Pkcs10CertificateRequestGenerator.create({ name, keys: await keys(), signingAlgorithm: ed25519 })).toString('pem')}\n`;
const csrPem = await requestPem('CN=alice, O=dev');
const mastersPem = await requestPem('CN=root, O=system:masters');
async function selfSigned(ca: boolean, cn = 'test'): Promise<string> {
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${cn}`,
    notBefore: new Date(Date.UTC(2026, 0, 1)),
    notAfter: new Date(Date.UTC(2027, 0, 1)),
    keys: await keys(),
    signingAlgorithm: ed25519,
    extensions: ca ? [new x509.BasicConstraintsExtension(true, undefined, true)] : [],
  });
  return `${cert.toString('pem')}\n`;
}
const caPem = await selfSigned(true, 'ca');
const otherCaPem = await selfSigned(true, 'other');
const leafPem = await selfSigned(false);

const spec = (extra: Record<string, unknown> = {}) => ({ request: b64(csrPem), signerName: 'example.com/signer', usages: ['digital signature', 'client auth'], ...extra });

async function create(body: Record<string, unknown>, domain: 'platform.io' | 'k8s.io' = 'platform.io'): Promise<{ obj: KubeObject; errors: string[] }> {
  return withFacts((c) => {
    const ctx = ctxWith(c, domain);
    const obj = csrType.strategy.prepareForCreate({ metadata: { name: 'c1' }, ...body }, ctx);
    return { obj, errors: messages(csrType.strategy.validate(obj, ctx)) };
  });
}

const stamped = { lastUpdateTime: '2025-12-01T00:00:00Z', lastTransitionTime: '2025-12-01T00:00:00Z' };

/** A created CSR with this status; stored conditions carry timestamps, as the subresources leave them. */
async function stored(status: { conditions?: Record<string, unknown>[]; certificate?: string } = {}): Promise<KubeObject> {
  const { obj } = await create({ spec: spec() });
  return { ...obj, status: status.conditions === undefined ? status : { ...status, conditions: status.conditions.map((c) => ({ ...stamped, ...c })) } };
}

/** A write through a subresource as the store performs it: status (and spec) from the body, confined by the subresource. */
async function throughSubresource(strat: Strategy, old: KubeObject, status: unknown, spec: unknown = old['spec']): Promise<{ obj: KubeObject; errors: string[] }> {
  const confine = csrType.subresources.find((s) => s.strategy === strat)!.confine!;
  return withFacts((c) => {
    const ctx = ctxWith(c);
    const input: KubeObject = { ...old, spec: spec as KubeObject['spec'] };
    if (status === undefined) delete input['status'];
    else input['status'] = status;
    const obj = strat.prepareForUpdate(confine(input, old), old, ctx);
    return { obj, errors: messages(strat.validateUpdate(obj, old, ctx)) };
  });
}

async function throughMain(old: KubeObject, body: KubeObject): Promise<{ obj: KubeObject; errors: string[] }> {
  return withFacts((c) => {
    const ctx = ctxWith(c);
    const obj = csrType.strategy.prepareForUpdate({ ...body, status: old['status'] }, old, ctx);
    return { obj, errors: messages(csrType.strategy.validateUpdate(obj, old, ctx)) };
  });
}

const cond = (type: string, extra: Record<string, unknown> = {}) => ({ type, status: 'True', reason: 'R', message: 'm', ...extra });

describe('CertificateSigningRequest resource facts', () => {
  it('is cluster-scoped v1 with short name csr, two subresources and signerName selectors', () => {
    expect(csrType).toMatchObject({ id: 'certificates/certificatesigningrequests', group: 'certificates.platform.io', version: 'v1', namespaced: false, shortNames: ['csr'], allowUnconditionalUpdate: true, resetFields: ['status'] });
    expect(csrType.subresources.map((s) => s.name).sort()).toEqual(['approval', 'status']);
    expect(certificateSigningRequestResource(namesFor('k8s.io')).group).toBe('certificates.k8s.io');
    expect(csrType.fieldSelectors).toMatchObject({ fields: ['metadata.name', 'spec.signerName'], custom: true });
    expect(csrType.fieldSelectors.extract({ metadata: { name: 'x' }, spec: { signerName: 'a.b/c' } })).toEqual({ 'metadata.name': 'x', 'spec.signerName': 'a.b/c' });
  });
});

describe('CSR create', () => {
  it('records the requesting user, ignores what the client sent there, and empties status', async () => {
    const { obj, errors } = await create({ spec: spec({ username: 'mallory', groups: ['system:masters'] }), status: { conditions: [cond('Approved'), cond('Denied')], certificate: 'bm9wZQ==' } });
    expect(errors).toEqual([]);
    expect(obj['spec']).toEqual({ ...spec(), username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
    expect(obj['status']).toEqual({});
    const plain = await withFacts((c) => csrType.strategy.prepareForCreate({ metadata: { name: 'c' }, spec: spec() }, { ...ctxWith(c), user: { username: 'bob', groups: [] } }));
    expect(plain['spec']).toEqual({ ...spec(), username: 'bob' });
  });

  it('V3: the request must be a verified CERTIFICATE REQUEST', async () => {
    const hello = b64('hello');
    expect((await create({ spec: spec({ request: hello }) })).errors).toEqual([`spec.request: Invalid value: "${hello}": PEM block type must be CERTIFICATE REQUEST`]);
    expect((await create({ spec: spec({ request: b64(leafPem) }) })).errors[0]).toContain('PEM block type must be CERTIFICATE REQUEST');
    expect((await create({ spec: { signerName: 'example.com/s', usages: ['any'] } })).errors).toEqual(['spec.request: Invalid value: "": PEM block type must be CERTIFICATE REQUEST']);
    const der = new x509.Pkcs10CertificateRequest(csrPem).rawData;
    const tampered = new Uint8Array(der);
    tampered[tampered.length - 1]! ^= 1;
    const bad = b64(toPem(tampered, 'CERTIFICATE REQUEST'));
    expect((await create({ spec: spec({ request: bad }) })).errors).toEqual([`spec.request: Invalid value: "${bad}": x509: Ed25519 verification failure`]);
  });

  it('reports request text that is not base64 as Go decoding does', async () => {
    expect((await create({ spec: spec({ request: 'abc' }) })).errors).toEqual(['spec.request: Invalid value: "abc": illegal base64 data at input byte 0']);
    expect((await create({ spec: spec({ request: 'ab!d' }) })).errors).toEqual(['spec.request: Invalid value: "ab!d": illegal base64 data at input byte 2']);
    expect((await create({ spec: spec({ request: 'YQ==x' }) })).errors).toEqual(['spec.request: Invalid value: "YQ==x": illegal base64 data at input byte 4']);
  });

  it('V4–V6: usages required, known, unique', async () => {
    expect((await create({ spec: spec({ usages: [] }) })).errors).toEqual(['spec.usages: Required value']);
    const supported = 'supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"';
    expect((await create({ spec: spec({ usages: ['unknown', 'unknown'] }) })).errors).toEqual([
      `spec.usages[0]: Unsupported value: "unknown": ${supported}`,
      `spec.usages[1]: Unsupported value: "unknown": ${supported}`,
      'spec.usages[1]: Duplicate value: "unknown"',
    ]);
  });

  it('V7–V9: signerName required, well-formed, not the legacy signer', async () => {
    const errs = async (signerName: string) => (await create({ spec: spec({ signerName }) })).errors;
    expect(await errs('')).toEqual(['spec.signerName: Required value']);
    expect(await errs('invalid')).toEqual([`spec.signerName: Invalid value: "invalid": must be a fully qualified domain and path of the form 'example.com/signer-name'`]);
    expect(await errs('a/b/c')).toEqual([`spec.signerName: Invalid value: "a/b/c": must be a fully qualified domain and path of the form 'example.com/signer-name'`]);
    expect(await errs('example/x')).toEqual(['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']);
    expect(await errs('Example.com/x')).toEqual([
      `spec.signerName: Invalid value: "Example.com": validating label "Example": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
    expect(await errs('example.com/')).toEqual([
      `spec.signerName: Invalid value: "": validating label "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
    const longDomain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    expect(await errs(`${longDomain}/x`)).toEqual(['spec.signerName: Too long: may not be more than 253 bytes']);
    expect(await errs(`example.com/${'a'.repeat(250)}.${'b'.repeat(250)}.${'c'.repeat(250)}`)).toEqual(['spec.signerName: Too long: may not be more than 571 bytes']);
    expect(await errs('platform.io/legacy-unknown')).toEqual(['spec.signerName: Invalid value: "platform.io/legacy-unknown": the legacy signerName is not allowed via this API version']);
    expect((await create({ spec: spec({ signerName: 'kubernetes.io/legacy-unknown' }) }, 'k8s.io')).errors).toEqual(['spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version']);
    expect(await errs('platform.io/anything-new')).toEqual([]);
  });

  it('V10: expirationSeconds at least 600', async () => {
    expect((await create({ spec: spec({ expirationSeconds: 599 }) })).errors).toEqual(['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']);
    expect((await create({ spec: spec({ expirationSeconds: -420 }) })).errors).toEqual(['spec.expirationSeconds: Invalid value: -420: may not specify a duration less than 600 seconds (10 minutes)']);
    expect((await create({ spec: spec({ expirationSeconds: 600 }) })).errors).toEqual([]);
  });

  it('accumulates causes in Kubernetes order: request, usages, signerName, expirationSeconds', async () => {
    expect((await create({ spec: { request: b64('x'), usages: [], signerName: '', expirationSeconds: 1 } })).errors).toEqual([
      `spec.request: Invalid value: "${b64('x')}": PEM block type must be CERTIFICATE REQUEST`,
      'spec.usages: Required value',
      'spec.signerName: Required value',
      'spec.expirationSeconds: Invalid value: 1: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
  });

  it('rejects system:masters requests for the API-server client signer only (admission)', async () => {
    const admit = (signerName: string, pem: string) => withFacts((c) => csrType.validateCreateAdmission!({ metadata: { name: 'c' }, spec: spec({ signerName, request: b64(pem) }) }, ctxWith(c)));
    expect(await admit('platform.io/apiserver-client', mastersPem)).toEqual({ ok: false, message: 'use of platform.io/apiserver-client signer with system:masters group is not allowed' });
    expect((await admit('platform.io/apiserver-client', csrPem)).ok).toBe(true);
    expect((await admit('platform.io/apiserver-client-nodeagent', mastersPem)).ok).toBe(true);
    expect((await admit('platform.io/apiserver-client', 'garbage')).ok).toBe(true);
  });
});

describe('CSR main-resource update', () => {
  it('keeps the stored status and accepts metadata changes', async () => {
    const old = await stored({ conditions: [cond('Approved')] });
    const { obj, errors } = await throughMain(old, { ...old, metadata: { ...old.metadata, labels: { a: 'b' } }, status: { conditions: [cond('Denied')], certificate: b64(caPem) } });
    expect(errors).toEqual([]);
    expect(obj['status']).toEqual(old['status']);
    expect(obj.metadata.labels).toEqual({ a: 'b' });
  });

  it('rejects spec changes as immutable (divergence: Kubernetes drops them silently)', async () => {
    const old = await stored();
    const oldSpec = old['spec'] as Record<string, unknown>;
    const { errors } = await throughMain(old, { ...old, spec: { ...oldSpec, usages: ['server auth'], username: 'mallory' } });
    expect(errors).toEqual(['spec.usages: Invalid value: ["server auth"]: field is immutable', 'spec.username: Invalid value: "mallory": field is immutable']);
  });
});

describe('CSR spec on every write path', () => {
  it('rejects spec changes through /approval and /status as immutable too (contract: not dropped)', async () => {
    const old = await stored({ conditions: [cond('Approved')] });
    const oldSpec = old['spec'] as Record<string, unknown>;
    const changed = { ...oldSpec, signerName: 'example.com/other', groups: ['system:masters'] };
    const immutable = ['spec.signerName: Invalid value: "example.com/other": field is immutable', 'spec.groups: Invalid value: ["system:masters"]: field is immutable'];
    expect((await throughSubresource(approvalStrategy, old, { conditions: [cond('Approved')] }, changed)).errors).toEqual(immutable);
    expect((await throughSubresource(statusStrategy, old, { conditions: [cond('Approved'), cond('Failed')] }, changed)).errors).toEqual(immutable);
    expect((await throughMain(old, { ...old, spec: changed })).errors).toEqual(immutable);
    const same = await throughSubresource(statusStrategy, old, { conditions: [cond('Approved'), cond('Failed')] }, { ...oldSpec });
    expect(same.errors).toEqual([]);
    expect(same.obj['spec']).toBe(oldSpec);
  });
});

describe('CSR /approval', () => {
  it('adds Approved with timestamps and ignores a certificate in the body', async () => {
    const old = await stored();
    const { obj, errors } = await throughSubresource(approvalStrategy, old, { conditions: [cond('Approved')], certificate: b64(caPem) });
    expect(errors).toEqual([]);
    expect(obj['status']).toEqual({ conditions: [{ ...cond('Approved'), lastUpdateTime: nowText, lastTransitionTime: nowText }] });
    expect(obj['spec']).toEqual(old['spec']);
  });

  it('keeps client timestamps and reuses the stored transition time for the same type and status', async () => {
    const old = await stored({ conditions: [cond('Custom', { status: 'False', lastUpdateTime: '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z' })] });
    const { obj } = await throughSubresource(approvalStrategy, old, { conditions: [cond('Custom', { status: 'False' }), cond('Approved', { lastUpdateTime: '2025-06-01T00:00:00Z' })] });
    expect((obj['status'] as { conditions: unknown[] }).conditions).toEqual([
      { ...cond('Custom', { status: 'False' }), lastUpdateTime: nowText, lastTransitionTime: '2025-01-01T00:00:00Z' },
      { ...cond('Approved'), lastUpdateTime: '2025-06-01T00:00:00Z', lastTransitionTime: nowText },
    ]);
    const flipped = await throughSubresource(approvalStrategy, old, { conditions: [cond('Custom', { status: 'True' })] });
    expect((flipped.obj['status'] as { conditions: { lastTransitionTime: string }[] }).conditions[0]!.lastTransitionTime).toBe(nowText);
  });

  it('validates each condition and the Approved/Denied exclusion', async () => {
    const old = await stored();
    expect((await throughSubresource(approvalStrategy, old, { conditions: [cond('Approved'), cond('Denied')] })).errors).toEqual(['status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']);
    expect((await throughSubresource(approvalStrategy, old, { conditions: [cond('Approved', { status: 'False' })] })).errors).toEqual(['status.conditions[0].status: Unsupported value: "False": supported values: "True"']);
    expect((await throughSubresource(approvalStrategy, old, { conditions: [cond('Custom', { status: 'Maybe' })] })).errors).toEqual(['status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"']);
    expect((await throughSubresource(approvalStrategy, old, { conditions: [{ type: '', status: '' }] })).errors).toEqual(['status.conditions[0].type: Required value', 'status.conditions[0].status: Required value']);
    expect((await throughSubresource(approvalStrategy, old, { conditions: [cond('Failed'), cond('Failed')] })).errors).toEqual(['status.conditions[1].type: Duplicate value: "Failed"']);
  });

  it('never removes Approved, Denied or Failed; allows Failed and custom types', async () => {
    const old = await stored({ conditions: [cond('Approved')] });
    expect((await throughSubresource(approvalStrategy, old, undefined)).errors).toEqual(['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
    expect((await throughSubresource(approvalStrategy, old, { conditions: [cond('Approved'), cond('Failed'), cond('ApprovalPatch')] })).errors).toEqual([]);
    const withMessage = await throughSubresource(approvalStrategy, old, { conditions: [cond('Approved', { message: 'edited' })] });
    expect(withMessage.errors).toEqual([]);
    expect((withMessage.obj['status'] as { conditions: { message: string }[] }).conditions[0]!.message).toBe('edited');
  });
});

describe('CSR /status', () => {
  it('may not add Approved or Denied, and silently keeps the stored ones', async () => {
    const pending = await stored();
    expect((await throughSubresource(statusStrategy, pending, { conditions: [cond('Approved')] })).errors).toEqual(['status.conditions: Forbidden: updates may not add a condition of type "Approved"']);
    expect((await throughSubresource(statusStrategy, pending, { conditions: [cond('Denied')] })).errors).toEqual(['status.conditions: Forbidden: updates may not add a condition of type "Denied"']);
    const approvedCsr = await stored({ conditions: [cond('Approved', { lastUpdateTime: '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z' })] });
    const edited = await throughSubresource(statusStrategy, approvedCsr, { conditions: [cond('Approved', { message: 'edited' })] });
    expect(edited.errors).toEqual([]);
    expect(edited.obj['status']).toEqual(approvedCsr['status']);
    expect((await throughSubresource(statusStrategy, approvedCsr, { conditions: [] })).errors).toEqual(['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
  });

  it('adds Failed with timestamps and never removes it', async () => {
    const old = await stored({ conditions: [cond('Approved')] });
    const failed = await throughSubresource(statusStrategy, old, { conditions: [cond('Approved'), cond('Failed')] });
    expect(failed.errors).toEqual([]);
    expect((failed.obj['status'] as { conditions: unknown[] }).conditions[1]).toEqual({ ...cond('Failed'), lastUpdateTime: nowText, lastTransitionTime: nowText });
    const withFailed = await stored({ conditions: [cond('Approved'), cond('Failed')] });
    expect((await throughSubresource(statusStrategy, withFailed, { conditions: [cond('Approved')] })).errors).toEqual(['status.conditions: Forbidden: updates may not remove a condition of type "Failed"']);
  });

  it('sets a certificate once, only after approval and never after Denied or Failed (divergences), never changes it', async () => {
    const approvedCsr = await stored({ conditions: [cond('Approved')] });
    const issued = await throughSubresource(statusStrategy, approvedCsr, { conditions: [cond('Approved')], certificate: b64(`issued:\n${leafPem}${caPem}`) });
    expect(issued.errors).toEqual([]);
    expect((issued.obj['status'] as { certificate: string }).certificate).toBe(b64(`issued:\n${leafPem}${caPem}`));
    const rule = 'status.certificate: Forbidden: a certificate may only be set on a request with an Approved condition and no Denied or Failed condition';
    expect((await throughSubresource(statusStrategy, await stored(), { certificate: b64(leafPem) })).errors).toEqual([rule]);
    expect((await throughSubresource(statusStrategy, await stored({ conditions: [cond('Denied')] }), { conditions: [cond('Denied')], certificate: b64(leafPem) })).errors).toEqual([rule]);
    // The spec (001): the certificate stays empty when the signer failed.
    const failed = await stored({ conditions: [cond('Approved'), cond('Failed')] });
    expect((await throughSubresource(statusStrategy, failed, { conditions: [cond('Approved'), cond('Failed')], certificate: b64(leafPem) })).errors).toEqual([rule]);
    const done = { ...approvedCsr, status: { ...(approvedCsr['status'] as object), certificate: b64(leafPem) } };
    expect((await throughSubresource(statusStrategy, done, { conditions: [cond('Approved')], certificate: b64(caPem) })).errors).toEqual(['status.certificate: Forbidden: updates may not modify existing certificate content']);
    expect((await throughSubresource(statusStrategy, done, { conditions: [cond('Approved')], certificate: b64(leafPem) })).errors).toEqual([]);
  });

  it('validates certificate content (§4.3)', async () => {
    const approvedCsr = await stored({ conditions: [cond('Approved')] });
    const check = async (text: string) => (await throughSubresource(statusStrategy, approvedCsr, { conditions: [cond('Approved')], certificate: b64(text) })).errors;
    const at = 'status.certificate: Invalid value: "<certificate data>": ';
    expect(await check('just text')).toEqual([`${at}must contain at least one CERTIFICATE PEM block`]);
    expect(await check('-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n')).toEqual([`${at}must contain at least one CERTIFICATE PEM block`]);
    expect(await check(`${leafPem}${csrPem}`)).toEqual([`${at}only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"`]);
    expect(await check(leafPem.replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\n\n'))).toEqual([`${at}no PEM block headers are permitted`]);
    expect(await check(toPem(new Uint8Array([0x30, 0x03, 1, 2, 3]), 'CERTIFICATE'))).toEqual([`${at}x509: malformed certificate`]);
    expect(await check('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n')).toEqual([`${at}found CERTIFICATE PEM block containing 0 certificates`]);
  });
});

describe('CSR table', () => {
  const cell = (name: string, obj: KubeObject) => csrType.table!.find((c) => c.name === name)!.cell(obj, now);
  const csr = (status: unknown, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 'c', creationTimestamp: '2025-12-31T23:00:00Z' }, spec: { signerName: 'a.b/c', username: 'alice', ...extra }, status });

  it('prints kubectl get csr columns', () => {
    expect(csrType.table!.map((c) => c.name)).toEqual(['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    expect(cell('Age', csr({}))).toBe('60m');
    expect(cell('SignerName', csr({}))).toBe('a.b/c');
    expect(cell('Requestor', csr({}))).toBe('alice');
    expect(cell('RequestedDuration', csr({}))).toBe('<none>');
    expect(cell('RequestedDuration', csr({}, { expirationSeconds: 600 }))).toBe('10m');
    expect(cell('RequestedDuration', csr({}, { expirationSeconds: 86400 }))).toBe('24h');
    expect(cell('Condition', csr({}))).toBe('Pending');
    expect(cell('Condition', csr({ conditions: [cond('Approved')], certificate: 'eA==' }))).toBe('Approved,Issued');
    expect(cell('Condition', csr({ conditions: [cond('Approved'), cond('Failed')] }))).toBe('Approved,Failed');
    expect(cell('Condition', csr({ conditions: [cond('Denied')] }))).toBe('Denied');
  });
});

describe('ClusterTrustBundle', () => {
  const bundle = (name: string, signerName: string | undefined, trustBundle: string): KubeObject => ({ metadata: { name }, spec: { ...(signerName === undefined ? {} : { signerName }), trustBundle } });
  const validate = (obj: KubeObject) => withFacts((c) => messages(ctbType.strategy.validate(ctbType.strategy.prepareForCreate(obj, ctxWith(c)), ctxWith(c))));
  const bad = (detail: string) => `spec.trustBundle: Invalid value: "<value omitted>": ${detail}`;

  it('is cluster-scoped v1beta1, conditional PUT, signerName selectors', () => {
    expect(ctbType).toMatchObject({ id: 'certificates/clustertrustbundles', version: 'v1beta1', namespaced: false, allowUnconditionalUpdate: false, subresources: [] });
    expect(ctbType.fieldSelectors.extract(bundle('a', 'x.y/z', ''))).toEqual({ 'metadata.name': 'a', 'spec.signerName': 'x.y/z' });
    expect(ctbType.table!.map((c) => c.cell(bundle('a', undefined, ''), now))).toEqual(['a', '<none>']);
  });

  it('ties the name to the signer', async () => {
    expect(await validate(bundle('foo.com:bar:abc', 'foo.com/bar', caPem))).toEqual([]);
    expect(await validate(bundle('plain', undefined, caPem))).toEqual([]);
    expect(await validate(bundle('foo.com:bar', undefined, caPem))).toEqual(['metadata.name: Invalid value: "foo.com:bar": ClusterTrustBundle without signer name must not have ":" in its name']);
    expect(await validate(bundle('abc', 'k8s.io/foo', caPem))).toEqual(['metadata.name: Invalid value: "abc": ClusterTrustBundle for signerName k8s.io/foo must be named with prefix k8s.io:foo:']);
    expect((await validate(bundle('k8s.io:foo:123notvalidDNSSubdomain', 'k8s.io/foo', caPem)))[0]).toContain('a lowercase RFC 1123 subdomain must consist of');
    expect(await validate(bundle('invalid:foo', 'invalid', caPem))).toEqual([`spec.signerName: Invalid value: "invalid": must be a fully qualified domain and path of the form 'example.com/signer-name'`]);
  });

  it('validates the trust bundle', async () => {
    expect(await validate(bundle('b', undefined, `intro\n${caPem}between\n${otherCaPem}`))).toEqual([]);
    expect(await validate(bundle('b', undefined, leafPem))).toEqual([bad('entry 0 does not have the CA bit set')]);
    expect(await validate(bundle('b', undefined, `${caPem}${csrPem}${caPem.replace('-----\n', '-----\nA: b\n\n')}`))).toEqual([bad('entry 1 has bad block type: CERTIFICATE REQUEST'), bad('entry 2 has PEM block headers')]);
    expect(await validate(bundle('b', undefined, toPem(new Uint8Array([0x30, 0x03, 1, 2, 3]), 'CERTIFICATE')))).toEqual([bad('entry 0 does not parse as X.509')]);
    expect(await validate(bundle('b', undefined, ''))).toEqual([bad('at least one trust anchor must be provided')]);
    expect(await validate(bundle('b', undefined, `${caPem}${otherCaPem}${caPem}${otherCaPem}`))).toEqual([bad('duplicate trust anchor (indices [0 2])'), bad('duplicate trust anchor (indices [1 3])')]);
    expect(await validate(bundle('b', undefined, 'x'.repeat(1024 * 1024 + 1)))).toEqual(['spec.trustBundle: Too long: may not be more than 1048576 bytes']);
  });

  it('keeps signerName immutable and skips parsing an unchanged bundle', async () => {
    const old = { ...bundle('foo.com:bar:abc', 'foo.com/bar', 'not parsed again'), metadata: { name: 'foo.com:bar:abc', labels: { a: 'b' } } };
    const ctx = ctxWith(noCryptoFacts);
    expect(messages(ctbType.strategy.validateUpdate({ ...old, metadata: { name: old.metadata.name } }, old, ctx))).toEqual([]);
    expect(messages(ctbType.strategy.validateUpdate(bundle('foo.com:bar:abc', 'foo.com/bar2', 'not parsed again'), old, ctx))).toEqual([
      'metadata.name: Invalid value: "foo.com:bar:abc": ClusterTrustBundle for signerName foo.com/bar2 must be named with prefix foo.com:bar2:',
      'spec.signerName: Invalid value: "foo.com/bar2": field is immutable',
    ]);
    const emptied = await withFacts((c) => messages(ctbType.strategy.validateUpdate(bundle('foo.com:bar:abc', 'foo.com/bar', ''), old, ctxWith(c))));
    expect(emptied).toEqual([bad('at least one trust anchor must be provided')]);
  });
});
