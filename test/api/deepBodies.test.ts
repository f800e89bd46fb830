/**
 * Bodies nested thousands of levels deep (YAML and JSON, created, applied or patched) are refused
 * with the real 400 before they can exhaust the parser, and the simulation keeps answering.
 */
import { describe, expect, it } from 'vitest';
import { saPath, sim, type Body } from '../helpers.ts';

const badRequest = (message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
/** The first 30 bytes as the decoder's error shows them: hex unless the body starts with `{`. */
const preview = (body: string) => (body.startsWith('{') ? body.slice(0, 30) : Buffer.from(body).subarray(0, 30).toString('hex'));
const mapChain = (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(2 * i)}a:`).join('\n');

describe('deeply nested bodies', () => {
  it('a YAML create body nested thousands deep is a 400, in flow and in block style', async () => {
    const s = await sim();
    for (const body of ['['.repeat(100_000), '{a: '.repeat(50_000), mapChain(1700), '- '.repeat(100_000)]) {
      const res = await s.request({ method: 'POST', path: saPath(), headers: { 'content-type': 'application/yaml' }, body });
      expect(res.body).toEqual(badRequest(`the object provided is unrecognized (must be of type ServiceAccount): error converting YAML to JSON: exceeded max depth of 100 (${preview(body)})`));
    }
    expect((await s.request({ method: 'POST', path: saPath(), body: { metadata: { name: 'still-here' } } })).status).toBe(201);
  });

  it('a JSON create body nested thousands deep is a 400', async () => {
    const s = await sim();
    for (const body of ['['.repeat(100_000), '{"a":'.repeat(100_000)]) {
      const res = await s.request({ method: 'POST', path: saPath(), headers: { 'content-type': 'application/json' }, body });
      expect(res.body).toEqual(badRequest(`the object provided is unrecognized (must be of type ServiceAccount): exceeded max depth of 100 (${preview(body)})`));
    }
  });

  it('deep apply, merge, strategic and JSON patches are 400s', async () => {
    const s = await sim();
    await s.request({ method: 'POST', path: saPath(), body: { metadata: { name: 'a' } } });
    const apply = await s.request({ method: 'PATCH', path: `${saPath('default', 'a')}?fieldManager=m`, headers: { 'content-type': 'application/apply-patch+yaml' }, body: mapChain(1700) });
    expect(apply.body).toEqual(badRequest('error decoding patch: error converting YAML to JSON: exceeded max depth of 100'));
    for (const type of ['merge-patch+json', 'strategic-merge-patch+json', 'json-patch+json']) {
      const res = await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: { 'content-type': `application/${type}` }, body: '{"a":'.repeat(100_000) });
      expect(res.status).toBe(400);
    }
    // A Scale written as deep YAML (decoded before the StatefulSet is looked up).
    const scale = await s.request({ method: 'PUT', path: '/apis/apps/v1/namespaces/default/statefulsets/web/scale', headers: { 'content-type': 'application/yaml' }, body: '['.repeat(100_000) });
    expect(scale.body).toEqual(badRequest(`the object provided is unrecognized (must be of type Scale): error converting YAML to JSON: exceeded max depth of 100 (${preview('['.repeat(30))})`));
    expect(((await s.request({ method: 'GET', path: saPath('default', 'a') })).body as Body).metadata.name).toBe('a');
  });
});
