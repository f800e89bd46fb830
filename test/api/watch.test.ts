/**
 * Watch in process: event order, start points (initial events, a resourceVersion, compacted
 * history), selector transitions, bookmarks and timeouts on the simulation clock.
 */
import { describe, expect, it } from 'vitest';
import { createSA, saPath, sim, type Body } from '../helpers.ts';
import type { WatchEvent } from '../../src/index.ts';

const summary = (events: WatchEvent[]) => events.map((e) => `${e.type} ${(e.object as Body).metadata?.name ?? ''}`.trim());

describe('watch', () => {
  it('sees ADDED, MODIFIED, DELETED in order from a resourceVersion', async () => {
    const s = await sim();
    const rv = s.world.revision;
    const w = s.watch(`${saPath()}?resourceVersion=${rv}`);
    await createSA(s, 'a');
    await s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: { 'content-type': 'application/merge-patch+json' }, body: { automountServiceAccountToken: false } });
    await s.request({ method: 'DELETE', path: saPath('default', 'a') });
    const events = w.drain();
    expect(summary(events)).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a']);
    const rvs = events.map((e) => Number((e.object as Body).metadata.resourceVersion));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    expect((events[0]!.object as Body).kind).toBe('ServiceAccount');
    w.close();
  });

  it('sends Tables of one row when asked for them (kubectl get -w), column definitions first only', async () => {
    const s = await sim();
    const res = await s.request({ method: 'GET', path: `${saPath()}?watch=true&resourceVersion=${s.world.revision}`, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    await createSA(s, 'a');
    await s.advance('90s');
    await s.request({ method: 'DELETE', path: saPath('default', 'a') });
    const events = res.watch!.drain();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    const added = events[0]!.object as Body;
    const deleted = events[1]!.object as Body;
    expect(added).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: expect.any(String) } });
    expect(added.columnDefinitions.map((c: Body) => c.name)).toEqual(['Name', 'Secrets', 'Age']);
    expect(added.rows).toEqual([{ cells: ['a', 0, '0s'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'a' }) } }]);
    expect(deleted.columnDefinitions).toBeNull();
    expect(deleted.rows[0].cells).toEqual(['a', 0, '90s']);
    expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(Number(added.metadata.resourceVersion));
    res.watch!.close();
  });

  it('survives a reconnect from the last resourceVersion seen', async () => {
    const s = await sim();
    const w1 = s.watch(`${saPath()}?resourceVersion=${s.world.revision}`);
    await createSA(s, 'a');
    const last = (w1.drain()[0]!.object as Body).metadata.resourceVersion;
    w1.close();
    await createSA(s, 'b');
    const w2 = s.watch(`${saPath()}?resourceVersion=${last}`);
    expect(summary(w2.drain())).toEqual(['ADDED b']);
  });

  it('starts with synthetic ADDED events and the initial-events-end bookmark', async () => {
    const s = await sim();
    await createSA(s, 'a');
    const w = s.watch(`${saPath()}?sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const events = w.drain();
    expect(summary(events)).toEqual(['ADDED a', 'ADDED default', 'BOOKMARK']);
    expect(events[2]!.object).toEqual({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { resourceVersion: String(s.world.revision), annotations: { 'k8s.io/initial-events-end': 'true' } } });
  });

  it('without allowWatchBookmarks there are no bookmarks; with it one every 60 s of virtual time', async () => {
    const s = await sim();
    const plain = s.watch(`${saPath()}?resourceVersion=${s.world.revision}`);
    const marked = s.watch(`${saPath()}?resourceVersion=${s.world.revision}&allowWatchBookmarks=true`);
    await s.advance('59s');
    expect(marked.drain()).toEqual([]);
    await s.advance('1s');
    expect(summary(marked.drain())).toEqual(['BOOKMARK']);
    await s.advance('2m');
    expect(summary(marked.drain())).toEqual(['BOOKMARK', 'BOOKMARK']);
    expect(plain.drain()).toEqual([]);
  });

  it('ends the stream at timeoutSeconds of virtual time', async () => {
    const s = await sim();
    const w = s.watch(`${saPath()}?resourceVersion=${s.world.revision}&timeoutSeconds=30`);
    await s.advance('29s');
    expect(w.closed).toBe(false);
    await s.advance('1s');
    expect(w.closed).toBe(true);
    expect(await w.next()).toEqual({ value: undefined, done: true });
  });

  it('answers 410 as an ERROR event once the history is compacted', async () => {
    const s = await sim();
    const rv = s.world.revision;
    await createSA(s, 'a');
    await s.advance('11m');
    await createSA(s, 'b');
    const w = s.watch(`${saPath()}?resourceVersion=${rv}`);
    const events = w.drain();
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('ERROR');
    expect(events[0]!.object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect((events[0]!.object as Body).message).toMatch(new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`));
    expect(w.closed).toBe(true);
  });

  it('turns selector transitions into ADDED and DELETED', async () => {
    const s = await sim();
    await createSA(s, 'a', { metadata: { labels: { team: 'x' } } });
    const w = s.watch(`${saPath()}?labelSelector=team%3Dx&resourceVersion=${s.world.revision}`);
    const patch = (labels: Record<string, string | null>) =>
      s.request({ method: 'PATCH', path: saPath('default', 'a'), headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { labels } } });
    await patch({ team: 'y' });
    await patch({ team: 'x' });
    await patch({ extra: '1' });
    expect(summary(w.drain())).toEqual(['DELETED a', 'ADDED a', 'MODIFIED a']);
  });

  it('is reachable through sim.request with watch=true', async () => {
    const s = await sim();
    const res = await s.request({ method: 'GET', path: `${saPath()}?watch=true&resourceVersion=${s.world.revision}` });
    expect(res.status).toBe(200);
    await createSA(s, 'a');
    const first = await res.watch!.next();
    expect(first.value?.type).toBe('ADDED');
    res.watch!.close();
  });
});
