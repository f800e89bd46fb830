/**
 * What a world must also hold before a server takes it over (PUT /sim/v1/snapshot, a state file):
 * its revision counter is ahead of everything it stored, so the next write's resourceVersion is
 * new (a world whose revision is behind its log would append out of order, then be refused by its
 * own state file at the next start). A world put from outside must also leave room to count
 * (`fromOutside`): at most `limits.revisionMax`, where the exact integers a resourceVersion needs
 * last for another 2^52 writes. A state file is the server's own world, which got there by
 * writes: it is not bounded, so that a server always starts again from what it saved.
 *
 * `sim.replaceWorld` and `restoreSimulation` do not ask this: tests craft worlds that break these
 * invariants on purpose, for the checkers to find (src/sim/checkers).
 */
import { limits } from '../core/limits.ts';
import { listObjects } from './objects.ts';
import type { World } from './world.ts';

export function servedWorldProblem(world: World, fromOutside: boolean): string | null {
  const r = world.revision;
  if (fromOutside && r > limits.revisionMax) return `world.revision: ${r} leaves no room for more writes (at most ${limits.revisionMax})`;
  if (world.compactedRevision > r) return `world.compactedRevision: ${world.compactedRevision} is beyond the revision ${r}`;
  if (world.revisionAtLastCompaction > r) return `world.revisionAtLastCompaction: ${world.revisionAtLastCompaction} is beyond the revision ${r}`;
  const chunks = world.log.chunks;
  const lastChunk = chunks[chunks.length - 1];
  const lastRv = lastChunk === undefined ? 0 : lastChunk[lastChunk.length - 1]!.rv;
  if (lastRv > r) return `world.log: holds revision ${lastRv}, beyond the revision ${r}`;
  for (const resource of Object.keys(world.objects).sort()) {
    for (const o of listObjects(world, resource, null)) {
      const rv = Number(o.metadata.resourceVersion);
      if (rv > r) return `world.objects[${JSON.stringify(resource)}][${JSON.stringify(o.metadata.namespace ?? '')}][${JSON.stringify(o.metadata.name ?? '')}].metadata.resourceVersion: ${rv} is beyond the revision ${r}`;
    }
  }
  return null;
}
