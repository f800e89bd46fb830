/**
 * Event names as the recorder makes them: `<object>.<hex nanoseconds>`, events of one millisecond
 * taking the following nanoseconds, and a name freed by a deleted event taken again first — the
 * same whether the store was read before (the index kept from write to write) or not.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { EventRecorder } from '../../../src/controllers/events.ts';
import { sim } from '../../helpers.ts';

const eventsPath = '/api/v1/namespaces/default/events';
const involved: KubeObject = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default', uid: 'u-1' } } as KubeObject;

describe('event names', () => {
  it('numbers a burst within one millisecond, and reuses a freed name first', async () => {
    const s = await sim();
    const nanos = BigInt(Date.parse('2026-01-01T00:00:00Z')) * 1_000_000n;
    const name = (k: bigint): string => `web.${(nanos + k).toString(16)}`;
    const recorder = new EventRecorder('statefulset-controller');
    const record = async (message: string): Promise<string> => {
      const intent = recorder.record(s.world, { involved, type: 'Normal', reason: 'Test', message });
      if (intent.type !== 'create') throw new Error(`expected a create, got ${intent.type}`);
      const res = await s.request({ method: 'POST', path: eventsPath, body: intent.object });
      expect(res.status).toBe(201);
      return intent.object.metadata.name ?? '';
    };
    expect(await record('a')).toBe(name(0n));
    expect(await record('b')).toBe(name(1n));
    expect(await record('c')).toBe(name(2n));
    expect((await s.request({ method: 'DELETE', path: `${eventsPath}/${name(1n)}` })).status).toBe(200);
    expect(await record('d')).toBe(name(1n));
    expect(await record('e')).toBe(name(3n));
    // A name taken by someone else in the middle of the run is stepped over.
    expect((await s.request({ method: 'POST', path: eventsPath, body: { metadata: { name: name(5n) }, involvedObject: { name: 'web' }, reason: 'X', message: 'x' } })).status).toBe(201);
    expect(await record('f')).toBe(name(4n));
    expect(await record('g')).toBe(name(6n));
    // The same message again is the same event, counted.
    const again = recorder.record(s.world, { involved, type: 'Normal', reason: 'Test', message: 'g' });
    expect(again.type).toBe('update');
  });
});
