/**
 * The life of a CSR as a picture: the trace rendered as an HTML timeline (one row per object, a
 * mark per write with revision, actor and state), deterministic, and served at /sim/v1/report.
 */
import { describe, expect, it } from 'vitest';
import { bytesToBase64, utf8Encode } from '../../src/core/base64.ts';
import { renderTimeline } from '../../src/index.ts';
import { sim, type Body } from '../helpers.ts';

const csrs = '/apis/certificates.platform.io/v1/certificatesigningrequests';

async function lifeOfACsr() {
  const s = await sim();
  const { request } = await s.createCertificateRequest({ commonName: 'alice' });
  const created = (await s.request({ method: 'POST', path: csrs, body: { metadata: { name: 'alice' }, spec: { request: bytesToBase64(utf8Encode(request)), signerName: 'platform.io/apiserver-client', usages: ['client auth'] } } })).body as Body;
  await s.advance('5m');
  await s.request({ method: 'PUT', path: `${csrs}/alice/approval`, body: { ...created, status: { conditions: [{ type: 'Approved', status: 'True' }] } } });
  await s.advance('2h');
  return s;
}

describe('timeline report', () => {
  it('draws the life of a CSR: created, approved, issued by the signer, collected by the cleaner', async () => {
    const s = await lifeOfACsr();
    const html = renderTimeline(s.trace(), { title: 'The life of a CSR', resources: ['certificates/certificatesigningrequests'] });
    expect(html).toContain('<h1>The life of a CSR</h1>');
    expect(html).toContain('certificatesigningrequests alice');
    expect((html.match(/<circle /g) ?? []).length).toBe(4);
    expect(html).toMatch(/MODIFIED by csr-signer · 2026-01-01T00:05:00Z · platform\.io\/apiserver-client system:admin Approved,Issued/);
    expect(html).toMatch(/DELETED by csr-cleaner · 2026-01-01T01:05:00Z/);
    expect(renderTimeline((await lifeOfACsr()).trace(), { title: 'The life of a CSR', resources: ['certificates/certificatesigningrequests'] })).toBe(html);
  });
});
