/**
 * Labels are validated on every write, as ValidateObjectMetaUpdate does on the whole new object:
 * a write that keeps an object's labels does not skip them unless this process found that very
 * map valid before (registry/validation/objectMeta.ts). A map read from a saved world is checked.
 */
import { describe, expect, it } from 'vitest';
import { restoreSimulation } from '../../src/index.ts';
import { sim } from '../helpers.ts';

const path = '/api/v1/namespaces/default/serviceaccounts/robot';

/** Puts `labels` on the stored object named `name` inside a saved world's JSON. */
function relabel(value: unknown, name: string, labels: Record<string, string>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const o = value as { metadata?: { name?: string; labels?: unknown }; apiVersion?: unknown };
  if (typeof o.apiVersion === 'string' && o.metadata?.name === name) {
    o.metadata.labels = labels;
    return true;
  }
  return Object.values(value).some((v) => relabel(v, name, labels));
}

describe('labels kept by an update', () => {
  it('are checked again when they came from a saved world', async () => {
    const s = await sim();
    expect((await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'robot', labels: { app: 'ok' } } } })).status).toBe(201);
    const snapshot = JSON.parse(JSON.stringify(s.snapshot()));
    expect(relabel(snapshot.world, 'robot', { app: 'not valid!' })).toBe(true);
    const restored = await restoreSimulation(snapshot);
    const res = await restored.request({ method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: { automountServiceAccountToken: false } });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('metadata.labels: Invalid value: "not valid!"');
  });

  it('pass again when kept, and a changed map is checked', async () => {
    const s = await sim();
    expect((await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'robot', labels: { app: 'ok' } } } })).status).toBe(201);
    const kept = await s.request({ method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: { automountServiceAccountToken: false } });
    expect(kept.status).toBe(200);
    const changed = await s.request({ method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { labels: { other: '-bad-' } } } });
    expect(changed.status).toBe(422);
  });
});
