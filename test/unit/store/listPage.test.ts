/**
 * A page of a list, checked against its definition: the objects at that revision (the world as it
 * was then), in key order, from the start key on, filtered, cut at the limit, with the count of the
 * rest — for random histories of creates, updates and deletes in two namespaces, read at random
 * past revisions, in one namespace or across all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { listPage } from '../../../src/store/listPage.ts';
import { listObjects, storageKey } from '../../../src/store/objects.ts';
import type { World } from '../../../src/store/world.ts';
import { createSimulation } from '../../../src/index.ts';

const op = fc.record({
  kind: fc.constantFrom('create', 'update', 'delete'),
  ns: fc.constantFrom('a', 'b'),
  name: fc.constantFrom('p', 'q', 'r', 's', 't', 'u-1', 'u'),
  label: fc.constantFrom('x', 'y'),
});

describe('listPage', () => {
  it('agrees with listing the world as it was at that revision', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom<string | null>('a', 'b', null), fc.nat({ max: 4 }), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 8 }), async (ops, reads) => {
        const s = await createSimulation({ seed: 1, settle: 'manual', nodeAgent: false });
        for (const ns of ['a', 'b']) s.requestSync({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: ns } } });
        const worlds: World[] = [s.world];
        for (const o of ops) {
          const path = `/api/v1/namespaces/${o.ns}/configmaps`;
          if (o.kind === 'create') s.requestSync({ method: 'POST', path, body: { metadata: { name: o.name, labels: { l: o.label } } } });
          else if (o.kind === 'update') s.requestSync({ method: 'PATCH', path: `${path}/${o.name}`, headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { labels: { l: o.label } } } });
          else s.requestSync({ method: 'DELETE', path: `${path}/${o.name}` });
          worlds.push(s.world);
        }
        const now = s.world;
        for (const [w, namespace, limit, startPick, filtered] of reads) {
          const then = worlds[w % worlds.length]!;
          const key = (o: KubeObject): string => (namespace === null ? storageKey(o.metadata.namespace ?? '', o.metadata.name ?? '') : (o.metadata.name ?? ''));
          const all = listObjects(then, 'core/configmaps', namespace);
          const keys = all.map(key);
          const start = keys.length === 0 || startPick % 3 === 0 ? undefined : `${keys[startPick % keys.length]!}${startPick % 2 === 0 ? '' : '\u0000'}`;
          const filter = filtered ? (o: KubeObject): boolean => o.metadata.labels?.['l'] === 'x' : undefined;
          const expected = all.filter((o) => (start === undefined || key(o) >= start) && (filter === undefined || filter(o)));
          const page = listPage(now, 'core/configmaps', namespace, then.revision, { ...(start === undefined ? {} : { start }), limit, ...(filter === undefined ? {} : { filter }), countRemaining: !filtered });
          const want = limit === 0 ? expected : expected.slice(0, limit);
          expect(page.items).toEqual(want);
          expect(page.more).toBe(limit > 0 && expected.length > limit);
          if (page.more && !filtered) expect(page.remaining).toBe(expected.length - limit);
        }
      }),
      { numRuns: 60 },
    );
  });
});
